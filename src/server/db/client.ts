import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/** The same Drizzle API over PGlite (embedded) or a PostgreSQL pool. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A database or an open transaction: services accept either. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
export type Executor = Database | Tx;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../drizzle');

export interface OpenOptions {
  databaseUrl: string | null;
  /** folder for the embedded database; null = in memory */
  dataDir: string | null;
  /** a PGlite data dump to start from (tests: a migrated template) */
  loadDataDir?: Blob;
}

let poolErrorLogged = false;

export async function openDatabase(opts: OpenOptions): Promise<DatabaseHandle> {
  if (opts.databaseUrl) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    // connectionTimeoutMillis: while PostgreSQL is unreachable a request fails after 3 s (as 503)
    // instead of waiting for a connection forever
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10, connectionTimeoutMillis: 3000 });
    // An idle pooled connection that dies (PostgreSQL restarted, network cut) is reported here; with
    // no listener the 'error' event would crash the process. The pool drops that client and opens a
    // new one on the next query, so the app recovers by itself once PostgreSQL is back.
    pool.on('error', (err) => {
      if (!poolErrorLogged) console.warn(`PostgreSQL connection lost (${err.message}); reconnecting on demand`);
      poolErrorLogged = true;
      setTimeout(() => (poolErrorLogged = false), 10_000).unref();
    });
    const db = drizzle({ client: pool, schema }) as unknown as Database;
    // Several app processes may start together: one migrates at a time.
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock(727274)');
      await migrate(drizzle({ client, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await client.query('SELECT pg_advisory_unlock(727274)').catch(() => undefined);
      client.release();
    }
    return { db, kind: 'postgres', close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let dataDir: string | undefined;
  if (opts.dataDir) {
    dataDir = path.join(opts.dataDir, 'db');
    mkdirSync(dataDir, { recursive: true });
  }
  const client = opts.loadDataDir
    ? await PGlite.create({ loadDataDir: opts.loadDataDir })
    : await PGlite.create(dataDir ? { dataDir } : {});
  const db = drizzle({ client, schema }) as unknown as Database;
  await migrate(drizzle({ client, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
  return { db, kind: 'pglite', close: () => client.close() };
}

export async function ping(db: Database): Promise<void> {
  await db.execute(sql`select 1`);
}

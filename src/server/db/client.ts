import path from 'node:path';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
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
  /** the PostgreSQL server's address (null on the embedded database): a change feed opens its own connection */
  url: string | null;
  /** who is told about every statement (the hot-read cache, lib/hot-cache.ts) */
  observers: Set<StatementObserver>;
  /**
   * The embedded database's own calls, unseen by the observers (null on PostgreSQL): the background
   * jobs keep their queue tables in it (lib/jobs.ts), which no cache reads.
   */
  embedded: EmbeddedSql | null;
  close(): Promise<void>;
}

/** PGlite's two ways in: one statement with parameters, or a script of several without. */
export interface EmbeddedSql {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  exec(text: string): Promise<Array<{ rows: unknown[] }>>;
}

/**
 * Sees every SQL statement the app runs. `query` is called as drizzle sends a statement, in the
 * caller's async context (a read is attributed to whoever runs it); `ran` after a statement finished
 * or failed on a connection (`conn` stands for the connection or the embedded database's transaction;
 * transactions arrive as `begin` … `commit` / `rollback` on one `conn`).
 */
export interface StatementObserver {
  query(text: string): void;
  ran(conn: object, text: string): void;
}

type AnyFn = (...args: unknown[]) => unknown;

/** Wraps a driver's query function so that observers hear each statement once it has finished. */
function observed(observers: Set<StatementObserver>, conn: object, fn: AnyFn): AnyFn {
  return function (this: unknown, ...args: unknown[]) {
    if (observers.size === 0) return fn.apply(this, args);
    const first = args[0] as string | { text?: unknown } | undefined;
    const text = typeof first === 'string' ? first : first?.text;
    if (typeof text !== 'string') return fn.apply(this, args);
    const done = () => {
      for (const o of observers) o.ran(conn, text);
    };
    // pg's pool calls client.query(text, values, callback)
    const cb = args.findIndex((a) => typeof a === 'function');
    if (cb >= 0) {
      const callback = args[cb] as AnyFn;
      args[cb] = function (this: unknown, ...r: unknown[]) {
        done();
        return callback.apply(this, r);
      };
      return fn.apply(this, args);
    }
    let result: unknown;
    try {
      result = fn.apply(this, args);
    } catch (err) {
      done();
      throw err;
    }
    if (result && typeof (result as Promise<unknown>).then === 'function')
      (result as Promise<unknown>).then(done, done);
    else done();
    return result;
  };
}

/** A drizzle query that can be prepared: its `sql.placeholder(name)`s take each execution's values. */
export interface Preparable<T> {
  prepare(name: string): { execute(values?: Record<string, unknown>): Promise<T> };
}

/**
 * A hot statement (a page read that misses the hot cache, the session's), turned into SQL once per
 * executor: `build` writes the query with `sql.placeholder(name)` wherever a call's values go, and is
 * run on the first call with each executor (and each `variant`, when the call site has a few shapes:
 * a viewer or none, a sort); every call after that sends the same text with its `values`, so a request
 * does not pay for drizzle building the query again. A placeholder bypasses the column's encoder:
 * values are passed as the driver takes them (an ISO string for a timestamp).
 *
 * On PostgreSQL the statement is sent as a named prepared statement, parsed and planned once on each
 * pool connection and reused by every request after that on the connection; the embedded database
 * runs it as any other. `label` names the call site; the driver adds a digest of the text
 * (`namedStatements`), so each variant has a statement of its own. Only shapes the code fixes take
 * one: no list of values whose length the data decides.
 */
export function preparedQuery<T, Variant extends string = never>(
  label: string,
  build: (ex: Executor, variant: Variant) => Preparable<T>,
) {
  const built = new WeakMap<Executor, Map<Variant, ReturnType<Preparable<T>['prepare']>>>();
  return (ex: Executor, values: Record<string, unknown>, variant = '' as Variant): Promise<T> => {
    let variants = built.get(ex);
    if (!variants) built.set(ex, (variants = new Map()));
    let statement = variants.get(variant);
    if (!statement) variants.set(variant, (statement = build(ex, variant).prepare(label)));
    return statement.execute(values);
  };
}

/**
 * How many statement texts get a name in one pool: each named text is kept by every connection that
 * ran it (server-side) for the connection's life, so a text past the bound is sent unnamed.
 */
const MAX_NAMED_STATEMENTS = 256;

/**
 * Wraps a pool connection's query function: a statement drizzle sends with a name (`preparedQuery`) is
 * named `<label>_<digest of its text>`, one name per text (pg refuses one name for two texts on a
 * connection); `names` is the pool's.
 */
function namedStatements(names: Map<string, string>, fn: AnyFn): AnyFn {
  return function (this: unknown, ...args: unknown[]) {
    const first = args[0] as { name?: unknown; text?: unknown } | undefined;
    if (first && typeof first === 'object' && typeof first.name === 'string' && typeof first.text === 'string') {
      let name = names.get(first.text);
      if (name === undefined && names.size < MAX_NAMED_STATEMENTS) {
        name = `${first.name}_${createHash('sha1').update(first.text).digest('hex').slice(0, 16)}`;
        names.set(first.text, name);
      }
      args[0] = { ...first, name };
    }
    return fn.apply(this, args);
  };
}

/** drizzle's logger hook: called as each statement is sent, in the caller's context */
const drizzleLogger = (observers: Set<StatementObserver>) => ({
  logQuery(text: string) {
    for (const o of observers) o.query(text);
  },
});

/**
 * PostgreSQL tells every listening app process which table changed, at commit (NOTIFY is
 * transactional), whoever wrote it: another app process, a migration, psql. One trigger per table,
 * per statement; created where missing, so that a restart takes no lock on a table that has it.
 */
export const CHANGES_CHANNEL = 'bb_changes';
const CHANGE_TRIGGERS_SQL = `
create or replace function bb_notify_change() returns trigger language plpgsql as $$
begin
  perform pg_notify('${CHANGES_CHANNEL}', tg_table_name);
  return null;
end $$;
do $$
declare t record;
begin
  for t in select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname = 'public' and c.relkind in ('r', 'p')
             and not exists (select 1 from pg_trigger g where g.tgrelid = c.oid and g.tgname = 'bb_notify_change')
  loop
    execute format('create trigger bb_notify_change after insert or update or delete or truncate on public.%I for each statement execute function bb_notify_change()', t.relname);
  end loop;
end $$;`;

export const MIGRATIONS_FOLDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../drizzle');

export interface OpenOptions {
  databaseUrl: string | null;
  /** folder for the embedded database; null = in memory */
  dataDir: string | null;
  /** a PGlite data dump to start from (tests: a migrated template) */
  loadDataDir?: Blob;
}

let poolErrorLogged = false;

/**
 * PostgreSQL's shared buffer pool. PGlite's PostgreSQL sets up the whole pool in its WASM memory as it
 * starts, so all of it is resident from then on (a WebAssembly.Memory never gives pages back), and
 * initdb's default (128MB, written to the data folder's postgresql.conf) was most of the process's
 * memory. The embedded database is one connection on a small database; pages that do not fit are read
 * back from the data folder through the OS's file cache.
 */
const PGLITE_SHARED_BUFFERS = '8MB';

/** PGlite's own start parameters (single-user mode, no parallel workers, ...) and the app's settings. */
function pgliteStartParams(defaults: readonly string[]): string[] {
  return [...defaults, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`];
}

/**
 * A new data folder is created (initdb, then the migrations) by a child process, whose memory is all
 * given back when it exits. In the app's own process, PGlite.create runs initdb in a second PGlite
 * instance with its own WASM memory and a copy of the new data folder, and the migrations grow the
 * database's WASM memory (for good, see above); that instance is garbage only once a major GC runs, and
 * malloc keeps what was freed (a worker thread's malloc arena stays too), which left a first start with
 * far more memory than a restart on the same folder. The child is plain JavaScript (the server runs as a
 * bundle, the tests as TypeScript) and loads the packages from where this module would.
 */
async function createInChildProcess(dataDir: string, startParams: string[]): Promise<void> {
  const { spawn } = await import('node:child_process');
  const job = JSON.stringify({ base: import.meta.url, dataDir, startParams, migrationsFolder: MIGRATIONS_FOLDER });
  const child = spawn(process.execPath, ['-e', CREATE_DATABASE_SCRIPT, job], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`creating the embedded database in ${dataDir} failed (exit ${code ?? signal})`)),
    );
  });
}

const CREATE_DATABASE_SCRIPT = `
const job = JSON.parse(process.argv[1]);
const load = require('node:module').createRequire(job.base);
const { PGlite } = load('@electric-sql/pglite');
const { drizzle } = load('drizzle-orm/pglite');
const { migrate } = load('drizzle-orm/pglite/migrator');
(async () => {
  const client = await PGlite.create({ dataDir: job.dataDir, startParams: job.startParams });
  try {
    await migrate(drizzle({ client }), { migrationsFolder: job.migrationsFolder });
  } finally {
    await client.close();
  }
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
`;

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
    const observers = new Set<StatementObserver>();
    const names = new Map<string, string>();
    pool.on('connect', (c) => {
      c.query = observed(observers, c, namedStatements(names, c.query as AnyFn)) as typeof c.query;
    });
    const db = drizzle({ client: pool, schema, logger: drizzleLogger(observers) }) as unknown as Database;
    // Several app processes may start together: one migrates at a time.
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock(727274)');
      await migrate(drizzle({ client, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
      await client.query(CHANGE_TRIGGERS_SQL);
    } finally {
      await client.query('SELECT pg_advisory_unlock(727274)').catch(() => undefined);
      client.release();
    }
    return { db, kind: 'postgres', url: opts.databaseUrl, observers, embedded: null, close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let dataDir: string | undefined;
  if (opts.dataDir) {
    dataDir = path.join(opts.dataDir, 'db');
    mkdirSync(dataDir, { recursive: true });
  }
  const startParams = pgliteStartParams(PGlite.defaultStartParams);
  if (dataDir && !existsSync(path.join(dataDir, 'PG_VERSION'))) await createInChildProcess(dataDir, startParams);
  const client = opts.loadDataDir
    ? await PGlite.create({ startParams, loadDataDir: opts.loadDataDir })
    : await PGlite.create(dataDir ? { startParams, dataDir } : { startParams });
  await migrate(drizzle({ client, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
  // one connection: statements on the database itself, and each transaction as its own `conn`
  const observers = new Set<StatementObserver>();
  const raw = client as unknown as Record<'query' | 'exec' | 'transaction', AnyFn>;
  const embedded: EmbeddedSql = {
    query: client.query.bind(client) as EmbeddedSql['query'],
    exec: client.exec.bind(client),
  };
  raw.query = observed(observers, client, raw.query.bind(client));
  raw.exec = observed(observers, client, raw.exec.bind(client));
  const transaction = raw.transaction.bind(client);
  raw.transaction = async (callback: unknown) => {
    const conn = {};
    for (const o of observers) o.ran(conn, 'begin');
    try {
      return await transaction((tx: Record<'query' | 'exec', AnyFn>) => {
        tx.query = observed(observers, conn, tx.query.bind(tx));
        tx.exec = observed(observers, conn, tx.exec.bind(tx));
        return (callback as (t: unknown) => Promise<unknown>)(tx);
      });
    } finally {
      // committed or rolled back by now
      for (const o of observers) o.ran(conn, 'commit');
    }
  };
  const db = drizzle({ client, schema, logger: drizzleLogger(observers) }) as unknown as Database;
  return { db, kind: 'pglite', url: null, observers, embedded, close: () => client.close() };
}

export async function ping(db: Database): Promise<void> {
  await db.execute(sql`select 1`);
}

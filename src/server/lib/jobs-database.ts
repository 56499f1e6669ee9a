import type { EmbeddedSql } from '#server/db/client';

/** How the background jobs (jobs.ts) reach the database: the embedded PGlite or a pool of their own. */

type Row = Record<string, unknown>;
export interface Sql {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Row[] }>;
  close(): Promise<void>;
}

/** pg-boss sends several statements at once only without parameters: PGlite's exec takes those. */
export function embeddedSql(embedded: EmbeddedSql): Sql {
  return {
    async executeSql(text, values) {
      if (values && values.length > 0) return (await embedded.query(text, values)) as { rows: Row[] };
      try {
        const results = await embedded.exec(text);
        return (results[results.length - 1] ?? { rows: [] }) as { rows: Row[] };
      } catch (err) {
        // a script that failed inside its own BEGIN would leave the one connection in a failed
        // transaction for everyone after it
        await embedded.exec('ROLLBACK').catch(() => undefined);
        throw err;
      }
    },
    close: async () => undefined,
  };
}

/**
 * Once closed, a statement is dropped rather than sent: a job that outlived stop()'s grace may still
 * finish and report to pg-boss, which would then query a closed pool. Its job stays active and expires
 * into a retry, as if this process had been killed mid-job.
 */
export function closable(sql: Sql): Sql {
  let closed = false;
  return {
    executeSql: (text, values) => (closed ? Promise.resolve({ rows: [] }) : sql.executeSql(text, values)),
    close() {
      closed = true;
      return sql.close();
    },
  };
}

/** a small pool of its own: workers polling never take the connections requests need */
export async function postgresSql(url: string): Promise<Sql> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max: 3,
    connectionTimeoutMillis: 3000,
    application_name: 'backbeat-jobs',
  });
  pool.on('error', () => undefined); // a dropped idle connection is replaced on the next query
  return {
    executeSql: (text, values) => pool.query(text, values),
    close: () => pool.end(),
  };
}

import { setTimeout as delay } from 'node:timers/promises';
import type { EmbeddedSql } from '#server/db/client';
import { sqlState } from './db-errors.ts';

/**
 * How the background jobs (jobs.ts) reach the database: the embedded PGlite or a pool of their own,
 * shared with pg-boss; and the few statements of jobs.ts itself on pg-boss's tables.
 */

export const JOBS_SCHEMA = 'pgboss';
/** pg-boss's own queue for recurring jobs: not one of ours, never shown */
const INTERNAL_PREFIX = '__pgboss__';

/** PostgreSQL's SQLSTATE for a transaction it ended to break a deadlock */
const DEADLOCK_DETECTED = '40P01';

/**
 * Runs `work` again when PostgreSQL ended it to break a deadlock. Processes starting together on a new
 * database each create the same queues: creating one inserts its row and attaches its partition of the
 * job table, and two processes doing that at once can each wait on the other. The database ends one;
 * on its next try the queue exists and there is nothing left to do.
 */
export async function onDeadlockAgain(work: () => Promise<void>, tries = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (sqlState(err) !== DEADLOCK_DETECTED || attempt >= tries) throw err;
      // apart, so that the processes do not meet again at the same moment
      await delay(50 * attempt + Math.random() * 100);
    }
  }
}

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

/** `work`, listed in `underWay` until it settles (for `untilQuiet`) */
export function listedUntilSettled<T>(underWay: Set<Promise<unknown>>, work: Promise<T>): Promise<T> {
  const listed = work.finally(() => underWay.delete(listed));
  listed.catch(() => undefined);
  underWay.add(listed);
  return work;
}

/** The jobs' connection, shared by pg-boss and jobs.ts, with the statements under way on it. */
export interface SharedSql extends Sql {
  /** what pg-boss is given (see `closable`) */
  pgBoss: { executeSql(text: string, values?: unknown[]): Promise<{ rows?: Row[] }> };
  /** statements sent and not yet answered, from either side */
  underWay: ReadonlySet<Promise<unknown>>;
}

/**
 * Once closed, a statement is dropped rather than sent. A job that outlived stop()'s grace may still
 * finish and report to pg-boss, which does not wait for that report: its statement must not fail, or
 * the failure goes unhandled. pg-boss is answered with no result, which it reads as nothing fetched
 * and nothing changed; the job stays active and expires into a retry, as if this process had been
 * killed mid-job. A statement of jobs.ts itself fails with a sentence instead.
 */
export function closable(sql: Sql): SharedSql {
  let closed = false;
  const underWay = new Set<Promise<unknown>>();
  const send = (text: string, values?: unknown[]) => listedUntilSettled(underWay, sql.executeSql(text, values));
  return {
    executeSql: (text, values) =>
      closed ? Promise.reject(new Error('The background jobs have stopped.')) : send(text, values),
    pgBoss: { executeSql: (text, values) => (closed ? Promise.resolve({}) : send(text, values)) },
    underWay,
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

/**
 * Waits, until `deadline`, for what `underWay` lists (statements, job handlers) to end. Each round lets
 * the event loop turn once, so that what an answer sets off (a handler, its statements) is listed
 * before the next check.
 */
export async function untilQuiet(underWay: () => Promise<unknown>[], deadline: number): Promise<void> {
  for (;;) {
    const pending = underWay();
    const left = deadline - Date.now();
    if (pending.length === 0 || left <= 0) return;
    await Promise.race([Promise.allSettled(pending), delay(left, undefined, { ref: false })]);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Jobs a worker took but never began go back as they were, without counting a try: a job taken on its
 * first try had no start yet, a retry had its count raised. pg-boss's completion after this finds them
 * no longer active.
 */
export async function putBackUntried(sql: Sql, ids: string[]): Promise<void> {
  await sql.executeSql(
    `update ${JOBS_SCHEMA}.job set
       state = (case when retry_count = 0 then 'created' else 'retry' end)::${JOBS_SCHEMA}.job_state,
       started_on = case when retry_count = 0 then null else started_on end,
       retry_count = greatest(retry_count - 1, 0)
     where id = any($1::uuid[]) and state = 'active'`,
    [ids],
  );
}

/** a job that can never succeed is failed now, without retries; pg-boss's completion after this finds it no longer active */
export async function failForGood(sql: Sql, id: string, message: string): Promise<void> {
  await sql.executeSql(
    `update ${JOBS_SCHEMA}.job set state = 'failed', completed_on = now(), output = $2::jsonb
      where id = $1::uuid and state = 'active'`,
    [id, JSON.stringify({ message, permanent: true })],
  );
}

/** how many jobs of each of our queues are in each state */
export async function jobCounts(sql: Sql) {
  const { rows } = await sql.executeSql(
    `select name, state::text as state, count(*)::int as n from ${JOBS_SCHEMA}.job
      where name not like '${INTERNAL_PREFIX}%' group by name, state`,
  );
  return rows;
}

/** the latest failed jobs of our queues, newest first */
export async function recentFailures(sql: Sql, limit: number) {
  const { rows } = await sql.executeSql(
    `select id::text as id, name, output->>'message' as error, retry_count as retries, created_on, completed_on
       from ${JOBS_SCHEMA}.job where state = 'failed' and name not like '${INTERNAL_PREFIX}%'
       order by completed_on desc nulls last, created_on desc limit $1`,
    [limit],
  );
  return rows;
}

/** the queue of the failed job with this id, or null when no failed job has it */
export async function failedJobName(sql: Sql, id: string): Promise<string | null> {
  const { rows } = await sql.executeSql(
    `select name from ${JOBS_SCHEMA}.job where id = $1::uuid and state = 'failed'`,
    [id],
  );
  const name = rows[0]?.name;
  return typeof name === 'string' ? name : null;
}

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { freshDatabase } from './postgres.ts';
import { startServer, type ServerProcess } from './server.ts';

/** Two real app processes on one fresh PostgreSQL database, and a connection for the test's own SQL. */
export interface TwoProcesses {
  database: Awaited<ReturnType<typeof freshDatabase>>;
  /** the environment both processes started with: a test that restarts one passes it again */
  env: Record<string, string>;
  a: ServerProcess;
  b: ServerProcess;
  /** a plain connection to the processes' database */
  db: pg.Client;
  /** stops both processes (and any the test started with `env` and handed back) and drops the database */
  stop(...more: (ServerProcess | undefined)[]): Promise<void>;
}

/**
 * The set-up of every "across processes" proof: what only PostgreSQL can show (a race, a job run
 * once) needs two processes sharing one database and, when REDIS_URL is set, one Redis.
 * `prefix` names the database (for whoever finds a leftover one); `demo` loads the demo content;
 * `env` adds or overrides variables; `command` runs another entry point than the app's.
 */
export async function startTwoProcesses(opts: {
  prefix: string;
  demo: boolean;
  env?: Record<string, string>;
  command?: [file: string, args: string[]];
}): Promise<TwoProcesses> {
  const database = await freshDatabase(opts.prefix);
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    SERVE_CLIENT: '0',
    DEMO: opts.demo ? '1' : '0',
    DATABASE_URL: database.url,
    SESSION_SECRET: randomBytes(16).toString('hex'),
    SANDBOX_WEBHOOK_SECRET: randomBytes(16).toString('hex'),
    PAYMENTS_CARD_PROVIDER: 'sandbox',
    PAYMENTS_PAYPAL_PROVIDER: 'sandbox',
    KEY_NAMESPACE: `${opts.prefix.replace(/[^a-z]/g, '')}${randomBytes(3).toString('hex')}`,
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...opts.env,
  };
  const started: ServerProcess[] = [];
  const db = new pg.Client({ connectionString: database.url });
  const stop = async (...more: (ServerProcess | undefined)[]) => {
    await db.end().catch(() => undefined);
    for (const p of [...started, ...more]) await p?.stop();
    await database.drop();
  };
  try {
    started.push(await startServer(env, 90_000, opts.command));
    started.push(await startServer(env, 90_000, opts.command));
    await db.connect();
  } catch (err) {
    await stop();
    throw err;
  }
  return { database, env, a: started[0]!, b: started[1]!, db, stop };
}

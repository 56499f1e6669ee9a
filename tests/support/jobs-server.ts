import { sql } from 'drizzle-orm';
import { z } from '#shared/zod';
import { loadConfig } from '#server/config';
import { buildApp } from '#server/app';

/**
 * A real app process (as src/server/main.ts starts it) with three probe jobs of its own, for
 * tests/node/background-jobs.test.ts: `probe.tick` recurs every minute, `probe.later` and
 * `probe.broken` run when sent (the test sends them through pg-boss, like any process would). Each
 * run writes a row to `jobs_probe` (the job, its id, this process) before it returns or throws.
 */
const config = loadConfig();
const app = await buildApp(config);
const { db, jobs } = app.deps;
await db.execute(
  sql`create table if not exists jobs_probe (job text not null, job_id text not null, data jsonb, pid int not null, try int not null, at timestamptz not null default now())`,
);
const record = (job: string, id: string, data: unknown, retryCount: number) =>
  db.execute(
    sql`insert into jobs_probe (job, job_id, data, pid, try) values (${job}, ${id}, ${JSON.stringify(data)}::jsonb, ${process.pid}, ${retryCount})`,
  );

jobs.define(
  'probe.tick',
  z.object({}),
  async (data, job) => void (await record('probe.tick', job.id, data, job.retryCount)),
  { label: 'Probe: every minute' },
);
jobs.schedule('probe.tick', '* * * * *');
jobs.define(
  'probe.later',
  z.object({ note: z.string() }),
  async (data, job) => void (await record('probe.later', job.id, data, job.retryCount)),
  { label: 'Probe: later' },
);
jobs.define(
  'probe.broken',
  z.object({ note: z.string() }),
  async (data, job) => {
    await record('probe.broken', job.id, data, job.retryCount);
    throw new Error(`The groove file "${data.note}" is corrupt.`);
  },
  { label: 'Probe: always fails', retryLimit: 2, retryDelay: 1, retryBackoff: true },
);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void app.close().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
await app.listen({ port: config.port, host: config.host });

import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type pg from 'pg';
import PgBoss from 'pg-boss';
import { JOB_MESSAGES, type AdminJobsResponse } from '#shared/jobs';
import { startTwoProcesses, type TwoProcesses } from '#test/two-processes';
import { startServer, type ServerProcess } from '#test/server';
import { BrowserSession } from '#test/browser-session';
import { until as untilEvent } from '#test/until';

/**
 * Background jobs across real app processes on one fresh PostgreSQL database
 * (tests/support/jobs-server.ts: the app with three probe jobs, each run writing a row):
 * - a job that recurs every minute, registered by both processes, runs once per minute;
 * - a job that throws is retried with backoff, then listed to admins as failed with its error, and an
 *   admin's retry runs it again;
 * - a job sent for later is still there after its process stopped, and runs once one starts again.
 */
const enabled = !!process.env.TEST_DATABASE_URL;
const SKIP_REASON = 'needs TEST_DATABASE_URL: several app processes sharing one PostgreSQL database';
const ROOT = path.resolve(import.meta.dirname, '../..');
const COMMAND: [string, string[]] = [path.join(ROOT, 'node_modules/.bin/tsx'), ['tests/support/jobs-server.ts']];

let processes: TwoProcesses | undefined;
let env: Record<string, string> = {};
let a: ServerProcess | undefined;
let b: ServerProcess | undefined;
let db: pg.Client | undefined;
/** the test's own pg-boss: sends jobs into the shared queue like any other process would */
let sender: PgBoss | undefined;

interface ProbeRow {
  job: string;
  job_id: string;
  pid: number;
  try: number;
}
const runs = async (job: string) =>
  (await db!.query<ProbeRow>(`select job, job_id, pid, try from jobs_probe where job = $1 order by at`, [job])).rows;

/** waits for the event, polling the database; fails with both processes' output when it never comes */
const until = <T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 60_000) =>
  untilEvent(what, probe, { timeoutMs, intervalMs: 200, seen: () => `A:\n${a?.output()}\nB:\n${b?.output()}` });

beforeAll(async () => {
  if (!enabled) return;
  processes = await startTwoProcesses({
    prefix: 'bb_jobs',
    demo: false,
    env: { JOBS_POLL_SECONDS: '1' },
    command: COMMAND,
  });
  ({ env, a, b, db } = processes);
  const { database } = processes;
  // the processes create pg-boss's tables as their jobs start, just after they listen
  await until(
    'the queue tables',
    async () =>
      (await db!.query(`select 1 from pgboss.queue where name = 'probe.later'`).catch(() => ({ rowCount: 0 })))
        .rowCount === 1,
  );
  sender = new PgBoss({ connectionString: database.url, max: 1, supervise: false, schedule: false, migrate: false });
  sender.on('error', () => undefined);
  await sender.start();
}, 240_000);

afterAll(async () => {
  await sender?.stop({ graceful: false });
  // a and b may be processes the test restarted
  await processes?.stop(a, b);
});

async function adminSession(base: string) {
  const email = `jobs-admin-${randomBytes(3).toString('hex')}@test.test`;
  const first = await BrowserSession.open(base);
  expect((await first.register(email, 'Jobs Admin')).status).toBe(200);
  await db!.query(`update users set role = 'admin' where email = $1`, [email]);
  const s = await BrowserSession.open(base);
  expect((await s.signIn(email)).status).toBe(200);
  return s;
}

it.skipIf(!enabled)(
  'retries a failing job with backoff, lists it as failed with its error, and an admin retry runs it again',
  { timeout: 120_000 },
  async () => {
    const id = (await sender!.send('probe.broken', { note: 'funk-16ths.mid' }))!;
    // the first try and two retries, each taken by one process or the other
    const tries = await until('three tries', async () =>
      (await runs('probe.broken')).length >= 3 ? runs('probe.broken') : false,
    );
    const admin = await adminSession(b!.url);
    const failed = await until('the job listed as failed', async () =>
      ((await (await admin.get('/api/admin/jobs')).json()) as AdminJobsResponse).failed.find((f) => f.id === id),
    );
    expect(failed).toMatchObject({
      name: 'probe.broken',
      label: 'Probe: always fails',
      error: 'The groove file "funk-16ths.mid" is corrupt.',
      attempts: 3,
    });
    expect((await runs('probe.broken')).map((r) => r.try)).toEqual([0, 1, 2]);
    expect(tries.every((r) => r.job_id === id)).toBe(true);
    // kept with the job's retry policy: a growing delay between tries
    const policy = await db!.query(`select retry_limit, retry_delay, retry_backoff from pgboss.job where id = $1`, [
      id,
    ]);
    expect(policy.rows[0]).toEqual({ retry_limit: 2, retry_delay: 1, retry_backoff: true });

    const res = await admin.post(`/api/admin/jobs/${id}/retry`, {});
    expect(res.status).toBe(200);
    expect(((await res.json()) as { message: string }).message).toBe(JOB_MESSAGES.retried);
    await until('the retried try', async () => (await runs('probe.broken')).length === 4);
    const again = await until('the job failed again', async () =>
      ((await (await admin.get('/api/admin/jobs')).json()) as AdminJobsResponse).failed.find(
        (f) => f.id === id && f.attempts === 4,
      ),
    );
    expect(again.error).toBe('The groove file "funk-16ths.mid" is corrupt.');
    // retrying it twice at once from both processes: one retry, one "not failed". The retried job is
    // held back meanwhile (its start time an hour away), so that it cannot run and fail again between
    // the two requests, which would make the second retry a new one rather than a repeat
    await db!.query(`update pgboss.job set start_after = now() + interval '1 hour' where id = $1`, [id]);
    const [r1, r2] = await Promise.all([
      admin.send('POST', `/api/admin/jobs/${id}/retry`, {}, { on: a!.url }),
      admin.send('POST', `/api/admin/jobs/${id}/retry`, {}, { on: b!.url }),
    ]);
    expect([r1.status, r2.status].sort()).toEqual([200, 404]);
    await db!.query(`update pgboss.job set start_after = now() where id = $1`, [id]);
    await until('the fifth try', async () => (await runs('probe.broken')).length === 5);
  },
);

it.skipIf(!enabled)(
  'runs a recurring job once per minute although both processes schedule it',
  { timeout: 240_000 },
  async () => {
    // pg-boss marks each minute of a schedule with one row (its singleton window); the probe writes a
    // row per run. Once two minutes have come and everything due has run, there is one run per minute.
    const settled = await until(
      'two minutes of ticks, all run',
      async () => {
        const slots = (
          await db!.query<{ slot: string; state: string }>(
            `select singleton_on::text as slot, state::text as state from pgboss.job where name = '__pgboss__send-it' and singleton_key = 'probe.tick'`,
          )
        ).rows;
        const jobs = (
          await db!.query<{ state: string }>(`select state::text as state from pgboss.job where name = 'probe.tick'`)
        ).rows;
        const ticks = await runs('probe.tick');
        const done =
          slots.every((r) => r.state === 'completed') &&
          jobs.length === slots.length &&
          jobs.every((r) => r.state === 'completed');
        return slots.length >= 2 && done ? { slots, ticks } : false;
      },
      200_000,
    );
    expect(settled.ticks.length, JSON.stringify(settled)).toBe(settled.slots.length);
    expect(new Set(settled.slots.map((r) => r.slot)).size).toBe(settled.slots.length);
    expect(new Set(settled.ticks.map((r) => r.job_id)).size).toBe(settled.ticks.length);
  },
);

it.skipIf(!enabled)(
  'keeps a job sent for later across a restart, and runs it once after',
  { timeout: 180_000 },
  async () => {
    await b!.stop();
    const id = (await sender!.send('probe.later', { note: 'after the restart' }, { startAfter: 5 }))!;
    await a!.stop();
    // nobody is working: the job waits in the database
    const row = await db!.query<{ state: string }>(`select state::text as state from pgboss.job where id = $1`, [id]);
    expect(row.rows[0]?.state).toBe('created');
    expect(await runs('probe.later')).toEqual([]);
    a = await startServer(env, 90_000, COMMAND);
    const done = await until('the later job', async () => {
      const rows = await runs('probe.later');
      return rows.length > 0 ? rows : false;
    });
    expect(done.map((r) => r.job_id)).toEqual([id]);
    await until(
      'the job completed',
      async () =>
        (await db!.query(`select 1 from pgboss.job where id = $1 and state = 'completed'`, [id])).rowCount === 1,
    );
  },
);

it.skipIf(enabled)(`skipped: ${SKIP_REASON}`, () => undefined);

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from '#shared/zod';
import { JOB_MESSAGES, type AdminJobsResponse } from '#shared/jobs';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';
import { until as untilEvent } from '#test/until';
import { openDatabase, type DatabaseHandle } from '#server/db/client';
import { openTestDatabase } from '#test/api-harness';
import pg from 'pg';
import { createJobs } from './jobs.ts';

/**
 * The background jobs in one app process, on whichever database the suite runs (the embedded PGlite
 * by default): a job sent runs, a job that throws is retried and then shown to admins as failed with
 * its error, an admin's retry runs it again, and a job sent for later waits for its time.
 */
let t: TestApp;
let admin: TestClient;
const ran: Array<{ job: string; data: unknown; retryCount: number }> = [];

/** waits for the event; fails the test with the jobs that ran when it never comes */
const until = <T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false) =>
  untilEvent(what, probe, { timeoutMs: 30_000, intervalMs: 100, seen: () => ({ jobsRan: ran }) });

beforeAll(async () => {
  t = await createTestApp({ jobsPollSeconds: 0.5 });
  const jobs = t.app.deps.jobs;
  jobs.define(
    'test.echo',
    z.object({ text: z.string() }),
    async (data, job) => void ran.push({ job: 'test.echo', data, retryCount: job.retryCount }),
    { label: 'Test: echo' },
  );
  jobs.define(
    'test.broken',
    z.object({ n: z.number() }),
    async (data, job) => {
      ran.push({ job: 'test.broken', data, retryCount: job.retryCount });
      throw new Error('The practice log could not be read: stick 2 is missing.');
    },
    { label: 'Test: always fails', retryLimit: 2, retryDelay: 1, retryBackoff: true },
  );
  admin = (await t.signedIn({ role: 'admin' })).client;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const overview = async () => (await admin.get('/api/admin/jobs')).json() as AdminJobsResponse;

describe('background jobs in one process', () => {
  it('runs a job once with its data, and counts it as completed', async () => {
    const id = await t.app.deps.jobs.send('test.echo', { text: 'paradiddle' });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await until('the echo job', () => ran.find((r) => r.job === 'test.echo'));
    const echo = await until('the completed count', async () =>
      (await overview()).queues.find((q) => q.name === 'test.echo' && q.completed === 1),
    );
    expect(echo.label).toBe('Test: echo');
    expect(ran.filter((r) => r.job === 'test.echo')).toEqual([
      { job: 'test.echo', data: { text: 'paradiddle' }, retryCount: 0 },
    ]);
  });

  it('refuses data that does not fit the job, and a job nobody defined', async () => {
    await expect(t.app.deps.jobs.send('test.echo', { text: 42 } as never)).rejects.toThrow();
    await expect(t.app.deps.jobs.send('test.nobody', {})).rejects.toThrow(/No background job is defined/);
    await expect(t.app.deps.jobs.send('test.echo', { text: 'x' }, { singletonKey: 'k' })).rejects.toThrow(
      /go together/,
    );
  });

  it('keeps one job per singleton key and window: a second send in the window is dropped', async () => {
    const first = await t.app.deps.jobs.send(
      'test.echo',
      { text: 'once' },
      { singletonKey: 'weekly-digest:42', singletonSeconds: 3600 },
    );
    const second = await t.app.deps.jobs.send(
      'test.echo',
      { text: 'once' },
      { singletonKey: 'weekly-digest:42', singletonSeconds: 3600 },
    );
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toBeNull();
    await until('the singleton job', () => ran.find((r) => (r.data as { text: string }).text === 'once'));
    expect(ran.filter((r) => (r.data as { text: string }).text === 'once')).toHaveLength(1);
  });

  it('retries a throwing job with backoff, lists it as failed with its error, and runs it again on an admin retry', async () => {
    const id = (await t.app.deps.jobs.send('test.broken', { n: 1 }))!;
    const failed = await until('the failed job', async () => (await overview()).failed.find((f) => f.id === id));
    expect(failed).toMatchObject({
      name: 'test.broken',
      label: 'Test: always fails',
      error: 'The practice log could not be read: stick 2 is missing.',
      attempts: 3,
    });
    expect(ran.filter((r) => r.job === 'test.broken').map((r) => r.retryCount)).toEqual([0, 1, 2]);
    expect((await overview()).queues.find((q) => q.name === 'test.broken')).toMatchObject({
      failed: 1,
      queued: 0,
      retrying: 0,
    });

    // a member may not see or retry jobs
    const member = (await t.signedIn()).client;
    expect((await member.get('/api/admin/jobs')).statusCode).toBe(403);
    expect((await member.post(`/api/admin/jobs/${id}/retry`)).statusCode).toBe(403);

    const res = await admin.post(`/api/admin/jobs/${id}/retry`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'success', message: JOB_MESSAGES.retried });
    await until('the retried run', () => ran.filter((r) => r.job === 'test.broken').length === 4);
    // a job that is not failed (any more, or never) cannot be retried
    const again = await until('the job failed again', async () =>
      (await overview()).failed.find((f) => f.id === id && f.attempts === 4),
    );
    expect(again.error).toBe('The practice log could not be read: stick 2 is missing.');
    const unknown = await admin.post('/api/admin/jobs/6f1c2a7e-2b1d-4c39-9f0e-2d7c5b1a9e44/retry');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(JOB_MESSAGES.notFailed);
    expect((await admin.post('/api/admin/jobs/not-a-job/retry')).statusCode).toBe(422);
  });

  it('holds a job sent for later until its time', async () => {
    const sentAt = Date.now();
    await t.app.deps.jobs.send('test.echo', { text: 'later' }, { startAfter: 2 });
    expect((await overview()).queues.find((q) => q.name === 'test.echo')?.queued).toBe(1);
    await until('the later job', () => ran.find((r) => (r.data as { text: string }).text === 'later'));
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(2000);
  });

  it('lists the recurring jobs the app moved onto the queue, with their schedule', async () => {
    const queues = (await overview()).queues;
    expect(queues.find((q) => q.name === 'uploads.cleanup')?.schedule).toBe('41 * * * *');
    expect(queues.find((q) => q.name === 'mentorship.grace-sweep')?.schedule).toBe('17 * * * *');
  });
});

describe('a worker that has work does not wait out its polling interval', () => {
  // the idle workers here look for work every 30 s, longer than these tests wait for anything
  let slow: TestApp;
  const done: string[] = [];
  const until = <T>(what: string, probe: () => T | undefined | false) =>
    untilEvent(what, probe, { timeoutMs: 20_000, intervalMs: 100, seen: () => ({ done }) });
  beforeAll(async () => {
    slow = await createTestApp({ jobsPollSeconds: 30 });
    slow.app.deps.jobs.define('test.digest', z.object({ to: z.string() }), async ({ to }) => void done.push(to));
  }, 60_000);
  afterAll(async () => {
    await slow?.close();
  });

  it('works through a queue of many jobs one after another, and takes a job sent while idle at once', async () => {
    const members = ['ana', 'bo', 'cy', 'dee', 'eli', 'fay'];
    // queued before the process works the queue, as a weekly digest to every member queues them
    for (const to of members) await slow.app.deps.jobs.send('test.digest', { to });
    await slow.app.listen({ port: 0, host: '127.0.0.1' });
    await until('every queued job', () => done.length === members.length);
    expect([...done].sort()).toEqual([...members].sort());
    await slow.app.deps.jobs.send('test.digest', { to: 'gus' });
    await until('the job sent while the worker was idle', () => done.includes('gus'));
  });
});

describe.skipIf(!!process.env.TEST_DATABASE_URL)('background jobs on the embedded database in DATA_DIR', () => {
  it('keeps a job sent for later across a restart of the process, and runs it after', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bb-jobs-'));
    const log = { error: () => undefined, warn: () => undefined };
    const seen: string[] = [];
    const boot = async () => {
      const database = await openDatabase({ databaseUrl: null, dataDir: dir });
      const jobs = createJobs({ database, log, pollSeconds: 0.5 });
      jobs.define('test.reminder', z.object({ text: z.string() }), async (data) => void seen.push(data.text));
      return { database, jobs };
    };
    try {
      const first = await boot();
      await first.jobs.start();
      await first.jobs.send('test.reminder', { text: 'renewal in 7 days' }, { startAfter: 5 });
      await first.jobs.stop();
      await first.database.close();
      expect(seen).toEqual([]);

      const second = await boot();
      await second.jobs.start();
      await until('the reminder after the restart', () => seen.length > 0);
      expect(seen).toEqual(['renewal in 7 days']);
      await second.jobs.stop();
      await second.database.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

/**
 * Holds the workers' next look for work on `queue` until released, so that a test can stop the jobs
 * while that look is under way: on PostgreSQL by a lock on the job table that another connection takes,
 * on the embedded database at its one connection.
 */
function lookHolder(handle: DatabaseHandle, queue: string) {
  if (handle.embedded) {
    const embedded = handle.embedded;
    let holding = false;
    let lookHeld = (): void => undefined;
    const looking = new Promise<void>((resolve) => (lookHeld = resolve));
    let answerLook = (): void => undefined;
    const answer = new Promise<void>((resolve) => (answerLook = resolve));
    const database: DatabaseHandle = {
      ...handle,
      embedded: {
        exec: (text) => embedded.exec(text),
        async query(text, params) {
          if (holding && text.includes('SKIP LOCKED') && params?.[0] === queue) {
            holding = false;
            lookHeld();
            await answer;
          }
          return embedded.query(text, params);
        },
      },
    };
    return {
      database,
      hold: async () => void (holding = true),
      held: () => looking,
      release: async () => answerLook(),
    };
  }
  const locker = new pg.Client({ connectionString: handle.url! });
  return {
    database: handle,
    async hold() {
      await locker.connect();
      await locker.query('begin');
      await locker.query('lock table pgboss.job in exclusive mode');
    },
    held: () =>
      until('the look for work waiting on the lock', async () => {
        const { rows } = await locker.query(
          `select 1 from pg_stat_activity
            where application_name = 'backbeat-jobs' and wait_event_type = 'Lock' and query like '%SKIP LOCKED%'`,
        );
        return rows.length > 0;
      }),
    async release() {
      await locker.query('commit');
      await locker.end();
    },
  };
}

describe('stopping while a worker takes or runs a job', () => {
  const log = { error: () => undefined, warn: () => undefined };

  it('puts back, untried, a job a worker took while the process was stopping, and runs it at the next start', async () => {
    const handle = await openTestDatabase();
    const look = lookHolder(handle, 'test.lesson-mail');
    const seen: Array<{ text: string; retryCount: number }> = [];
    const boot = () => {
      const jobs = createJobs({ database: look.database, log, pollSeconds: 0.5 });
      jobs.define(
        'test.lesson-mail',
        z.object({ text: z.string() }),
        async (data, job) => void seen.push({ text: data.text, retryCount: job.retryCount }),
      );
      return jobs;
    };
    try {
      const first = boot();
      // queued before the process works the queue, so that its first look is the one held
      await first.send('test.lesson-mail', { text: 'Your lesson on ghost notes is ready' });
      await look.hold();
      await first.start();
      await look.held();
      const stopped = first.stop();
      await look.release();
      await stopped;
      expect(seen).toEqual([]);

      const second = boot();
      await second.start();
      await until('the job at the next start', () => seen.length > 0);
      expect(seen).toEqual([{ text: 'Your lesson on ghost notes is ready', retryCount: 0 }]);
      await second.stop();
    } finally {
      await handle.close();
      await handle.drop();
    }
  }, 60_000);

  it("fails for a retry a job still running when the stop's grace ends, and ignores its late end quietly", async () => {
    const handle = await openTestDatabase();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    let started = (): void => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    let finish = (): void => undefined;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    try {
      const boot = () => {
        const jobs = createJobs({ database: handle, log, pollSeconds: 0.5 });
        jobs.define('test.slow-render', z.object({ take: z.string() }), async () => {
          started();
          await finished;
        });
        return jobs;
      };
      const first = boot();
      await first.start();
      await first.send('test.slow-render', { take: 'verse groove, take 3' });
      await running;
      await first.stop();
      finish();
      // pg-boss reports the job's end without waiting for the answer: let that report run its course
      for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
      // what the console shows afterwards: the job waits for its retry
      const next = boot();
      const queue = (await next.overview()).queues.find((q) => q.name === 'test.slow-render');
      expect(queue).toMatchObject({ active: 0, retrying: 1, completed: 0 });
      await next.stop();
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await handle.close();
      await handle.drop();
    }
  }, 60_000);
});

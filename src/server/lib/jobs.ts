import type PgBoss from 'pg-boss';
import type { z } from '#shared/zod';
import { ADMIN_FAILED_JOBS_SHOWN, type AdminFailedJob, type AdminJobQueue, type AdminJobsResponse } from '#shared/jobs';
import type { DatabaseHandle } from '#server/db/client';
import {
  closable,
  embeddedSql,
  failedJobName,
  failForGood,
  JOBS_SCHEMA,
  jobCounts,
  listedUntilSettled,
  onDeadlockAgain,
  postgresSql,
  putBackUntried,
  recentFailures,
  untilQuiet,
  type SharedSql,
} from './jobs-database.ts';

/**
 * Durable background jobs (docs/decisions/0016-background-jobs.md): pg-boss keeps each job as a row in
 * the app's own database (schema `pgboss`), on PostgreSQL and on the embedded PGlite alike. A worker
 * takes a job with `FOR UPDATE SKIP LOCKED`, so any number of app processes run each job once; a job
 * that throws is tried again after a growing delay, then kept as failed with its error for admins
 * (docs/product/background-jobs.md). A recurring job is one row per period whoever of the processes
 * notices the period first.
 */

export interface JobDefinitionOptions {
  /** what the job does, in words an admin reads in the console */
  label?: string;
  /** retries after the first try (default 2) */
  retryLimit?: number;
  /** seconds before the first retry (default 30) */
  retryDelay?: number;
  /** each retry waits about twice as long as the one before (default true) */
  retryBackoff?: boolean;
  /** a try still running after this long counts as failed, and is retried (default 15 minutes) */
  expireInSeconds?: number;
}

export interface SendOptions {
  /** not before this moment (a Date) or this many seconds from now */
  startAfter?: Date | number;
  /**
   * Together with `singletonSeconds`: at most one job with this key per window of that many seconds
   * (windows start at multiples of it since the epoch; a second send in the same window is dropped
   * and answers null). Either one alone is refused.
   */
  singletonKey?: string;
  singletonSeconds?: number;
}

export interface JobContext {
  id: string;
  /** 0 on the first try */
  retryCount: number;
}

/**
 * Thrown by a job that can never succeed (a mail server refused the address for good): the job is kept
 * as failed at once with this message, without the retries a temporary failure gets.
 */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

type Handler<T> = (data: T, job: JobContext) => Promise<unknown>;

interface Definition {
  name: string;
  schema: z.ZodType;
  handler: Handler<unknown>;
  options: Required<Omit<JobDefinitionOptions, 'label'>> & { label: string };
}

export interface Jobs {
  /** a kind of job and what runs it; define before the app starts listening */
  define<S extends z.ZodType>(
    name: string,
    schema: S,
    handler: Handler<z.infer<S>>,
    options?: JobDefinitionOptions,
  ): void;
  /** queue a job (kept in the database); answers its id, or null when a singleton window already holds one */
  send<T>(name: string, data: T, options?: SendOptions): Promise<string | null>;
  /** run a defined job by itself on a cron rule (UTC; at most once a minute), once per period across processes */
  schedule(name: string, cron: string, data?: object): void;
  /** start working (after the app listens): workers for every defined job, and the schedules */
  start(): Promise<void>;
  /** stop working: running jobs get a few seconds to finish, then the connection closes */
  stop(): Promise<void>;
  /** the console's view: counts per job and the recent failures */
  overview(): Promise<AdminJobsResponse>;
  /** run a failed job again; false when no failed job has this id */
  retry(id: string): Promise<boolean>;
}

/** a failed job stays listed for admins (and retryable) this long; completed ones move to the archive after pg-boss's 12 hours */
export const FAILED_JOBS_KEPT_SECONDS = 7 * 24 * 60 * 60;
/** a start that failed is tried again after this long, doubling up to a minute */
const FIRST_RESTART_MS = 1000;
const LAST_RESTART_MS = 60_000;
/** how long stop() lets running jobs finish */
const STOP_GRACE_MS = 5000;

export interface JobsOptions {
  database: DatabaseHandle;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** how often an idle worker looks for work, in seconds (pg-boss's own default when null) */
  pollSeconds: number | null;
}

export function createJobs(opts: JobsOptions): Jobs {
  const definitions = new Map<string, Definition>();
  const schedules = new Map<string, { cron: string; data: object }>();
  let sql: SharedSql | null = null;
  let ready: Promise<PgBoss> | null = null;
  let working: Promise<void> | null = null;
  let stopping: Promise<void> | null = null;
  /** this process's worker of each queue, once the jobs have started */
  const workers = new Map<string, string>();
  /** job handlers under way in this process, which stop() lets finish before the connection closes */
  const handling = new Set<Promise<unknown>>();

  const poll = opts.pollSeconds;
  const intervals: Partial<PgBoss.ConstructorOptions> = poll
    ? {
        cronMonitorIntervalSeconds: Math.max(1, Math.round(poll)),
        cronWorkerIntervalSeconds: Math.max(1, Math.round(poll)),
        // maintenance is what notices a job whose process died mid-run (past its expiry) and retries it
        maintenanceIntervalSeconds: Math.max(1, Math.round(poll)),
      }
    : {};

  /** pg-boss with its tables and every defined queue in place (no workers yet) */
  const open = () =>
    (ready ??= (async () => {
      if (stopping) throw new Error('The background jobs have stopped.');
      sql = closable(
        opts.database.embedded ? embeddedSql(opts.database.embedded) : await postgresSql(opts.database.url!),
      );
      return await connect(sql).catch(async (err: unknown) => {
        // the next call tries again (the database may be back by then)
        await sql?.close().catch(() => undefined);
        sql = null;
        ready = null;
        throw err;
      });
    })());

  const connect = async (db: SharedSql) => {
    const { default: PgBossClass } = await import('pg-boss');
    const b = new PgBossClass({
      db: db.pgBoss as PgBoss.Db,
      schema: JOBS_SCHEMA,
      migrate: true,
      supervise: true,
      schedule: true,
      archiveFailedAfterSeconds: FAILED_JOBS_KEPT_SECONDS,
      ...intervals,
    });
    b.on('error', (err) => opts.log.warn({ err }, 'background jobs: database error'));
    try {
      await b.start();
      for (const d of definitions.values()) {
        const queue = {
          name: d.name,
          retryLimit: d.options.retryLimit,
          retryDelay: d.options.retryDelay,
          retryBackoff: d.options.retryBackoff,
          expireInSeconds: d.options.expireInSeconds,
        };
        await onDeadlockAgain(async () => {
          await b.createQueue(d.name, queue);
          // a queue made by an earlier release keeps its first options unless told
          await b.updateQueue(d.name, queue);
        });
      }
    } catch (err) {
      await b.stop({ graceful: false, close: false }).catch(() => undefined);
      throw err;
    }
    return b;
  };

  let restartTimer: NodeJS.Timeout | null = null;
  let restartMs = FIRST_RESTART_MS;
  /**
   * A process whose jobs could not start (the database away, a deadlock while it started) keeps
   * trying, doubling its wait up to a minute: otherwise it would serve requests for good and never
   * work a job, and a mail it queued would wait for another process.
   */
  const startLater = () => {
    if (stopping || restartTimer) return;
    const wait = restartMs;
    restartMs = Math.min(restartMs * 2, LAST_RESTART_MS);
    restartTimer = setTimeout(() => {
      restartTimer = null;
      jobs.start().catch((err: unknown) => opts.log.warn({ err }, 'background jobs did not start again'));
    }, wait);
    restartTimer.unref();
  };

  const definition = (name: string) => {
    const d = definitions.get(name);
    if (!d) throw new Error(`No background job is defined as "${name}".`);
    return d;
  };

  const handle = async (b: PgBoss, d: Definition, taken: PgBoss.JobWithMetadata<unknown>[]) => {
    if (stopping) {
      // a worker's last look for work answered after stop() began: the jobs wait for another process
      await putBackUntried(
        sql!,
        taken.map((job) => job.id),
      );
      return;
    }
    // a job was waiting, so more may be: the worker looks again as soon as this one is done rather
    // than after its polling interval, and a queue with many (the weekly digest to every member)
    // drains at the pace of the work, not one job per interval
    const id = workers.get(d.name);
    if (id) b.notifyWorker(id);
    for (const job of taken) {
      const parsed = d.schema.safeParse(job.data);
      if (!parsed.success)
        throw new Error(`The job's data does not fit "${d.name}": ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      try {
        await d.handler(parsed.data, { id: job.id, retryCount: job.retryCount });
      } catch (err) {
        opts.log.error({ err, job: d.name, id: job.id, try: job.retryCount + 1 }, 'background job failed');
        if (err instanceof PermanentJobError) {
          // failed for good now: pg-boss's completion after this return finds the job no longer active
          await failForGood(sql!, job.id, err.message);
          continue;
        }
        throw err;
      }
    }
  };

  const jobs: Jobs = {
    define(name, schema, handler, options = {}) {
      if (ready)
        throw new Error(
          `Background job "${name}" is defined after the jobs opened: define every job while the app is built.`,
        );
      definitions.set(name, {
        name,
        schema,
        handler: handler as Handler<unknown>,
        options: {
          label: options.label ?? name,
          retryLimit: options.retryLimit ?? 2,
          retryDelay: options.retryDelay ?? 30,
          retryBackoff: options.retryBackoff ?? true,
          expireInSeconds: options.expireInSeconds ?? 15 * 60,
        },
      });
    },

    async send(name, data, options = {}) {
      const d = definition(name);
      // on a standard queue a key alone limits nothing: refuse it rather than let a caller believe it does
      if ((options.singletonKey === undefined) !== (options.singletonSeconds === undefined))
        throw new Error(
          `Background job "${name}": singletonKey and singletonSeconds go together (one job per key per window).`,
        );
      const payload = d.schema.parse(data) as object;
      const b = await open();
      const send: PgBoss.SendOptions = {};
      if (options.startAfter !== undefined)
        send.startAfter =
          options.startAfter instanceof Date ? options.startAfter : Math.max(0, Math.ceil(options.startAfter));
      if (options.singletonKey !== undefined) send.singletonKey = options.singletonKey;
      if (options.singletonSeconds !== undefined) send.singletonSeconds = options.singletonSeconds;
      const id = await b.send(name, payload, send);
      // this process works the queue: it takes the job now instead of at its next look (other processes
      // find it when they next look)
      const worker = workers.get(name);
      if (id && worker && send.startAfter === undefined && !stopping) b.notifyWorker(worker);
      return id;
    },

    schedule(name, cron, data = {}) {
      definition(name);
      if (ready)
        throw new Error(
          `Background job "${name}" is scheduled after the jobs opened: schedule it while the app is built.`,
        );
      schedules.set(name, { cron, data });
    },

    start() {
      return (working ??= (async () => {
        const b = await open();
        for (const d of definitions.values()) {
          const worker = await b.work(
            d.name,
            { includeMetadata: true, batchSize: 1, ...(poll ? { pollingIntervalSeconds: Math.max(0.5, poll) } : {}) },
            (taken) => listedUntilSettled(handling, handle(b, d, taken)),
          );
          workers.set(d.name, worker);
        }
        for (const [name, s] of schedules) await b.schedule(name, s.cron, s.data, { tz: 'UTC' });
      })().catch((err: unknown) => {
        working = null;
        startLater();
        throw err;
      }));
    },

    stop() {
      return (stopping ??= (async () => {
        if (restartTimer) clearTimeout(restartTimer);
        if (!ready) return;
        // a start still under way finishes first, so that nothing it opens outlives the stop
        await working?.catch(() => undefined);
        const b = await ready.catch(() => null);
        const deadline = Date.now() + STOP_GRACE_MS;
        await b?.stop({ graceful: true, timeout: STOP_GRACE_MS, wait: true, close: false });
        // pg-boss waited only for the jobs it knows are running: a look for work still under way may yet
        // hand over a job (which `handle` puts back)
        await untilQuiet(() => [...(sql?.underWay ?? []), ...handling], deadline);
        await sql?.close();
      })());
    },

    async overview() {
      await open();
      const counts = await jobCounts(sql!);
      const failed = await recentFailures(sql!, ADMIN_FAILED_JOBS_SHOWN);
      const queues = new Map<string, AdminJobQueue>();
      const queue = (name: string) => {
        let q = queues.get(name);
        if (!q) {
          q = {
            name,
            label: definitions.get(name)?.options.label ?? name,
            schedule: schedules.get(name)?.cron ?? null,
            queued: 0,
            retrying: 0,
            active: 0,
            completed: 0,
            failed: 0,
          };
          queues.set(name, q);
        }
        return q;
      };
      for (const name of definitions.keys()) queue(name);
      for (const row of counts) {
        const q = queue(String(row.name));
        const n = Number(row.n);
        if (row.state === 'created') q.queued += n;
        else if (row.state === 'retry') q.retrying += n;
        else if (row.state === 'active') q.active += n;
        else if (row.state === 'completed') q.completed += n;
        else if (row.state === 'failed') q.failed += n;
      }
      const iso = (v: unknown) => (v == null ? null : new Date(v as string | Date).toISOString());
      return {
        queues: [...queues.values()].sort((a, b) => a.label.localeCompare(b.label)),
        failed: failed.map((r): AdminFailedJob => ({
          id: String(r.id),
          name: String(r.name),
          label: definitions.get(String(r.name))?.options.label ?? String(r.name),
          error: typeof r.error === 'string' && r.error ? r.error : 'The job failed without a message.',
          attempts: Number(r.retries) + 1,
          created_at: iso(r.created_on)!,
          failed_at: iso(r.completed_on),
        })),
      };
    },

    async retry(id) {
      const b = await open();
      const name = await failedJobName(sql!, id);
      if (name === null) return false;
      // two admins (or two processes) retrying at once: the update of the one failed row goes through once
      const result = (await b.retry(name, id)) as unknown as { affected?: number } | undefined;
      return (result?.affected ?? 0) > 0;
    },
  };
  return jobs;
}

import { z } from './zod.ts';

/** Background jobs as admins see them (GET /api/admin/jobs; docs/product/background-jobs.md). */

/** One kind of job: how many are in each state, and its repeat rule when it recurs. */
export const adminJobQueueSchema = z.object({
  name: z.string(),
  /** what the job does, in the console's words */
  label: z.string(),
  /** a cron rule (UTC) when the job recurs by itself, else null */
  schedule: z.string().nullable(),
  /** waiting for their time or for a worker */
  queued: z.number(),
  /** failed at least once and waiting for their next try */
  retrying: z.number(),
  active: z.number(),
  completed: z.number(),
  failed: z.number(),
});
export type AdminJobQueue = z.infer<typeof adminJobQueueSchema>;

/** A job that used up its tries. */
export const adminFailedJobSchema = z.object({
  id: z.string(),
  name: z.string(),
  label: z.string(),
  /** the error the last try ended with */
  error: z.string(),
  /** tries made (the first one and each retry) */
  attempts: z.number(),
  created_at: z.string(),
  failed_at: z.string().nullable(),
});
export type AdminFailedJob = z.infer<typeof adminFailedJobSchema>;

export const adminJobsResponseSchema = z.object({
  queues: z.array(adminJobQueueSchema),
  /** the most recent failed jobs, newest first (at most ADMIN_FAILED_JOBS_SHOWN) */
  failed: z.array(adminFailedJobSchema),
});
export type AdminJobsResponse = z.infer<typeof adminJobsResponseSchema>;

/** POST /api/admin/jobs/:id/retry */
export const adminJobRetryResponseSchema = z.object({ status: z.literal('success'), message: z.string() });

export const ADMIN_FAILED_JOBS_SHOWN = 50;

export const JOB_MESSAGES = {
  notFailed: 'There is no failed job with this id: it may have been retried already or cleared.',
  retried: 'The job is queued to run again.',
} as const;

/**
 * A recurring job's cron rule in words, for the rules the app uses ("every minute", "every hour at
 * minute 17"); any other rule is shown as written.
 */
export function describeSchedule(cron: string | null): string {
  if (!cron) return 'When sent';
  const parts = cron.trim().split(/\s+/);
  if (parts.length === 5 && parts.slice(1).every((p) => p === '*')) {
    if (parts[0] === '*') return 'Every minute';
    if (/^\d+$/.test(parts[0]!)) return `Every hour at minute ${Number(parts[0])}`;
  }
  if (
    parts.length === 5 &&
    /^\d+$/.test(parts[0]!) &&
    /^\d+$/.test(parts[1]!) &&
    parts.slice(2).every((p) => p === '*')
  ) {
    return `Every day at ${parts[1]!.padStart(2, '0')}:${parts[0]!.padStart(2, '0')} UTC`;
  }
  return `Cron ${cron} (UTC)`;
}

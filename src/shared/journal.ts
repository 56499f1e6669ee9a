import { z } from './zod.ts';

/** What the practice journal pages read (docs/product/journal.md). Days are the member's local 'YYYY-MM-DD'. */

const dayMinutesSchema = z.object({ day: z.string(), minutes: z.number() });

/** one saved journal entry: the exercise rows as typed (tempos are text, possibly empty) */
export const journalEntrySchema = z.object({
  id: z.number(),
  exercises: z.array(z.object({ practicedToday: z.string(), startingTempo: z.string(), endingTempo: z.string() })),
  notes: z.string().nullable(),
  created_at: z.string(),
});
export type JournalEntry = z.infer<typeof journalEntrySchema>;

/** POST /journal (201) */
export const journalEntryResponseSchema = z.object({ data: journalEntrySchema });

/** GET /api/journal?page= : 20 entries a page, newest first */
export const journalPageResponseSchema = z.object({
  data: z.array(journalEntrySchema),
  page: z.number(),
  more: z.boolean(),
});
export type JournalPage = z.infer<typeof journalPageResponseSchema>;

/** GET /api/practice/stats: the dashboard at a glance */
export const practiceStatsSchema = z.object({
  today: z.string(),
  /** the last 28 days, oldest first */
  days: z.array(dayMinutesSchema),
  streak: z.object({ current: z.number(), longest: z.number() }),
  practiced_today: z.boolean(),
  goal: z.object({ days_per_week: z.number(), minutes_per_day: z.number(), days_met_this_week: z.number() }),
  /** each recently practised exercise's tempo over time */
  tempos: z.array(
    z.object({ exercise: z.string(), points: z.array(z.object({ day: z.string(), tempo: z.number() })) }),
  ),
});
export type PracticeStats = z.infer<typeof practiceStatsSchema>;
export const practiceStatsResponseSchema = z.object({ data: practiceStatsSchema });

/** POST /api/practice/goal: the goal as saved */
export const practiceGoalResponseSchema = z.object({ days_per_week: z.number(), minutes_per_day: z.number() });

/** GET /api/practice/summary: minutes today and over the last 7 days, and the days of those 7 with practice */
export const practiceSummarySchema = z.object({ today: z.number(), week: z.number(), days: z.array(dayMinutesSchema) });
export type PracticeSummary = z.infer<typeof practiceSummarySchema>;
export const practiceSummaryResponseSchema = z.object({ data: practiceSummarySchema });

/** POST /journal/log-time-practiced: the browser follows `redirect` */
export const logTimeResponseSchema = z.object({ minutes_practiced: z.number(), redirect: z.string() });
export type LogTimeResponse = z.infer<typeof logTimeResponseSchema>;

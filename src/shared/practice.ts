import { z } from './zod.ts';

/** Days are the member's local dates, 'YYYY-MM-DD'. */
const toUtc = (day: string) => Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
export const addDays = (day: string, n: number) => new Date(toUtc(day) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * Current streak: consecutive practice days ending today, or yesterday (today is not over yet).
 * Longest: the longest run of consecutive days ever.
 */
export function streaks(practiceDays: Iterable<string>, today: string): { current: number; longest: number } {
  const days = new Set(practiceDays);
  let longest = 0;
  for (const d of days) {
    if (days.has(addDays(d, -1))) continue; // not the start of a run
    let n = 1;
    while (days.has(addDays(d, n))) n++;
    longest = Math.max(longest, n);
  }
  let start = days.has(today) ? today : days.has(addDays(today, -1)) ? addDays(today, -1) : null;
  let current = 0;
  while (start && days.has(start)) {
    current++;
    start = addDays(start, -1);
  }
  return { current, longest };
}

/** The last `n` days up to today, oldest first, with zero for days without practice. */
export function lastDays(
  minutesByDay: Map<string, number>,
  today: string,
  n: number,
): Array<{ day: string; minutes: number }> {
  return Array.from({ length: n }, (_, i) => {
    const day = addDays(today, i - n + 1);
    return { day, minutes: minutesByDay.get(day) ?? 0 };
  });
}

/** Monday of the week holding `day` (weeks start on Monday). */
export function weekStart(day: string): string {
  const weekday = (new Date(toUtc(day)).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

export const GOAL_LIMITS = { daysMin: 1, daysMax: 7, minutesMin: 5, minutesMax: 600 } as const;
export const goalBodySchema = z.object({
  days_per_week: z.coerce
    .number({ error: 'Choose 1 to 7 days a week.' })
    .int()
    .min(1, 'Choose 1 to 7 days a week.')
    .max(7, 'Choose 1 to 7 days a week.'),
  minutes_per_day: z.coerce
    .number({ error: 'Choose 5 to 600 minutes a day.' })
    .int()
    .min(GOAL_LIMITS.minutesMin, 'Choose 5 to 600 minutes a day.')
    .max(GOAL_LIMITS.minutesMax, 'Choose 5 to 600 minutes a day.'),
});

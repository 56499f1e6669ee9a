import { and, desc, eq, gte, sql, sum } from 'drizzle-orm';
import type { JournalExercise } from '#shared/learning';
import { lastDays, streaks, weekStart } from '#shared/practice';
import type { Database } from '#server/db/client';
import { journalEntries, practiceSessions, users } from '#server/db/schema/index';

/** The member's local date (YYYY-MM-DD) in their time zone; UTC until they tell us theirs. */
export function localDay(date: Date, timeZone: string | null): string {
  try {
    return new Intl.DateTimeFormat('en-CA', {
      timeZone: timeZone ?? 'UTC',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(date);
  } catch {
    return date.toISOString().slice(0, 10);
  }
}

export function createJournalService(deps: { db: Database }) {
  const { db } = deps;
  async function timezoneOf(userId: number) {
    const [row] = await db.select({ tz: users.timezone }).from(users).where(eq(users.id, userId));
    return row?.tz ?? null;
  }
  return {
    async addEntry(userId: number, exercises: JournalExercise[], notes: string | undefined) {
      const rows = exercises.filter((e) => e.practicedToday !== '' || e.startingTempo !== '' || e.endingTempo !== '');
      const [entry] = await db
        .insert(journalEntries)
        .values({ userId, exercises: rows, notes: notes || null })
        .returning();
      return {
        id: entry!.id,
        exercises: entry!.exercises,
        notes: entry!.notes,
        created_at: entry!.createdAt.toISOString(),
      };
    },
    /** only ever the member's own entries */
    async entries(userId: number, page: number) {
      const per = 20;
      const rows = await db
        .select()
        .from(journalEntries)
        .where(eq(journalEntries.userId, userId))
        .orderBy(desc(journalEntries.createdAt), desc(journalEntries.id))
        .limit(per + 1)
        .offset((page - 1) * per);
      return {
        data: rows
          .slice(0, per)
          .map((e) => ({ id: e.id, exercises: e.exercises, notes: e.notes, created_at: e.createdAt.toISOString() })),
        page,
        more: rows.length > per,
      };
    },
    async logTime(userId: number, minutes: number) {
      const day = localDay(new Date(), await timezoneOf(userId));
      await db.insert(practiceSessions).values({ userId, minutes, day });
      return { day };
    },
    /** The dashboard at a glance: minutes per day, streaks, the weekly goal, tempos over time. */
    async stats(userId: number) {
      const [u] = await db
        .select({
          tz: users.timezone,
          goalDaysPerWeek: users.goalDaysPerWeek,
          goalMinutesPerDay: users.goalMinutesPerDay,
        })
        .from(users)
        .where(eq(users.id, userId));
      const tz = u?.tz ?? null;
      const today = localDay(new Date(), tz);
      const sessions = await db
        .select({ day: practiceSessions.day, minutes: sql<number>`sum(${practiceSessions.minutes})::int` })
        .from(practiceSessions)
        .where(eq(practiceSessions.userId, userId))
        .groupBy(practiceSessions.day);
      const entries = await db
        .select()
        .from(journalEntries)
        .where(eq(journalEntries.userId, userId))
        .orderBy(journalEntries.createdAt)
        .limit(500);
      const minutesByDay = new Map(sessions.map((s) => [s.day, Number(s.minutes)]));
      const practiced = new Set([...minutesByDay.keys(), ...entries.map((e) => localDay(e.createdAt, tz))]);
      const week = weekStart(today);
      const goalMinutes = u?.goalMinutesPerDay ?? 20;
      const daysMet = [...minutesByDay].filter(([day, m]) => day >= week && day <= today && m >= goalMinutes).length;
      // each exercise's ending tempo over time (the 6 most recently practised exercises)
      const tempos = new Map<string, Array<{ day: string; tempo: number }>>();
      for (const e of entries) {
        for (const x of e.exercises) {
          const name = x.practicedToday.trim();
          const tempo = Number(x.endingTempo || x.startingTempo);
          if (!name || !tempo) continue;
          const key = name.toLowerCase();
          if (!tempos.has(key)) tempos.set(key, []);
          tempos.get(key)!.push({ day: localDay(e.createdAt, tz), tempo });
        }
      }
      const exerciseNames = new Map<string, string>();
      for (const e of entries)
        for (const x of e.exercises)
          if (x.practicedToday.trim())
            exerciseNames.set(x.practicedToday.trim().toLowerCase(), x.practicedToday.trim());
      return {
        today,
        days: lastDays(minutesByDay, today, 28),
        streak: streaks(practiced, today),
        practiced_today: practiced.has(today),
        goal: { days_per_week: u?.goalDaysPerWeek ?? 4, minutes_per_day: goalMinutes, days_met_this_week: daysMet },
        tempos: [...tempos.entries()]
          .slice(-6)
          .map(([key, points]) => ({ exercise: exerciseNames.get(key) ?? key, points: points.slice(-20) })),
      };
    },
    async setGoal(userId: number, daysPerWeek: number, minutesPerDay: number) {
      await db
        .update(users)
        .set({ goalDaysPerWeek: daysPerWeek, goalMinutesPerDay: minutesPerDay })
        .where(eq(users.id, userId));
      return { days_per_week: daysPerWeek, minutes_per_day: minutesPerDay };
    },
    async summary(userId: number) {
      const tz = await timezoneOf(userId);
      const today = localDay(new Date(), tz);
      const weekAgo = localDay(new Date(Date.now() - 6 * 86_400_000), tz);
      const [t] = await db
        .select({ m: sum(practiceSessions.minutes) })
        .from(practiceSessions)
        .where(and(eq(practiceSessions.userId, userId), eq(practiceSessions.day, today)));
      const [w] = await db
        .select({ m: sum(practiceSessions.minutes) })
        .from(practiceSessions)
        .where(and(eq(practiceSessions.userId, userId), gte(practiceSessions.day, weekAgo)));
      const days = await db
        .select({ day: practiceSessions.day, minutes: sql<number>`sum(${practiceSessions.minutes})::int` })
        .from(practiceSessions)
        .where(and(eq(practiceSessions.userId, userId), gte(practiceSessions.day, weekAgo)))
        .groupBy(practiceSessions.day)
        .orderBy(practiceSessions.day);
      return { today: Number(t?.m ?? 0), week: Number(w?.m ?? 0), days };
    },
  };
}
export type JournalService = ReturnType<typeof createJournalService>;

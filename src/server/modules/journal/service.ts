import { and, desc, eq, gte, sql, sum } from 'drizzle-orm';
import type { JournalExercise } from '#shared/learning';
import type { Database } from '#server/db/client';
import { journalEntries, practiceSessions, users } from '#server/db/schema/index';

/** The member's local date (YYYY-MM-DD) in their time zone; UTC until they tell us theirs. */
export function localDay(date: Date, timeZone: string | null): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone: timeZone ?? 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
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
      const [entry] = await db.insert(journalEntries).values({ userId, exercises: rows, notes: notes || null }).returning();
      return { id: entry!.id, exercises: entry!.exercises, notes: entry!.notes, created_at: entry!.createdAt.toISOString() };
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
        data: rows.slice(0, per).map((e) => ({ id: e.id, exercises: e.exercises, notes: e.notes, created_at: e.createdAt.toISOString() })),
        page,
        more: rows.length > per,
      };
    },
    async logTime(userId: number, minutes: number) {
      const day = localDay(new Date(), await timezoneOf(userId));
      await db.insert(practiceSessions).values({ userId, minutes, day });
      return { day };
    },
    async summary(userId: number) {
      const tz = await timezoneOf(userId);
      const today = localDay(new Date(), tz);
      const weekAgo = localDay(new Date(Date.now() - 6 * 86_400_000), tz);
      const [t] = await db.select({ m: sum(practiceSessions.minutes) }).from(practiceSessions).where(and(eq(practiceSessions.userId, userId), eq(practiceSessions.day, today)));
      const [w] = await db.select({ m: sum(practiceSessions.minutes) }).from(practiceSessions).where(and(eq(practiceSessions.userId, userId), gte(practiceSessions.day, weekAgo)));
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

import { and, asc, count, eq, sql, sum } from 'drizzle-orm';
import { pointsMessage } from '#shared/learning';
import { userChannel } from '#shared/realtime';
import type { Database } from '#server/db/client';
import {
  achievements,
  courses,
  journalEntries,
  lessonCompletions,
  lessons,
  pointsLedger,
  practiceSessions,
  quizAttempts,
  userAchievements,
} from '#server/db/schema/index';
import type { Realtime } from '#server/modules/realtime/index';

export const DEFAULT_ACHIEVEMENTS = [
  {
    slug: 'first-lesson',
    name: 'First Steps',
    description: 'Complete your first lesson.',
    rule: 'lessons',
    threshold: 1,
  },
  { slug: 'ten-lessons', name: 'Groove Student', description: 'Complete 10 lessons.', rule: 'lessons', threshold: 10 },
  { slug: 'quiz-whiz', name: 'Quiz Whiz', description: 'Pass a lesson quiz.', rule: 'quizzes', threshold: 1 },
  {
    slug: 'first-hour',
    name: 'Woodshedder',
    description: 'Log 60 minutes of practice.',
    rule: 'practice_minutes',
    threshold: 60,
  },
  {
    slug: 'journal-keeper',
    name: 'Journal Keeper',
    description: 'Write 5 journal entries.',
    rule: 'journal_entries',
    threshold: 5,
  },
  { slug: 'hundred-points', name: 'Century', description: 'Earn 100 points.', rule: 'points', threshold: 100 },
] as const;

/**
 * Points and achievements. `award` pays an action once (the reason is unique per member), then
 * unlocks whatever the new totals reach; both are pushed on the member's private channel.
 */
export function createRewardsService(deps: { db: Database; realtime: Realtime }) {
  const { db } = deps;

  async function metrics(userId: number): Promise<Record<string, number>> {
    const one = async (q: Promise<Array<{ n: unknown }>>) => Number((await q)[0]?.n ?? 0);
    return {
      points: await one(
        db
          .select({ n: sum(pointsLedger.points) })
          .from(pointsLedger)
          .where(eq(pointsLedger.userId, userId)),
      ),
      // the academy's lessons: mentorship lessons (courses.area 'mentorship') pay no points and unlock nothing here
      lessons: await one(
        db
          .select({ n: count() })
          .from(lessonCompletions)
          .innerJoin(lessons, eq(lessons.id, lessonCompletions.lessonId))
          .innerJoin(courses, eq(courses.id, lessons.courseId))
          .where(and(eq(lessonCompletions.userId, userId), eq(courses.area, 'main'))),
      ),
      quizzes: await one(
        db
          .select({ n: sql`count(distinct ${quizAttempts.lessonId})` })
          .from(quizAttempts)
          .where(and(eq(quizAttempts.userId, userId), eq(quizAttempts.passed, true))),
      ),
      practice_minutes: await one(
        db
          .select({ n: sum(practiceSessions.minutes) })
          .from(practiceSessions)
          .where(eq(practiceSessions.userId, userId)),
      ),
      journal_entries: await one(
        db.select({ n: count() }).from(journalEntries).where(eq(journalEntries.userId, userId)),
      ),
    };
  }

  /** the achievement rule an awarded action counts towards (the reason's prefix: `quiz:12` -> quizzes) */
  const RULE_OF_ACTION: Record<string, string> = {
    quiz: 'quizzes',
    lesson: 'lessons',
    practice: 'practice_minutes',
    journal: 'journal_entries',
  };

  /**
   * Unlocks every achievement the totals reach. The action's own achievement is announced first: an
   * achievement reached earlier without an award to unlock it (practice time logged elsewhere) comes
   * after it, so the popup names what the member just did.
   */
  async function unlock(userId: number, reason: string) {
    const m = await metrics(userId);
    const own = RULE_OF_ACTION[reason.split(':')[0] ?? ''];
    const all = (await db.select().from(achievements).orderBy(asc(achievements.position))).sort(
      (a, b) => Number(b.rule === own) - Number(a.rule === own),
    );
    const have = new Set(
      (
        await db
          .select({ id: userAchievements.achievementId })
          .from(userAchievements)
          .where(eq(userAchievements.userId, userId))
      ).map((r) => r.id),
    );
    for (const a of all) {
      if (have.has(a.id) || (m[a.rule] ?? 0) < a.threshold) continue;
      const [row] = await db
        .insert(userAchievements)
        .values({ userId, achievementId: a.id })
        .onConflictDoNothing()
        .returning();
      if (row)
        deps.realtime.publish(userChannel(userId), 'UnlockedAchievement', {
          imageUrl: a.imageUrl,
          progress: { details: { name: a.name } },
        });
    }
  }

  return {
    async ensureDefaults() {
      const [existing] = await db.select({ n: count() }).from(achievements);
      if (Number(existing?.n ?? 0) > 0) return;
      await db
        .insert(achievements)
        .values(
          DEFAULT_ACHIEVEMENTS.map((a, position) => ({
            ...a,
            position,
            imageUrl: `/images/achievements/${a.slug}.svg`,
          })),
        )
        .onConflictDoNothing();
    },

    /** Pays `points` for `reason` once; returns whether it paid. */
    async award(userId: number, reason: string, award: { points: number; description: string }) {
      const [row] = await db
        .insert(pointsLedger)
        .values({ userId, reason, ...award })
        .onConflictDoNothing()
        .returning();
      if (row) {
        deps.realtime.publish(userChannel(userId), 'PointsAdded', {
          point: { points: award.points, description: award.description },
          message: pointsMessage(award.points, award.description),
        });
      }
      await unlock(userId, reason);
      return !!row;
    },

    async overview(userId: number) {
      const m = await metrics(userId);
      const all = await db.select().from(achievements).orderBy(asc(achievements.position));
      const have = new Map(
        (await db.select().from(userAchievements).where(eq(userAchievements.userId, userId))).map((r) => [
          r.achievementId,
          r.unlockedAt,
        ]),
      );
      return {
        points: m.points ?? 0,
        data: all.map((a) => ({
          slug: a.slug,
          name: a.name,
          description: a.description,
          image_url: a.imageUrl,
          threshold: a.threshold,
          progress: Math.min(a.threshold, m[a.rule] ?? 0),
          unlocked_at: have.get(a.id)?.toISOString() ?? null,
        })),
      };
    },
  };
}
export type RewardsService = ReturnType<typeof createRewardsService>;

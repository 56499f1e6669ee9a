import { and, asc, count, eq, gt, inArray, or, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { courses, lessonCompletions, lessons } from '#server/db/schema/index';
import { hasEntitlement } from '#server/lib/guards';
import { notFound } from '#server/lib/errors';
import type { AuthUser } from '#server/types';
import { canWatch, MAIN_AREA, opensCourse, ownedCourseIds } from './access.ts';
import { percent } from './progress.ts';

const courseSummary = (c: typeof courses.$inferSelect, user: AuthUser | null) => ({
  id: c.id,
  slug: c.slug,
  title: c.title,
  description: c.description,
  image_url: c.imageUrl,
  members_only: c.membersOnly,
  is_welcome: c.isWelcome,
  locked: c.membersOnly && !opensCourse(user, c.id),
});

/** The academy's courses: the list with the member's progress, one course's lessons, and where to continue. */
export function createCourses(deps: { db: Database }) {
  const { db } = deps;

  async function completedIn(userId: number | undefined, lessonIds: number[]) {
    if (!userId || lessonIds.length === 0) return new Set<number>();
    const rows = await db
      .select({ id: lessonCompletions.lessonId })
      .from(lessonCompletions)
      .where(and(eq(lessonCompletions.userId, userId), inArray(lessonCompletions.lessonId, lessonIds)));
    return new Set(rows.map((r) => r.id));
  }

  return {
    async listCourses(user: AuthUser | null) {
      const rows = await db.select().from(courses).where(MAIN_AREA).orderBy(asc(courses.position), asc(courses.id));
      const counts = await db
        .select({ courseId: lessons.courseId, n: count() })
        .from(lessons)
        .groupBy(lessons.courseId);
      const done = user
        ? await db
            .select({ courseId: lessons.courseId, n: count() })
            .from(lessonCompletions)
            .innerJoin(lessons, eq(lessons.id, lessonCompletions.lessonId))
            .where(eq(lessonCompletions.userId, user.id))
            .groupBy(lessons.courseId)
        : [];
      return rows.map((c) => {
        const total = Number(counts.find((x) => x.courseId === c.id)?.n ?? 0);
        const completed = Number(done.find((x) => x.courseId === c.id)?.n ?? 0);
        return { ...courseSummary(c, user), progress: { completed, total, percent: percent(completed, total) } };
      });
    },

    async course(user: AuthUser | null, slug: string) {
      const [c] = await db
        .select()
        .from(courses)
        .where(and(eq(courses.slug, slug), MAIN_AREA))
        .limit(1);
      if (!c) throw notFound();
      const rows = await db
        .select()
        .from(lessons)
        .where(eq(lessons.courseId, c.id))
        .orderBy(asc(lessons.position), asc(lessons.id));
      const done = await completedIn(
        user?.id,
        rows.map((l) => l.id),
      );
      const completed = rows.filter((l) => done.has(l.id)).length;
      return {
        ...courseSummary(c, user),
        lessons: rows.map((l) => ({
          id: l.id,
          title: l.title,
          description: l.description,
          locked: !canWatch(user, l),
          complete: done.has(l.id),
        })),
        progress: { completed, total: rows.length, percent: percent(completed, rows.length) },
      };
    },

    /** the next lesson the member has not completed, for the dashboard */
    async continueLesson(user: AuthUser) {
      const [row] = await db
        .select({ id: lessons.id, title: lessons.title, course_title: courses.title })
        .from(lessons)
        .innerJoin(courses, eq(courses.id, lessons.courseId))
        .where(
          and(
            sql`not exists (select 1 from ${lessonCompletions} lc where lc.lesson_id = ${lessons.id} and lc.user_id = ${user.id})`,
            hasEntitlement(user, 'membership')
              ? sql`true`
              : ownedCourseIds(user).length
                ? or(eq(lessons.membersOnly, false), inArray(lessons.courseId, ownedCourseIds(user)))
                : eq(lessons.membersOnly, false),
            gt(lessons.id, 0),
            MAIN_AREA,
          ),
        )
        .orderBy(asc(courses.position), asc(lessons.position), asc(lessons.id))
        .limit(1);
      return row ?? null;
    },
  };
}

import { and, count, eq } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { lessonCompletions, lessons } from '#server/db/schema/index';

export const percent = (done: number, total: number) => (total === 0 ? 0 : Math.round((done / total) * 100));

/** how much of a course the member has completed */
export async function courseProgress(db: Database, userId: number, courseId: number) {
  const [total] = await db.select({ n: count() }).from(lessons).where(eq(lessons.courseId, courseId));
  const [done] = await db
    .select({ n: count() })
    .from(lessonCompletions)
    .innerJoin(lessons, eq(lessons.id, lessonCompletions.lessonId))
    .where(and(eq(lessons.courseId, courseId), eq(lessonCompletions.userId, userId)));
  const t = Number(total?.n ?? 0);
  const d = Number(done?.n ?? 0);
  return { completed: d, total: t, percent: percent(d, t) };
}

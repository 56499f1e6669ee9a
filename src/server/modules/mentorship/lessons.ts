import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { MENTORSHIP_AREA_TEXT, type MentorshipCourse, type MentorshipLesson } from '#shared/mentorship';
import type { Database } from '#server/db/client';
import { courses, lessonCompletions, lessons } from '#server/db/schema/index';
import { notFound } from '#server/lib/errors';
import type { AuthUser } from '#server/types';

/** The mentorship area's lessons: the courses of the 'mentorship' area only. */
export function createMentorshipLessons(deps: { db: Database }) {
  const { db } = deps;

  async function mentorshipLessonOr404(lessonId: number) {
    const [row] = await db
      .select({ lesson: lessons, course: courses })
      .from(lessons)
      .innerJoin(courses, eq(courses.id, lessons.courseId))
      .where(and(eq(lessons.id, lessonId), eq(courses.area, 'mentorship')))
      .limit(1);
    if (!row) throw notFound(MENTORSHIP_AREA_TEXT.lessonNotFound);
    return row;
  }

  return {
    async courses(user: AuthUser): Promise<MentorshipCourse[]> {
      const courseRows = await db
        .select()
        .from(courses)
        .where(eq(courses.area, 'mentorship'))
        .orderBy(asc(courses.position), asc(courses.id));
      if (!courseRows.length) return [];
      const lessonRows = await db
        .select()
        .from(lessons)
        .where(
          inArray(
            lessons.courseId,
            courseRows.map((c) => c.id),
          ),
        )
        .orderBy(asc(lessons.position), asc(lessons.id));
      const done = lessonRows.length
        ? new Set(
            (
              await db
                .select({ id: lessonCompletions.lessonId })
                .from(lessonCompletions)
                .where(
                  and(
                    eq(lessonCompletions.userId, user.id),
                    inArray(
                      lessonCompletions.lessonId,
                      lessonRows.map((l) => l.id),
                    ),
                  ),
                )
            ).map((r) => r.id),
          )
        : new Set<number>();
      return courseRows.map((c) => {
        const own = lessonRows
          .filter((l) => l.courseId === c.id)
          .map((l) => ({ id: l.id, title: l.title, description: l.description, complete: done.has(l.id) }));
        return {
          id: c.id,
          slug: c.slug,
          title: c.title,
          description: c.description,
          lessons: own,
          progress: { complete: own.filter((l) => l.complete).length, total: own.length },
        };
      });
    },

    async lesson(user: AuthUser, lessonId: number): Promise<MentorshipLesson> {
      const { lesson, course } = await mentorshipLessonOr404(lessonId);
      const siblings = await db
        .select({ id: lessons.id, title: lessons.title })
        .from(lessons)
        .where(eq(lessons.courseId, course.id))
        .orderBy(asc(lessons.position), asc(lessons.id));
      const index = siblings.findIndex((s) => s.id === lesson.id);
      const [done] = await db
        .select({ n: count() })
        .from(lessonCompletions)
        .where(and(eq(lessonCompletions.userId, user.id), eq(lessonCompletions.lessonId, lesson.id)));
      return {
        id: lesson.id,
        title: lesson.title,
        description: lesson.description,
        video_url: lesson.videoUrl,
        course: { id: course.id, slug: course.slug, title: course.title },
        number: index + 1,
        count: siblings.length,
        previous: siblings[index - 1] ?? null,
        next: siblings[index + 1] ?? null,
        complete: Number(done?.n ?? 0) > 0,
      };
    },

    /** POST /mentorship/lesson-completions: only lessons of mentorship courses (others 404) */
    async setLessonComplete(user: AuthUser, lessonId: number, complete: boolean) {
      await mentorshipLessonOr404(lessonId);
      if (complete) await db.insert(lessonCompletions).values({ userId: user.id, lessonId }).onConflictDoNothing();
      else
        await db
          .delete(lessonCompletions)
          .where(and(eq(lessonCompletions.userId, user.id), eq(lessonCompletions.lessonId, lessonId)));
      return { lesson_id: lessonId, complete };
    },
  };
}

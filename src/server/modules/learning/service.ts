import { and, asc, count, eq, gt, inArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { QuizQuestion } from '#server/db/schema/progress';
import { createHash } from 'node:crypto';
import { LEARNING, QUIZ, quizScore } from '#shared/learning';
import type { Database } from '#server/db/client';
import {
  courses,
  lessonQuizzes,
  quizAttempts,
  lessonBookmarks,
  lessonCompletions,
  lessons,
  soundslicePathCompletions,
  soundslicePaths,
  stageStepChecks,
  stageSteps,
  stages,
  users,
} from '#server/db/schema/index';
import { forbidden, notFound, ValidationError } from '#server/lib/errors';
import { hasEntitlement } from '#server/lib/guards';
import type { AuthUser } from '#server/types';

/** A checklist step is identified by a hash of its text. */
export const stepHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

type LessonRow = typeof lessons.$inferSelect;
/** the membership opens every course; a course bought on its own (`course:{id}`) opens that course */
const opensCourse = (user: AuthUser | null, courseId: number) =>
  hasEntitlement(user, 'membership') || hasEntitlement(user, `course:${courseId}`);
const ownedCourseIds = (user: AuthUser | null) =>
  (user?.entitlements ?? []).flatMap((k) => (/^course:\d+$/.test(k) ? [Number(k.slice('course:'.length))] : []));
export const canWatch = (user: AuthUser | null, lesson: Pick<LessonRow, 'membersOnly' | 'courseId'>) =>
  !lesson.membersOnly || opensCourse(user, lesson.courseId);
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
/** the main area's courses; 'mentorship' courses are listed only in the mentorship area */
const MAIN_AREA = eq(courses.area, 'main');
/** another lesson, read beside the one a statement is about */
const otherLesson = alias(lessons, 'other_lesson');
const percent = (done: number, total: number) => (total === 0 ? 0 : Math.round((done / total) * 100));

export function createLearningService(deps: { db: Database }) {
  const { db } = deps;

  /** lessons of the main area only: mentorship courses live in the mentorship area */
  async function lessonOr404(id: number) {
    const [row] = await db
      .select({ lesson: lessons })
      .from(lessons)
      .innerJoin(courses, eq(courses.id, lessons.courseId))
      .where(and(eq(lessons.id, id), MAIN_AREA))
      .limit(1);
    if (!row) throw notFound();
    return row.lesson;
  }

  /**
   * the lesson after this one: the admin's choice (lessons.next_lesson_id) when it still
   * exists in the academy, else the next one in its course (by position, then id)
   */
  async function nextLesson(lesson: LessonRow) {
    if (lesson.nextLessonId !== null) {
      const [chosen] = await db
        .select({ id: lessons.id, title: lessons.title })
        .from(lessons)
        .innerJoin(courses, eq(courses.id, lessons.courseId))
        .where(and(eq(lessons.id, lesson.nextLessonId), MAIN_AREA))
        .limit(1);
      if (chosen) return chosen;
    }
    const [next] = await db
      .select({ id: lessons.id, title: lessons.title })
      .from(lessons)
      .where(
        and(
          eq(lessons.courseId, lesson.courseId),
          sql`(${lessons.position}, ${lessons.id}) > (${lesson.position}, ${lesson.id})`,
        ),
      )
      .orderBy(asc(lessons.position), asc(lessons.id))
      .limit(1);
    return next ?? null;
  }

  async function completedIn(userId: number | undefined, lessonIds: number[]) {
    if (!userId || lessonIds.length === 0) return new Set<number>();
    const rows = await db
      .select({ id: lessonCompletions.lessonId })
      .from(lessonCompletions)
      .where(and(eq(lessonCompletions.userId, userId), inArray(lessonCompletions.lessonId, lessonIds)));
    return new Set(rows.map((r) => r.id));
  }

  async function courseProgress(userId: number, courseId: number) {
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

    /**
     * A lesson; its video and notation paths only for those who may watch it. Two statements: the
     * lesson with its course, next lesson, quiz and the viewer's bookmark, completion and course
     * progress; then the paths with the viewer's completions (only for those who may watch it).
     */
    async lesson(user: AuthUser | null, id: number) {
      const viewer = user?.id ?? 0;
      const nextCourse = alias(courses, 'next_course');
      const chosenNext = db
        .select({ o: sql`json_build_object('id', ${otherLesson.id}, 'title', ${otherLesson.title})` })
        .from(otherLesson)
        .innerJoin(nextCourse, eq(nextCourse.id, otherLesson.courseId))
        .where(and(eq(otherLesson.id, lessons.nextLessonId), eq(nextCourse.area, 'main')))
        .limit(1);
      const followingNext = db
        .select({ o: sql`json_build_object('id', ${otherLesson.id}, 'title', ${otherLesson.title})` })
        .from(otherLesson)
        .where(
          and(
            eq(otherLesson.courseId, lessons.courseId),
            sql`(${otherLesson.position}, ${otherLesson.id}) > (${lessons.position}, ${lessons.id})`,
          ),
        )
        .orderBy(asc(otherLesson.position), asc(otherLesson.id))
        .limit(1);
      const json = <T>(v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as T;
      const [row] = await db
        .select({
          lesson: lessons,
          courseSlug: courses.slug,
          courseTitle: courses.title,
          next: sql<{ id: number; title: string } | null>`coalesce((${chosenNext}), (${followingNext}))`.mapWith(
            json<{ id: number; title: string } | null>,
          ),
          quiz: sql<
            QuizQuestion[] | null
          >`(select ${lessonQuizzes.questions} from ${lessonQuizzes} where ${lessonQuizzes.lessonId} = ${lessons.id})`.mapWith(
            json<QuizQuestion[] | null>,
          ),
          bookmarked: sql<boolean>`exists (select 1 from ${lessonBookmarks} where ${lessonBookmarks.userId} = ${viewer} and ${lessonBookmarks.lessonId} = ${lessons.id})`,
          complete: sql<boolean>`exists (select 1 from ${lessonCompletions} where ${lessonCompletions.userId} = ${viewer} and ${lessonCompletions.lessonId} = ${lessons.id})`,
          courseLessons: sql<number>`(select count(*)::int from ${lessons} as l where l.course_id = ${lessons.courseId})`,
          courseDone: sql<number>`(select count(*)::int from ${lessonCompletions} as d join ${lessons} as l on l.id = d.lesson_id where l.course_id = ${lessons.courseId} and d.user_id = ${viewer})`,
        })
        .from(lessons)
        .innerJoin(courses, eq(courses.id, lessons.courseId))
        .where(and(eq(lessons.id, id), MAIN_AREA))
        .limit(1);
      if (!row) throw notFound();
      const lesson = row.lesson;
      const allowed = canWatch(user, lesson);
      const paths = allowed
        ? await db
            .select({
              id: soundslicePaths.id,
              title: soundslicePaths.title,
              url: soundslicePaths.url,
              complete: sql<boolean>`exists (select 1 from ${soundslicePathCompletions} where ${soundslicePathCompletions.userId} = ${viewer} and ${soundslicePathCompletions.pathId} = ${soundslicePaths.id})`,
            })
            .from(soundslicePaths)
            .where(eq(soundslicePaths.lessonId, id))
            .orderBy(asc(soundslicePaths.position))
        : [];
      const quiz = allowed ? row.quiz : null;
      const total = Number(row.courseLessons);
      const done = Number(row.courseDone);
      return {
        id: lesson.id,
        title: lesson.title,
        description: lesson.description,
        course: { slug: row.courseSlug, title: row.courseTitle },
        // the correct answers stay on the server
        quiz: quiz
          ? {
              questions: quiz.map((q) => ({
                title: q.title,
                imageUrl: q.imageUrl ?? null,
                options: q.options,
              })),
            }
          : null,
        locked: !allowed,
        video_url: allowed ? lesson.videoUrl : null,
        complete: !!user && row.complete,
        bookmarked: !!user && row.bookmarked,
        paths: paths.map((p) => ({ id: p.id, title: p.title, url: p.url, complete: !!user && p.complete })),
        next_lesson: row.next ?? null,
        progress: user ? { completed: done, total, percent: percent(done, total) } : null,
      };
    },

    async setBookmark(user: AuthUser, lessonId: number, bookmarked: boolean) {
      await lessonOr404(lessonId);
      if (bookmarked) await db.insert(lessonBookmarks).values({ userId: user.id, lessonId }).onConflictDoNothing();
      else
        await db
          .delete(lessonBookmarks)
          .where(and(eq(lessonBookmarks.userId, user.id), eq(lessonBookmarks.lessonId, lessonId)));
      return { bookmarked };
    },

    async bookmarks(user: AuthUser) {
      return db
        .select({
          id: lessons.id,
          title: lessons.title,
          course_title: courses.title,
          course_slug: courses.slug,
          saved_at: lessonBookmarks.createdAt,
        })
        .from(lessonBookmarks)
        .innerJoin(lessons, eq(lessons.id, lessonBookmarks.lessonId))
        .innerJoin(courses, eq(courses.id, lessons.courseId))
        .where(and(eq(lessonBookmarks.userId, user.id), MAIN_AREA))
        .orderBy(sql`${lessonBookmarks.createdAt} desc`);
    },

    /** Completing needs the right to watch the lesson. Returns whether this call newly completed it. */
    async setLessonComplete(user: AuthUser, lessonId: number, complete: boolean) {
      const lesson = await lessonOr404(lessonId);
      if (!canWatch(user, lesson)) throw forbidden(LEARNING.membersOnly);
      let newly = false;
      if (complete)
        newly =
          (await db.insert(lessonCompletions).values({ userId: user.id, lessonId }).onConflictDoNothing().returning())
            .length > 0;
      else
        await db
          .delete(lessonCompletions)
          .where(and(eq(lessonCompletions.userId, user.id), eq(lessonCompletions.lessonId, lessonId)));
      return { complete, newly, progress: await courseProgress(user.id, lesson.courseId) };
    },

    async setPathComplete(user: AuthUser, pathId: number, complete: boolean) {
      const [row] = await db
        .select({ path: soundslicePaths, lesson: lessons })
        .from(soundslicePaths)
        .innerJoin(lessons, eq(lessons.id, soundslicePaths.lessonId))
        .innerJoin(courses, eq(courses.id, lessons.courseId))
        .where(and(eq(soundslicePaths.id, pathId), MAIN_AREA))
        .limit(1);
      if (!row) throw notFound();
      if (!canWatch(user, row.lesson)) throw forbidden(LEARNING.membersOnly);
      if (complete)
        await db.insert(soundslicePathCompletions).values({ userId: user.id, pathId }).onConflictDoNothing();
      else
        await db
          .delete(soundslicePathCompletions)
          .where(and(eq(soundslicePathCompletions.userId, user.id), eq(soundslicePathCompletions.pathId, pathId)));
      return { complete };
    },

    /** The server counts the correct answers; the browser's own score is not trusted. */
    async submitQuiz(user: AuthUser, lessonId: number, answers: number[]) {
      const lesson = await lessonOr404(lessonId);
      if (!canWatch(user, lesson)) throw forbidden(LEARNING.membersOnly);
      const [quiz] = await db.select().from(lessonQuizzes).where(eq(lessonQuizzes.lessonId, lessonId));
      if (!quiz) throw notFound();
      if (answers.length !== quiz.questions.length) throw new ValidationError({ answers: ['Answer every question.'] });
      const correct = quiz.questions.filter((q, i) => q.correct === answers[i]).length;
      const score = quizScore(correct, quiz.questions.length);
      const passed = score >= QUIZ.passScore;
      await db.insert(quizAttempts).values({ userId: user.id, lessonId, score, passed });
      const next = await nextLesson(lesson);
      return {
        score,
        passed,
        correct,
        total: quiz.questions.length,
        next_lesson_url: next ? `/lessons/${next.id}` : `/courses`,
      };
    },

    async listStages(user: AuthUser) {
      const rows = await db.select().from(stages).orderBy(asc(stages.id));
      const totals = await db
        .select({ stageId: stageSteps.stageId, n: count() })
        .from(stageSteps)
        .groupBy(stageSteps.stageId);
      const checks = await db
        .select({ stageId: stageStepChecks.stageId, n: count() })
        .from(stageStepChecks)
        .where(eq(stageStepChecks.userId, user.id))
        .groupBy(stageStepChecks.stageId);
      const [me] = await db.select({ stageId: users.stageId }).from(users).where(eq(users.id, user.id));
      return rows.map((s) => ({
        id: s.id,
        title: s.title,
        description: s.description,
        image_url: s.imageUrl,
        current: me?.stageId === s.id,
        steps_total: Number(totals.find((x) => x.stageId === s.id)?.n ?? 0),
        steps_done: Number(checks.find((x) => x.stageId === s.id)?.n ?? 0),
      }));
    },

    async stage(user: AuthUser, id: number) {
      const [s] = await db.select().from(stages).where(eq(stages.id, id)).limit(1);
      if (!s) throw notFound();
      const steps = await db
        .select()
        .from(stageSteps)
        .where(eq(stageSteps.stageId, id))
        .orderBy(asc(stageSteps.position));
      const done = new Set(
        (
          await db
            .select({ h: stageStepChecks.hashId })
            .from(stageStepChecks)
            .where(and(eq(stageStepChecks.userId, user.id), eq(stageStepChecks.stageId, id)))
        ).map((r) => r.h),
      );
      return {
        id: s.id,
        title: s.title,
        description: s.description,
        image_url: s.imageUrl,
        steps: steps.map((st) => ({
          hash_id: stepHash(st.text),
          text: st.text,
          completed: done.has(stepHash(st.text)),
        })),
      };
    },

    async toggleCheckmark(user: AuthUser, stageId: number, hashId: string, completed: boolean) {
      const steps = await db.select({ text: stageSteps.text }).from(stageSteps).where(eq(stageSteps.stageId, stageId));
      if (!steps.some((s) => stepHash(s.text) === hashId))
        throw new ValidationError({ hash_id: ['The selected step is invalid.'] });
      if (completed)
        await db.insert(stageStepChecks).values({ userId: user.id, stageId, hashId }).onConflictDoNothing();
      else
        await db
          .delete(stageStepChecks)
          .where(
            and(
              eq(stageStepChecks.userId, user.id),
              eq(stageStepChecks.stageId, stageId),
              eq(stageStepChecks.hashId, hashId),
            ),
          );
      return { completed };
    },

    async setStage(user: AuthUser, stage: number) {
      await db.update(users).set({ stageId: stage, updatedAt: new Date() }).where(eq(users.id, user.id));
      const [s] = await db.select().from(stages).where(eq(stages.id, stage));
      return { stage, title: s?.title ?? null };
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
export type LearningService = ReturnType<typeof createLearningService>;

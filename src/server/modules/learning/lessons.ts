import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { QuizQuestion } from '#server/db/schema/progress';
import { LEARNING, QUIZ, quizScore } from '#shared/learning';
import { preparedQuery, type Database, type Executor } from '#server/db/client';
import {
  courses,
  lessonBookmarks,
  lessonCompletions,
  lessonQuizzes,
  lessons,
  quizAttempts,
  soundslicePathCompletions,
  soundslicePaths,
} from '#server/db/schema/index';
import { forbidden, notFound, ValidationError } from '#server/lib/errors';
import type { AuthUser } from '#server/types';
import { canWatch, MAIN_AREA, type LessonRow } from './access.ts';
import { courseProgress, percent } from './progress.ts';

/** another lesson, read beside the one a statement is about */
const otherLesson = alias(lessons, 'other_lesson');

const json = <T>(v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as T;
const nextCourse = alias(courses, 'next_course');
const viewerId = sql.placeholder('viewer');

/**
 * The lesson after the `lessons` row a statement reads, as `{ id, title }` (null for none): the admin's
 * choice (lessons.next_lesson_id) when it is still in the academy's main area, else the next one in its
 * course (by position, then id).
 */
function nextLessonOf(db: Executor) {
  const asNext = { o: sql`json_build_object('id', ${otherLesson.id}, 'title', ${otherLesson.title})` };
  const chosen = db
    .select(asNext)
    .from(otherLesson)
    .innerJoin(nextCourse, eq(nextCourse.id, otherLesson.courseId))
    .where(and(eq(otherLesson.id, lessons.nextLessonId), eq(nextCourse.area, 'main')))
    .limit(1);
  const following = db
    .select(asNext)
    .from(otherLesson)
    .where(
      and(
        eq(otherLesson.courseId, lessons.courseId),
        sql`(${otherLesson.position}, ${otherLesson.id}) > (${lessons.position}, ${lessons.id})`,
      ),
    )
    .orderBy(asc(otherLesson.position), asc(otherLesson.id))
    .limit(1);
  return sql<{ id: number; title: string } | null>`coalesce((${chosen}), (${following}))`.mapWith(
    json<{ id: number; title: string } | null>,
  );
}

/**
 * The lesson page's first statement: the lesson (`id`) with its course, next lesson, quiz and the
 * viewer's bookmark, completion and course progress (`viewer`: 0 when signed out).
 */
const lessonPage = preparedQuery('lesson_page', (db) => {
  return db
    .select({
      lesson: lessons,
      courseSlug: courses.slug,
      courseTitle: courses.title,
      next: nextLessonOf(db),
      quiz: sql<
        QuizQuestion[] | null
      >`(select ${lessonQuizzes.questions} from ${lessonQuizzes} where ${lessonQuizzes.lessonId} = ${lessons.id})`.mapWith(
        json<QuizQuestion[] | null>,
      ),
      bookmarked: sql<boolean>`exists (select 1 from ${lessonBookmarks} where ${lessonBookmarks.userId} = ${viewerId} and ${lessonBookmarks.lessonId} = ${lessons.id})`,
      complete: sql<boolean>`exists (select 1 from ${lessonCompletions} where ${lessonCompletions.userId} = ${viewerId} and ${lessonCompletions.lessonId} = ${lessons.id})`,
      courseLessons: sql<number>`(select count(*)::int from ${lessons} as l where l.course_id = ${lessons.courseId})`,
      courseDone: sql<number>`(select count(*)::int from ${lessonCompletions} as d join ${lessons} as l on l.id = d.lesson_id where l.course_id = ${lessons.courseId} and d.user_id = ${viewerId})`,
    })
    .from(lessons)
    .innerJoin(courses, eq(courses.id, lessons.courseId))
    .where(and(eq(lessons.id, sql.placeholder('id')), MAIN_AREA))
    .limit(1);
});

/** The lesson page's second statement: the lesson's notation paths with the viewer's completions. */
const lessonPaths = preparedQuery('lesson_paths', (db) =>
  db
    .select({
      id: soundslicePaths.id,
      title: soundslicePaths.title,
      url: soundslicePaths.url,
      complete: sql<boolean>`exists (select 1 from ${soundslicePathCompletions} where ${soundslicePathCompletions.userId} = ${viewerId} and ${soundslicePathCompletions.pathId} = ${soundslicePaths.id})`,
    })
    .from(soundslicePaths)
    .where(eq(soundslicePaths.lessonId, sql.placeholder('id')))
    .orderBy(asc(soundslicePaths.position)),
);

/** A lesson: reading it, bookmarking it, completing it and its notation paths, and its quiz. */
export function createLessons(deps: { db: Database }) {
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

  /** the lesson after this one (`nextLessonOf`) */
  async function nextLesson(lesson: LessonRow) {
    const [row] = await db
      .select({ next: nextLessonOf(db) })
      .from(lessons)
      .where(eq(lessons.id, lesson.id))
      .limit(1);
    return row?.next ?? null;
  }

  return {
    /**
     * A lesson; its video and notation paths only for those who may watch it. Two statements: the
     * lesson with its course, next lesson, quiz and the viewer's bookmark, completion and course
     * progress; then the paths with the viewer's completions (only for those who may watch it).
     */
    async lesson(user: AuthUser | null, id: number) {
      const viewer = user?.id ?? 0;
      const [row] = await lessonPage(db, { id, viewer });
      if (!row) throw notFound();
      const lesson = row.lesson;
      const allowed = canWatch(user, lesson);
      const paths = allowed ? await lessonPaths(db, { id, viewer }) : [];
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
      return { complete, newly, progress: await courseProgress(db, user.id, lesson.courseId) };
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
      const right = quiz.questions.map((q, i) => q.correct === answers[i]);
      const correct = right.filter(Boolean).length;
      const score = quizScore(correct, quiz.questions.length);
      const passed = score >= QUIZ.passScore;
      await db.insert(quizAttempts).values({ userId: user.id, lessonId, score, passed });
      const next = await nextLesson(lesson);
      return {
        score,
        passed,
        correct,
        total: quiz.questions.length,
        answers: right,
        next_lesson_url: next ? `/lessons/${next.id}` : `/courses`,
      };
    },
  };
}

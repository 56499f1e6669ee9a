import { and, asc, eq, sql } from 'drizzle-orm';
import type { z } from '#shared/zod';
import { CONTENT, type AdminLesson, type CourseArea, type lessonBodySchema } from '#shared/admin-content';
import type { Executor } from '#server/db/client';
import { courses, lessonQuizzes, lessons, soundslicePaths } from '#server/db/schema/index';
import { notFound, ValidationError } from '#server/lib/errors';
import { recordAudit, type Actor } from '#server/modules/admin/index';
import type { AdminContentContext } from './context.ts';
import { course, courseOr404, orderedLessons, progressOnLessons } from './courses.ts';

type LessonIn = z.output<typeof lessonBodySchema>;

const lessonRow = (l: typeof lessons.$inferSelect) => ({
  id: l.id,
  course_id: l.courseId,
  slug: l.slug,
  title: l.title,
  description: l.description,
  video_url: l.videoUrl,
  members_only: l.membersOnly,
  position: l.position,
  next_lesson_id: l.nextLessonId,
});

export async function lessonOr404(ex: Executor, id: number) {
  const [l] = await ex.select().from(lessons).where(eq(lessons.id, id)).limit(1);
  if (!l) throw notFound();
  return l;
}
async function lessonSlugFree(ex: Executor, courseId: number, slug: string, exceptId?: number) {
  const [row] = await ex
    .select({ id: lessons.id })
    .from(lessons)
    .where(and(eq(lessons.courseId, courseId), eq(lessons.slug, slug)))
    .limit(1);
  if (row && row.id !== exceptId) throw new ValidationError({ slug: [CONTENT.slugTaken] });
}
async function checkNextLesson(ex: Executor, lessonId: number | null, nextId: number | null) {
  if (nextId === null) return;
  if (nextId === lessonId) throw new ValidationError({ next_lesson_id: [CONTENT.nextLessonOther] });
  const [row] = await ex.select({ id: lessons.id }).from(lessons).where(eq(lessons.id, nextId)).limit(1);
  if (!row) throw new ValidationError({ next_lesson_id: [CONTENT.nextLessonUnknown] });
}
/** renumbers a course's lessons 0..n-1 in the given order */
async function renumber(ex: Executor, ids: number[]) {
  for (const [i, id] of ids.entries()) await ex.update(lessons).set({ position: i }).where(eq(lessons.id, id));
}

/** a lesson with its course, notation paths, quiz and the lessons its next-lesson override may name */
export async function lesson(ctx: AdminContentContext, id: number, ex: Executor = ctx.db): Promise<AdminLesson> {
  const l = await lessonOr404(ex, id);
  const c = await courseOr404(ex, l.courseId);
  const paths = await ex
    .select()
    .from(soundslicePaths)
    .where(eq(soundslicePaths.lessonId, id))
    .orderBy(asc(soundslicePaths.position), asc(soundslicePaths.id));
  const [quiz] = await ex.select().from(lessonQuizzes).where(eq(lessonQuizzes.lessonId, id));
  const choices = await ex
    .select({ id: lessons.id, title: lessons.title, course_title: courses.title })
    .from(lessons)
    .innerJoin(courses, eq(courses.id, lessons.courseId))
    .where(eq(courses.area, c.area))
    .orderBy(asc(courses.position), asc(courses.id), asc(lessons.position), asc(lessons.id));
  return {
    ...lessonRow(l),
    course: { id: c.id, title: c.title, slug: c.slug, area: c.area as CourseArea },
    paths: paths.map((p) => ({ id: p.id, title: p.title, url: p.url, position: p.position })),
    quiz: (quiz?.questions ?? []).map((q) => ({
      title: q.title,
      imageUrl: q.imageUrl ?? null,
      options: q.options,
      correct: q.correct,
    })),
    lesson_choices: choices.filter((x) => x.id !== id),
    members_with_progress: await progressOnLessons(ex, eq(lessons.id, id)),
  };
}

export async function createLesson(ctx: AdminContentContext, actor: Actor, courseId: number, input: LessonIn) {
  return ctx.db.transaction(async (tx) => {
    await courseOr404(tx, courseId);
    await lessonSlugFree(tx, courseId, input.slug);
    await checkNextLesson(tx, null, input.next_lesson_id);
    // a new lesson goes last unless the form says where
    const [last] = await tx
      .select({ p: sql<number>`coalesce(max(${lessons.position}), -1)::int` })
      .from(lessons)
      .where(eq(lessons.courseId, courseId));
    const position = input.position > 0 ? input.position : (last?.p ?? -1) + 1;
    const [row] = await tx
      .insert(lessons)
      .values({
        courseId,
        title: input.title,
        slug: input.slug,
        description: input.description,
        videoUrl: input.video_url,
        membersOnly: input.members_only,
        position,
        nextLessonId: input.next_lesson_id,
      })
      .returning();
    await recordAudit(tx, actor, {
      action: 'lesson.create',
      targetType: 'lesson',
      targetId: row!.id,
      summary: input.title,
      before: null,
      after: lessonRow(row!),
    });
    return lesson(ctx, row!.id, tx);
  });
}

export async function updateLesson(ctx: AdminContentContext, actor: Actor, id: number, input: LessonIn) {
  return ctx.db.transaction(async (tx) => {
    const before = await lessonOr404(tx, id);
    await lessonSlugFree(tx, before.courseId, input.slug, id);
    await checkNextLesson(tx, id, input.next_lesson_id);
    const [row] = await tx
      .update(lessons)
      .set({
        title: input.title,
        slug: input.slug,
        description: input.description,
        videoUrl: input.video_url,
        membersOnly: input.members_only,
        position: input.position,
        nextLessonId: input.next_lesson_id,
      })
      .where(eq(lessons.id, id))
      .returning();
    await recordAudit(tx, actor, {
      action: 'lesson.update',
      targetType: 'lesson',
      targetId: id,
      summary: input.title,
      before: lessonRow(before),
      after: lessonRow(row!),
    });
    return lesson(ctx, id, tx);
  });
}

/** moves a lesson one place up or down in its course (the course's lessons are renumbered 0..n-1) */
export async function moveLesson(ctx: AdminContentContext, actor: Actor, id: number, direction: 'up' | 'down') {
  return ctx.db.transaction(async (tx) => {
    const l = await lessonOr404(tx, id);
    const ids = (await orderedLessons(tx, l.courseId)).map((r) => r.id);
    const from = ids.indexOf(id);
    const to = direction === 'up' ? from - 1 : from + 1;
    if (to >= 0 && to < ids.length) [ids[from], ids[to]] = [ids[to]!, ids[from]!];
    await renumber(tx, ids);
    await recordAudit(tx, actor, {
      action: 'lesson.move',
      targetType: 'lesson',
      targetId: id,
      summary: `${l.title} ${direction}`,
      before: { position: l.position },
      after: { position: ids.indexOf(id) },
    });
    return course(ctx, l.courseId, tx);
  });
}

export async function deleteLesson({ db }: AdminContentContext, actor: Actor, id: number) {
  return db.transaction(async (tx) => {
    const before = await lessonOr404(tx, id);
    await tx.update(lessons).set({ nextLessonId: null }).where(eq(lessons.nextLessonId, id));
    await tx.delete(lessons).where(eq(lessons.id, id));
    await recordAudit(tx, actor, {
      action: 'lesson.delete',
      targetType: 'lesson',
      targetId: id,
      summary: before.title,
      before: lessonRow(before),
      after: null,
    });
    return { deleted: true, course_id: before.courseId };
  });
}

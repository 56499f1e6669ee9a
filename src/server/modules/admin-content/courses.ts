import { and, asc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { z } from '#shared/zod';
import type { AdminListQuery, AdminPage } from '#shared/admin';
import {
  CONTENT,
  type AdminCourse,
  type AdminCourseRow,
  type AdminLessonRow,
  type courseBodySchema,
  type CourseArea,
} from '#shared/admin-content';
import type { Executor } from '#server/db/client';
import { courses, lessonCompletions, lessons } from '#server/db/schema/index';
import { notFound, ValidationError } from '#server/lib/errors';
import {
  countAll,
  containing,
  guardSlug,
  pageOfSelect,
  recordAudit,
  sortOf,
  type Actor,
} from '#server/modules/admin/index';
import type { AdminContentContext } from './context.ts';

type CourseIn = z.output<typeof courseBodySchema>;

const courseRow = (c: typeof courses.$inferSelect) => ({
  id: c.id,
  slug: c.slug,
  title: c.title,
  description: c.description,
  image_url: c.imageUrl,
  area: c.area as CourseArea,
  members_only: c.membersOnly,
  is_welcome: c.isWelcome,
  position: c.position,
  created_at: c.createdAt.toISOString(),
});

export async function courseOr404(ex: Executor, id: number) {
  const [c] = await ex.select().from(courses).where(eq(courses.id, id)).limit(1);
  if (!c) throw notFound();
  return c;
}

/** how many members completed any of the lessons `where` selects */
export async function progressOnLessons(ex: Executor, where: SQL) {
  const [row] = await ex
    .select({ n: sql<number>`count(distinct ${lessonCompletions.userId})::int` })
    .from(lessonCompletions)
    .innerJoin(lessons, eq(lessons.id, lessonCompletions.lessonId))
    .where(where);
  return row?.n ?? 0;
}

export const orderedLessons = (ex: Executor, courseId: number) =>
  ex.select().from(lessons).where(eq(lessons.courseId, courseId)).orderBy(asc(lessons.position), asc(lessons.id));

async function courseSlugFree(ex: Executor, slug: string, exceptId?: number) {
  const [row] = await ex.select({ id: courses.id }).from(courses).where(eq(courses.slug, slug)).limit(1);
  if (row && row.id !== exceptId) throw new ValidationError({ slug: [CONTENT.slugTaken] });
}

/** a course with its lessons in order, as the course page shows it */
export async function course(ctx: AdminContentContext, id: number, ex: Executor = ctx.db): Promise<AdminCourse> {
  const c = await courseOr404(ex, id);
  const rows = await orderedLessons(ex, id);
  return {
    ...courseRow(c),
    lessons: rows.map((l): AdminLessonRow => ({
      id: l.id,
      slug: l.slug,
      title: l.title,
      members_only: l.membersOnly,
      position: l.position,
      next_lesson_id: l.nextLessonId,
    })),
    members_with_progress: await progressOnLessons(ex, eq(lessons.courseId, id)),
  };
}

export async function listCourses(
  { db }: AdminContentContext,
  query: AdminListQuery & { area?: CourseArea | undefined },
): Promise<AdminPage<AdminCourseRow>> {
  const where: SQL[] = [];
  if (query.area) where.push(eq(courses.area, query.area));
  if (query.q) {
    const like = containing(query.q);
    where.push(or(ilike(courses.title, like), ilike(courses.slug, like))!);
  }
  const cond = where.length ? and(...where) : undefined;
  const sort = sortOf(
    query,
    { position: courses.position, title: courses.title, created_at: courses.createdAt },
    'position',
  );
  return pageOfSelect({
    query,
    sort,
    count: db.select({ n: countAll }).from(courses).where(cond),
    rows: db
      .select({
        c: courses,
        lessons: sql<number>`(select count(*) from lessons l where l.course_id = "courses"."id")::int`,
      })
      .from(courses)
      .where(cond)
      .orderBy(sort.order, asc(courses.id)),
    map: ({ c, lessons: n }): AdminCourseRow => {
      const { description: _d, image_url: _i, ...rest } = courseRow(c);
      return { ...rest, lessons: n };
    },
  });
}

export async function createCourse(ctx: AdminContentContext, actor: Actor, input: CourseIn) {
  return guardSlug(CONTENT.slugTaken, () =>
    ctx.db.transaction(async (tx) => {
      await courseSlugFree(tx, input.slug);
      if (input.is_welcome) await tx.update(courses).set({ isWelcome: false }).where(eq(courses.isWelcome, true));
      const [row] = await tx
        .insert(courses)
        .values({
          title: input.title,
          slug: input.slug,
          description: input.description,
          imageUrl: input.image_url,
          membersOnly: input.members_only,
          area: input.area,
          isWelcome: input.is_welcome,
          position: input.position,
        })
        .returning();
      const after = await course(ctx, row!.id, tx);
      await recordAudit(tx, actor, {
        action: 'course.create',
        targetType: 'course',
        targetId: row!.id,
        summary: input.title,
        before: null,
        after: courseRow(row!),
      });
      return after;
    }),
  );
}

export async function updateCourse(ctx: AdminContentContext, actor: Actor, id: number, input: CourseIn) {
  return guardSlug(CONTENT.slugTaken, () =>
    ctx.db.transaction(async (tx) => {
      const before = await courseOr404(tx, id);
      await courseSlugFree(tx, input.slug, id);
      // one welcome course: setting it here clears it elsewhere, in this transaction
      if (input.is_welcome)
        await tx
          .update(courses)
          .set({ isWelcome: false })
          .where(and(eq(courses.isWelcome, true), sql`${courses.id} <> ${id}`));
      const [row] = await tx
        .update(courses)
        .set({
          title: input.title,
          slug: input.slug,
          description: input.description,
          imageUrl: input.image_url,
          membersOnly: input.members_only,
          area: input.area,
          isWelcome: input.is_welcome,
          position: input.position,
        })
        .where(eq(courses.id, id))
        .returning();
      await recordAudit(tx, actor, {
        action: 'course.update',
        targetType: 'course',
        targetId: id,
        summary: input.title,
        before: courseRow(before),
        after: courseRow(row!),
      });
      return course(ctx, id, tx);
    }),
  );
}

export async function deleteCourse({ db }: AdminContentContext, actor: Actor, id: number) {
  return db.transaction(async (tx) => {
    const before = await courseOr404(tx, id);
    const ids = (await tx.select({ id: lessons.id }).from(lessons).where(eq(lessons.courseId, id))).map((r) => r.id);
    if (ids.length) await tx.update(lessons).set({ nextLessonId: null }).where(inArray(lessons.nextLessonId, ids));
    await tx.delete(courses).where(eq(courses.id, id));
    await recordAudit(tx, actor, {
      action: 'course.delete',
      targetType: 'course',
      targetId: id,
      summary: before.title,
      before: { ...courseRow(before), lesson_ids: ids },
      after: null,
    });
    return { deleted: true };
  });
}

import { and, asc, eq, ilike, inArray, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { z } from '#shared/zod';
import type { AdminListQuery, AdminPage } from '#shared/admin';
import {
  CONTENT,
  type AdminAchievement,
  type AdminCourse,
  type AdminCourseRow,
  type AdminLesson,
  type AdminLessonRow,
  type AdminStage,
  type AdminStageRow,
  type achievementBodySchema,
  type courseBodySchema,
  type CourseArea,
  type lessonBodySchema,
  type pathsBodySchema,
  type quizBodySchema,
  type stageBodySchema,
} from '#shared/admin-content';
import type { Database, Executor } from '#server/db/client';
import {
  achievements,
  courses,
  lessonCompletions,
  lessonQuizzes,
  lessons,
  soundslicePaths,
  stages,
  stageStepChecks,
  stageSteps,
  userAchievements,
} from '#server/db/schema/index';
import { notFound, ValidationError } from '#server/lib/errors';
import { recordAudit, type Actor } from '#server/modules/admin/index';
import { countAll, escapeLike, pageOfSelect, sortOf } from '#server/modules/admin/index';
import { isUniqueViolation } from '#server/lib/db-errors';
import { guardSlug } from '#server/modules/admin/index';
import { stepHash } from '#server/modules/learning/index';

type CourseIn = z.output<typeof courseBodySchema>;
type LessonIn = z.output<typeof lessonBodySchema>;
type PathsIn = z.output<typeof pathsBodySchema>;
type QuizIn = z.output<typeof quizBodySchema>;
type StageIn = z.output<typeof stageBodySchema>;
type AchievementIn = z.output<typeof achievementBodySchema>;

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
const stageOut = (s: typeof stages.$inferSelect, steps: string[]): AdminStage => ({
  id: s.id,
  title: s.title,
  description: s.description,
  image_url: s.imageUrl,
  steps,
});
const achievementRow = (a: typeof achievements.$inferSelect) => ({
  id: a.id,
  slug: a.slug,
  name: a.name,
  description: a.description,
  image_url: a.imageUrl,
  rule: a.rule as AdminAchievement['rule'],
  threshold: a.threshold,
  position: a.position,
});

export function createAdminContentService({ db }: { db: Database }) {
  async function courseOr404(ex: Executor, id: number) {
    const [c] = await ex.select().from(courses).where(eq(courses.id, id)).limit(1);
    if (!c) throw notFound();
    return c;
  }
  async function lessonOr404(ex: Executor, id: number) {
    const [l] = await ex.select().from(lessons).where(eq(lessons.id, id)).limit(1);
    if (!l) throw notFound();
    return l;
  }
  async function stageOr404(ex: Executor, id: number) {
    const [s] = await ex.select().from(stages).where(eq(stages.id, id)).limit(1);
    if (!s) throw notFound();
    return s;
  }
  async function achievementOr404(ex: Executor, id: number) {
    const [a] = await ex.select().from(achievements).where(eq(achievements.id, id)).limit(1);
    if (!a) throw notFound();
    return a;
  }
  async function stageSteps_(ex: Executor, id: number) {
    return (
      await ex
        .select({ text: stageSteps.text })
        .from(stageSteps)
        .where(eq(stageSteps.stageId, id))
        .orderBy(asc(stageSteps.position), asc(stageSteps.id))
    ).map((r) => r.text);
  }
  async function progressOnLessons(ex: Executor, where: SQL) {
    const [row] = await ex
      .select({ n: sql<number>`count(distinct ${lessonCompletions.userId})::int` })
      .from(lessonCompletions)
      .innerJoin(lessons, eq(lessons.id, lessonCompletions.lessonId))
      .where(where);
    return row?.n ?? 0;
  }
  async function courseSlugFree(ex: Executor, slug: string, exceptId?: number) {
    const [row] = await ex.select({ id: courses.id }).from(courses).where(eq(courses.slug, slug)).limit(1);
    if (row && row.id !== exceptId) throw new ValidationError({ slug: [CONTENT.slugTaken] });
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
  const orderedLessons = (ex: Executor, courseId: number) =>
    ex.select().from(lessons).where(eq(lessons.courseId, courseId)).orderBy(asc(lessons.position), asc(lessons.id));

  async function course(id: number, ex: Executor = db): Promise<AdminCourse> {
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

  async function lesson(id: number, ex: Executor = db): Promise<AdminLesson> {
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

  return {
    // ---- courses ----
    async listCourses(query: AdminListQuery & { area?: CourseArea | undefined }): Promise<AdminPage<AdminCourseRow>> {
      const where: SQL[] = [];
      if (query.area) where.push(eq(courses.area, query.area));
      if (query.q) {
        const like = `%${escapeLike(query.q)}%`;
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
    },
    course: (id: number) => course(id),

    async createCourse(actor: Actor, input: CourseIn) {
      return guardSlug(CONTENT.slugTaken, () =>
        db.transaction(async (tx) => {
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
          const after = await course(row!.id, tx);
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
    },

    async updateCourse(actor: Actor, id: number, input: CourseIn) {
      return guardSlug(CONTENT.slugTaken, () =>
        db.transaction(async (tx) => {
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
          return course(id, tx);
        }),
      );
    },

    async deleteCourse(actor: Actor, id: number) {
      return db.transaction(async (tx) => {
        const before = await courseOr404(tx, id);
        const ids = (await tx.select({ id: lessons.id }).from(lessons).where(eq(lessons.courseId, id))).map(
          (r) => r.id,
        );
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
    },

    // ---- lessons ----
    lesson: (id: number) => lesson(id),

    async createLesson(actor: Actor, courseId: number, input: LessonIn) {
      return db.transaction(async (tx) => {
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
        return lesson(row!.id, tx);
      });
    },

    async updateLesson(actor: Actor, id: number, input: LessonIn) {
      return db.transaction(async (tx) => {
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
        return lesson(id, tx);
      });
    },

    /** moves a lesson one place up or down in its course (the course's lessons are renumbered 0..n-1) */
    async moveLesson(actor: Actor, id: number, direction: 'up' | 'down') {
      return db.transaction(async (tx) => {
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
        return course(l.courseId, tx);
      });
    },

    async deleteLesson(actor: Actor, id: number) {
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
    },

    /** the lesson's notation paths, replaced as a whole in the given order (unchanged ones keep their id and ticks) */
    async setPaths(actor: Actor, id: number, input: PathsIn) {
      return db.transaction(async (tx) => {
        await lessonOr404(tx, id);
        const before = await tx
          .select()
          .from(soundslicePaths)
          .where(eq(soundslicePaths.lessonId, id))
          .orderBy(asc(soundslicePaths.position), asc(soundslicePaths.id));
        const keep: number[] = [];
        for (const [i, p] of input.paths.entries()) {
          // a path keeps its row (and members' ticks) while its address stays the same
          const same = before.find((b) => b.url === p.url && !keep.includes(b.id));
          if (same) {
            keep.push(same.id);
            await tx
              .update(soundslicePaths)
              .set({ title: p.title, position: i })
              .where(eq(soundslicePaths.id, same.id));
          } else {
            const [row] = await tx
              .insert(soundslicePaths)
              .values({ lessonId: id, title: p.title, url: p.url, position: i })
              .returning({ id: soundslicePaths.id });
            keep.push(row!.id);
          }
        }
        await tx
          .delete(soundslicePaths)
          .where(and(eq(soundslicePaths.lessonId, id), keep.length ? notInArray(soundslicePaths.id, keep) : undefined));
        await recordAudit(tx, actor, {
          action: 'lesson.paths',
          targetType: 'lesson',
          targetId: id,
          summary: `${input.paths.length} notation paths`,
          before: before.map((p) => ({ title: p.title, url: p.url })),
          after: input.paths,
        });
        return lesson(id, tx);
      });
    },

    /** the lesson's quiz, replaced as a whole; no questions removes the quiz */
    async setQuiz(actor: Actor, id: number, input: QuizIn) {
      return db.transaction(async (tx) => {
        await lessonOr404(tx, id);
        const [before] = await tx.select().from(lessonQuizzes).where(eq(lessonQuizzes.lessonId, id));
        const questions = input.questions.map((q) => ({
          title: q.title,
          imageUrl: q.imageUrl,
          options: q.options,
          correct: q.correct,
        }));
        if (questions.length === 0) await tx.delete(lessonQuizzes).where(eq(lessonQuizzes.lessonId, id));
        else
          await tx
            .insert(lessonQuizzes)
            .values({ lessonId: id, questions })
            .onConflictDoUpdate({ target: lessonQuizzes.lessonId, set: { questions } });
        await recordAudit(tx, actor, {
          action: 'lesson.quiz',
          targetType: 'lesson',
          targetId: id,
          summary: `${questions.length} quiz questions`,
          before: before?.questions ?? [],
          after: questions,
        });
        return lesson(id, tx);
      });
    },

    // ---- stages ----
    async listStages(query: AdminListQuery): Promise<AdminPage<AdminStageRow>> {
      const cond = query.q ? ilike(stages.title, `%${escapeLike(query.q)}%`) : undefined;
      const sort = sortOf(query, { id: stages.id, title: stages.title }, 'id');
      return pageOfSelect({
        query,
        sort,
        count: db.select({ n: countAll }).from(stages).where(cond),
        rows: db
          .select({
            s: stages,
            steps: sql<number>`(select count(*) from stage_steps st where st.stage_id = "stages"."id")::int`,
          })
          .from(stages)
          .where(cond)
          .orderBy(sort.order, asc(stages.id)),
        map: ({ s, steps }): AdminStageRow => ({ id: s.id, title: s.title, image_url: s.imageUrl, steps }),
      });
    },

    async stage(id: number): Promise<AdminStage> {
      const s = await stageOr404(db, id);
      return stageOut(s, await stageSteps_(db, id));
    },

    async createStage(actor: Actor, input: StageIn): Promise<AdminStage> {
      // stage ids are fixed numbers (not serial): the next one is max + 1; a concurrent create retries
      for (let attempt = 0; ; attempt++) {
        try {
          return await db.transaction(async (tx) => {
            const [m] = await tx.select({ n: sql<number>`coalesce(max(${stages.id}), 0)::int` }).from(stages);
            const id = (m?.n ?? 0) + 1;
            const [row] = await tx
              .insert(stages)
              .values({ id, title: input.title, description: input.description, imageUrl: input.image_url })
              .returning();
            if (input.steps.length)
              await tx
                .insert(stageSteps)
                .values(input.steps.map((text, position) => ({ stageId: id, text, position })));
            const out = stageOut(row!, input.steps);
            await recordAudit(tx, actor, {
              action: 'stage.create',
              targetType: 'stage',
              targetId: id,
              summary: input.title,
              before: null,
              after: out,
            });
            return out;
          });
        } catch (err) {
          if (!isUniqueViolation(err) || attempt >= 4) throw err;
        }
      }
    },

    async updateStage(actor: Actor, id: number, input: StageIn): Promise<AdminStage> {
      return db.transaction(async (tx) => {
        const s = await stageOr404(tx, id);
        const before = stageOut(s, await stageSteps_(tx, id));
        const [row] = await tx
          .update(stages)
          .set({ title: input.title, description: input.description, imageUrl: input.image_url })
          .where(eq(stages.id, id))
          .returning();
        await tx.delete(stageSteps).where(eq(stageSteps.stageId, id));
        if (input.steps.length)
          await tx.insert(stageSteps).values(input.steps.map((text, position) => ({ stageId: id, text, position })));
        // ticks are by the hash of a step's text: a step whose words changed starts unticked
        const hashes = input.steps.map(stepHash);
        await tx
          .delete(stageStepChecks)
          .where(
            and(
              eq(stageStepChecks.stageId, id),
              hashes.length ? notInArray(stageStepChecks.hashId, hashes) : undefined,
            ),
          );
        const after = stageOut(row!, input.steps);
        await recordAudit(tx, actor, {
          action: 'stage.update',
          targetType: 'stage',
          targetId: id,
          summary: input.title,
          before,
          after,
        });
        return after;
      });
    },

    async deleteStage(actor: Actor, id: number) {
      return db.transaction(async (tx) => {
        const s = await stageOr404(tx, id);
        const before = stageOut(s, await stageSteps_(tx, id));
        await tx.delete(stages).where(eq(stages.id, id));
        await recordAudit(tx, actor, {
          action: 'stage.delete',
          targetType: 'stage',
          targetId: id,
          summary: s.title,
          before,
          after: null,
        });
        return { deleted: true };
      });
    },

    // ---- achievements ----
    async listAchievements(query: AdminListQuery): Promise<AdminPage<AdminAchievement>> {
      const cond = query.q
        ? or(ilike(achievements.name, `%${escapeLike(query.q)}%`), ilike(achievements.slug, `%${escapeLike(query.q)}%`))
        : undefined;
      const sort = sortOf(
        query,
        {
          position: achievements.position,
          name: achievements.name,
          rule: achievements.rule,
          threshold: achievements.threshold,
        },
        'position',
      );
      return pageOfSelect({
        query,
        sort,
        count: db.select({ n: countAll }).from(achievements).where(cond),
        rows: db
          .select({
            a: achievements,
            n: sql<number>`(select count(*) from user_achievements ua where ua.achievement_id = "achievements"."id")::int`,
          })
          .from(achievements)
          .where(cond)
          .orderBy(sort.order, asc(achievements.id)),
        map: ({ a, n }): AdminAchievement => ({ ...achievementRow(a), unlocked_by: n }),
      });
    },

    async achievement(id: number): Promise<AdminAchievement> {
      const a = await achievementOr404(db, id);
      const [n] = await db.select({ n: countAll }).from(userAchievements).where(eq(userAchievements.achievementId, id));
      return { ...achievementRow(a), unlocked_by: n?.n ?? 0 };
    },

    async saveAchievement(actor: Actor, id: number | null, input: AchievementIn): Promise<AdminAchievement> {
      return guardSlug(CONTENT.slugTaken, () =>
        db.transaction(async (tx) => {
          const [taken] = await tx
            .select({ id: achievements.id })
            .from(achievements)
            .where(eq(achievements.slug, input.slug))
            .limit(1);
          if (taken && taken.id !== id) throw new ValidationError({ slug: [CONTENT.slugTaken] });
          const values = {
            slug: input.slug,
            name: input.name,
            description: input.description,
            imageUrl: input.image_url,
            rule: input.rule,
            threshold: input.threshold,
            position: input.position,
          };
          let before: ReturnType<typeof achievementRow> | null = null;
          let row: typeof achievements.$inferSelect | undefined;
          if (id === null) [row] = await tx.insert(achievements).values(values).returning();
          else {
            const old = await achievementOr404(tx, id);
            before = achievementRow(old);
            [row] = await tx.update(achievements).set(values).where(eq(achievements.id, id)).returning();
          }
          const after = achievementRow(row!);
          await recordAudit(tx, actor, {
            action: id === null ? 'achievement.create' : 'achievement.update',
            targetType: 'achievement',
            targetId: row!.id,
            summary: input.name,
            before,
            after,
          });
          return { ...after, unlocked_by: 0 };
        }),
      );
    },

    async deleteAchievement(actor: Actor, id: number) {
      return db.transaction(async (tx) => {
        const a = await achievementOr404(tx, id);
        await tx.delete(achievements).where(eq(achievements.id, id));
        await recordAudit(tx, actor, {
          action: 'achievement.delete',
          targetType: 'achievement',
          targetId: id,
          summary: a.name,
          before: achievementRow(a),
          after: null,
        });
        return { deleted: true };
      });
    },
  };
}
export type AdminContentService = ReturnType<typeof createAdminContentService>;

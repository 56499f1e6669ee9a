import { and, asc, eq, notInArray } from 'drizzle-orm';
import type { z } from '#shared/zod';
import type { pathsBodySchema, quizBodySchema } from '#shared/admin-content';
import { lessonQuizzes, soundslicePaths } from '#server/db/schema/index';
import { recordAudit, type Actor } from '#server/modules/admin/index';
import type { AdminContentContext } from './context.ts';
import { lesson, lessonOr404 } from './lessons.ts';

type PathsIn = z.output<typeof pathsBodySchema>;
type QuizIn = z.output<typeof quizBodySchema>;

/** the lesson's notation paths, replaced as a whole in the given order (unchanged ones keep their id and ticks) */
export async function setPaths(ctx: AdminContentContext, actor: Actor, id: number, input: PathsIn) {
  return ctx.db.transaction(async (tx) => {
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
        await tx.update(soundslicePaths).set({ title: p.title, position: i }).where(eq(soundslicePaths.id, same.id));
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
    return lesson(ctx, id, tx);
  });
}

/** the lesson's quiz, replaced as a whole; no questions removes the quiz */
export async function setQuiz(ctx: AdminContentContext, actor: Actor, id: number, input: QuizIn) {
  return ctx.db.transaction(async (tx) => {
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
    return lesson(ctx, id, tx);
  });
}

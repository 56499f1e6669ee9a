import { and, asc, count, eq } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import type { Database } from '#server/db/client';
import { stageStepChecks, stageSteps, stages, users } from '#server/db/schema/index';
import { notFound, ValidationError } from '#server/lib/errors';
import type { AuthUser } from '#server/types';

/** A checklist step is identified by a hash of its text. */
export const stepHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** The stages: the member's current stage and each stage's checklist. */
export function createStages(deps: { db: Database }) {
  const { db } = deps;

  return {
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
  };
}

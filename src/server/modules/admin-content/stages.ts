import { and, asc, eq, ilike, notInArray, sql } from 'drizzle-orm';
import type { z } from '#shared/zod';
import type { AdminListQuery, AdminPage } from '#shared/admin';
import type { AdminStage, AdminStageRow, stageBodySchema } from '#shared/admin-content';
import type { Executor } from '#server/db/client';
import { stages, stageStepChecks, stageSteps } from '#server/db/schema/index';
import { isUniqueViolation } from '#server/lib/db-errors';
import { notFound } from '#server/lib/errors';
import { countAll, containing, pageOfSelect, recordAudit, sortOf, type Actor } from '#server/modules/admin/index';
import { stepHash } from '#server/modules/learning/index';
import type { AdminContentContext } from './context.ts';

type StageIn = z.output<typeof stageBodySchema>;

const stageOut = (s: typeof stages.$inferSelect, steps: string[]): AdminStage => ({
  id: s.id,
  title: s.title,
  description: s.description,
  image_url: s.imageUrl,
  steps,
});

async function stageOr404(ex: Executor, id: number) {
  const [s] = await ex.select().from(stages).where(eq(stages.id, id)).limit(1);
  if (!s) throw notFound();
  return s;
}
async function stepsOf(ex: Executor, id: number) {
  return (
    await ex
      .select({ text: stageSteps.text })
      .from(stageSteps)
      .where(eq(stageSteps.stageId, id))
      .orderBy(asc(stageSteps.position), asc(stageSteps.id))
  ).map((r) => r.text);
}

export async function listStages(
  { db }: AdminContentContext,
  query: AdminListQuery,
): Promise<AdminPage<AdminStageRow>> {
  const cond = query.q ? ilike(stages.title, containing(query.q)) : undefined;
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
}

export async function stage({ db }: AdminContentContext, id: number): Promise<AdminStage> {
  const s = await stageOr404(db, id);
  return stageOut(s, await stepsOf(db, id));
}

export async function createStage({ db }: AdminContentContext, actor: Actor, input: StageIn): Promise<AdminStage> {
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
          await tx.insert(stageSteps).values(input.steps.map((text, position) => ({ stageId: id, text, position })));
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
}

export async function updateStage(
  { db }: AdminContentContext,
  actor: Actor,
  id: number,
  input: StageIn,
): Promise<AdminStage> {
  return db.transaction(async (tx) => {
    const s = await stageOr404(tx, id);
    const before = stageOut(s, await stepsOf(tx, id));
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
        and(eq(stageStepChecks.stageId, id), hashes.length ? notInArray(stageStepChecks.hashId, hashes) : undefined),
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
}

export async function deleteStage({ db }: AdminContentContext, actor: Actor, id: number) {
  return db.transaction(async (tx) => {
    const s = await stageOr404(tx, id);
    const before = stageOut(s, await stepsOf(tx, id));
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
}

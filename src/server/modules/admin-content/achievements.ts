import { asc, eq, ilike, or, sql } from 'drizzle-orm';
import type { z } from '#shared/zod';
import type { AdminListQuery, AdminPage } from '#shared/admin';
import { CONTENT, type AdminAchievement, type achievementBodySchema } from '#shared/admin-content';
import type { Executor } from '#server/db/client';
import { achievements, userAchievements } from '#server/db/schema/index';
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

type AchievementIn = z.output<typeof achievementBodySchema>;

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

async function achievementOr404(ex: Executor, id: number) {
  const [a] = await ex.select().from(achievements).where(eq(achievements.id, id)).limit(1);
  if (!a) throw notFound();
  return a;
}

export async function listAchievements(
  { db }: AdminContentContext,
  query: AdminListQuery,
): Promise<AdminPage<AdminAchievement>> {
  const like = query.q ? containing(query.q) : null;
  const cond = like ? or(ilike(achievements.name, like), ilike(achievements.slug, like)) : undefined;
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
}

export async function achievement({ db }: AdminContentContext, id: number): Promise<AdminAchievement> {
  const a = await achievementOr404(db, id);
  const [n] = await db.select({ n: countAll }).from(userAchievements).where(eq(userAchievements.achievementId, id));
  return { ...achievementRow(a), unlocked_by: n?.n ?? 0 };
}

/** creates (`id` null) or updates an achievement */
export async function saveAchievement(
  { db }: AdminContentContext,
  actor: Actor,
  id: number | null,
  input: AchievementIn,
): Promise<AdminAchievement> {
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
}

export async function deleteAchievement({ db }: AdminContentContext, actor: Actor, id: number) {
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
}

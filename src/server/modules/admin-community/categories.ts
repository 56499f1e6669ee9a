import { and, asc, eq, ilike, ne, or, sql } from 'drizzle-orm';
import type { AdminListQuery, AdminPage } from '#shared/admin';
import { CATEGORY_MESSAGES, type AdminCategory } from '#shared/admin-community';
import { categoryUrl } from '#shared/forums';
import type { Executor } from '#server/db/client';
import { forumCategories } from '#server/db/schema/index';
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
import type { AdminCommunityContext } from './context.ts';

type CategoryInput = { title: string; slug: string; description: string; position?: number | undefined };

/** a category as the admin pages show it: every topic counted, hidden ones too (the database keeps the count) */
const toCategory = (c: typeof forumCategories.$inferSelect): AdminCategory => ({
  id: c.id,
  slug: c.slug,
  title: c.title,
  description: c.description,
  position: c.position,
  topics: c.topicsCount,
  url: categoryUrl(c.slug),
});

async function slugFree(tx: Executor, slug: string, exceptId?: number) {
  const [row] = await tx
    .select({ id: forumCategories.id })
    .from(forumCategories)
    .where(and(eq(forumCategories.slug, slug), exceptId ? ne(forumCategories.id, exceptId) : undefined))
    .limit(1);
  if (row) throw new ValidationError({ slug: [CATEGORY_MESSAGES.slugTaken] });
}

/** GET /api/admin/categories: in the forums' order (position), searchable by title and slug. */
export async function categoryPage(
  { db }: AdminCommunityContext,
  query: AdminListQuery,
): Promise<AdminPage<AdminCategory>> {
  const sort = sortOf(query, { position: forumCategories.position, title: forumCategories.title }, 'position', 'asc');
  const like = query.q ? containing(query.q) : null;
  const where = like ? or(ilike(forumCategories.title, like), ilike(forumCategories.slug, like)) : undefined;
  return pageOfSelect({
    query,
    sort,
    count: db.select({ n: countAll }).from(forumCategories).where(where),
    rows: db.select().from(forumCategories).where(where).orderBy(sort.order, asc(forumCategories.id)),
    map: toCategory,
  });
}

export async function category(
  ctx: AdminCommunityContext,
  id: number,
  tx: Executor = ctx.db,
  lock: 'update' | null = null,
) {
  const query = tx.select().from(forumCategories).where(eq(forumCategories.id, id)).limit(1);
  const [row] = await (lock ? query.for(lock) : query);
  if (!row) throw notFound();
  return toCategory(row);
}

export async function createCategory({ db }: AdminCommunityContext, actor: Actor, input: CategoryInput) {
  // a unique-slug race lost to another admin answers the same field message
  return guardSlug(CATEGORY_MESSAGES.slugTaken, () =>
    db.transaction(async (tx) => {
      await slugFree(tx, input.slug);
      const position =
        input.position ??
        ((
          await tx.select({ n: sql<number>`coalesce(max(${forumCategories.position}), 0)::int` }).from(forumCategories)
        )[0]?.n ?? 0) + 1;
      const [row] = await tx
        .insert(forumCategories)
        .values({ ...input, position })
        .returning();
      const after = toCategory(row!);
      await recordAudit(tx, actor, {
        action: 'category.create',
        targetType: 'forum_category',
        targetId: row!.id,
        summary: row!.title,
        before: null,
        after,
      });
      return after;
    }),
  );
}

export async function updateCategory(ctx: AdminCommunityContext, actor: Actor, id: number, input: CategoryInput) {
  return guardSlug(CATEGORY_MESSAGES.slugTaken, () =>
    ctx.db.transaction(async (tx) => {
      const before = await category(ctx, id, tx);
      await slugFree(tx, input.slug, id);
      await tx
        .update(forumCategories)
        .set({ ...input, position: input.position ?? before.position })
        .where(eq(forumCategories.id, id));
      const after = await category(ctx, id, tx);
      await recordAudit(tx, actor, {
        action: 'category.update',
        targetType: 'forum_category',
        targetId: id,
        summary: after.title,
        before,
        after,
      });
      return after;
    }),
  );
}

/** Up or down one place: the categories are numbered 1..n in their order, then the two swap. */
export async function moveCategory(ctx: AdminCommunityContext, actor: Actor, id: number, direction: 'up' | 'down') {
  return ctx.db.transaction(async (tx) => {
    // locked in id order, as everything that locks several categories does, and no stronger than a
    // change of positions needs (no key), so it waits on no topic being started in one
    const locked = await tx
      .select({ id: forumCategories.id, position: forumCategories.position, title: forumCategories.title })
      .from(forumCategories)
      .orderBy(asc(forumCategories.id))
      .for('no key update');
    const all = locked.toSorted((a, b) => a.position - b.position || a.id - b.id);
    const i = all.findIndex((c) => c.id === id);
    if (i < 0) throw notFound();
    const j = direction === 'up' ? i - 1 : i + 1;
    const order = all.map((c) => c.id);
    if (j >= 0 && j < all.length) [order[i], order[j]] = [order[j]!, order[i]!];
    for (const [n, cid] of order.entries()) {
      const was = all.find((c) => c.id === cid)!;
      if (was.position !== n + 1)
        await tx
          .update(forumCategories)
          .set({ position: n + 1 })
          .where(eq(forumCategories.id, cid));
    }
    const after = await category(ctx, id, tx);
    await recordAudit(tx, actor, {
      action: 'category.move',
      targetType: 'forum_category',
      targetId: id,
      summary: `${all[i]!.title} ${direction}`,
      before: all.map((c) => ({ id: c.id, position: c.position })),
      after: order.map((cid, n) => ({ id: cid, position: n + 1 })),
    });
    return after;
  });
}

/** Only an empty category (422 with how many topics it still holds). */
export async function deleteCategory(ctx: AdminCommunityContext, actor: Actor, id: number) {
  return ctx.db.transaction(async (tx) => {
    // a topic being started in it holds the category's row (its count) until it commits: wait, then read
    const before = await category(ctx, id, tx, 'update');
    if (before.topics > 0) throw new ValidationError({ category: [CATEGORY_MESSAGES.notEmpty(before.topics)] });
    await tx.delete(forumCategories).where(eq(forumCategories.id, id));
    await recordAudit(tx, actor, {
      action: 'category.delete',
      targetType: 'forum_category',
      targetId: id,
      summary: before.title,
      before,
      after: null,
    });
    return { ok: true };
  });
}

import { and, asc, desc, eq, or, sql } from 'drizzle-orm';
import type { AdminPage } from '#shared/admin';
import {
  MODERATION_MESSAGES,
  type ModerationAction,
  type ModerationItem,
  type ModerationKind,
  type ModerationQuery,
  type ModerationState,
} from '#shared/admin-community';
import type { Executor } from '#server/db/client';
import { chatMessages, forumTopics, posts, reports, wallComments } from '#server/db/schema/index';
import { notFound, ValidationError } from '#server/lib/errors';
import { pageEnvelope, recordAudit, sortOf, type Actor } from '#server/modules/admin/index';
import type { AdminCommunityContext } from './context.ts';
import { kinds, stateOf } from './moderation-kinds.ts';

/** GET /api/admin/moderation: newest first, filtered by kind, state, text and author name. */
export async function moderationPage(
  ctx: AdminCommunityContext,
  query: ModerationQuery,
): Promise<AdminPage<ModerationItem>> {
  const k = kinds[query.kind];
  const sort = sortOf(query, { created_at: k.created }, 'created_at', 'desc');
  const where = k.where({ state: query.state, q: query.q });
  const [total, rows] = await Promise.all([
    k.count(ctx, where),
    k.rows(
      ctx,
      where,
      [sort.order, sort.dir === 'asc' ? asc(k.id) : desc(k.id)],
      query.per_page,
      (query.page - 1) * query.per_page,
    ),
  ]);
  return pageEnvelope(rows, total, query, sort);
}

/** a forum topic's reply count from its rows: the posts members see, not counting the first post */
const recount = (tx: Executor, topicId: number) =>
  tx
    .update(forumTopics)
    .set({
      commentsCount: sql`(select count(*)::int from "posts" p where p."type" = 'forumtopic' and p."resource_id" = ${topicId} and p."trashed_at" is null and p."id" <> coalesce("forum_topics"."first_post_id", 0))`,
    })
    .where(eq(forumTopics.id, topicId));

/** a hidden or deleted thing's open reports are dealt with */
const closeReports = (tx: Executor, actor: Actor, kind: 'post' | 'chat' | 'wall', id: number) =>
  tx
    .update(reports)
    .set({ status: 'resolved', resolvedById: actor.user.id, resolvedAt: new Date() })
    .where(and(eq(reports.kind, kind), eq(reports.targetId, id), eq(reports.status, 'open')));

/**
 * Hides, restores or deletes one thing, with its audit entry, in one transaction; a hidden chat
 * message's viewers hear of it after the commit.
 */
export async function moderate(
  { db, live }: AdminCommunityContext,
  actor: Actor,
  kind: ModerationKind,
  id: number,
  action: ModerationAction,
) {
  const now = new Date();
  const hiddenValue = action === 'hide' ? now : null;
  let chatShow: number | null = null;
  const result = await db.transaction(async (tx) => {
    let before: { state: ModerationState; body: string; title?: string };
    if (kind === 'post') {
      const [row] = await tx.select().from(posts).where(eq(posts.id, id)).limit(1).for('update');
      if (!row) throw notFound();
      const [first] = await tx
        .select({ id: forumTopics.id })
        .from(forumTopics)
        .where(eq(forumTopics.firstPostId, id))
        .limit(1);
      if (first && action !== 'restore') throw new ValidationError({ action: [MODERATION_MESSAGES.firstPost] });
      before = { state: stateOf(row.trashedAt), body: row.body };
      if (action === 'delete') {
        await tx.delete(posts).where(or(eq(posts.id, id), eq(posts.parentId, id)));
      } else {
        await tx.update(posts).set({ trashedAt: hiddenValue }).where(eq(posts.id, id));
      }
      if (row.type === 'forumtopic') await recount(tx, row.resourceId);
      if (action !== 'restore') await closeReports(tx, actor, 'post', id);
    } else if (kind === 'topic') {
      const [row] = await tx.select().from(forumTopics).where(eq(forumTopics.id, id)).limit(1).for('update');
      if (!row) throw notFound();
      const [first] = row.firstPostId
        ? await tx.select({ body: posts.body }).from(posts).where(eq(posts.id, row.firstPostId)).limit(1)
        : [];
      before = { state: stateOf(row.hiddenAt), title: row.title, body: first?.body ?? '' };
      if (action === 'delete') {
        await tx.delete(posts).where(and(eq(posts.type, 'forumtopic'), eq(posts.resourceId, id)));
        await tx.delete(forumTopics).where(eq(forumTopics.id, id));
      } else {
        await tx.update(forumTopics).set({ hiddenAt: hiddenValue }).where(eq(forumTopics.id, id));
      }
    } else if (kind === 'chat') {
      const [row] = await tx.select().from(chatMessages).where(eq(chatMessages.id, id)).limit(1).for('update');
      if (!row) throw notFound();
      before = { state: stateOf(row.hiddenAt), body: row.body };
      if (action === 'delete') await tx.delete(chatMessages).where(eq(chatMessages.id, id));
      else await tx.update(chatMessages).set({ hiddenAt: hiddenValue }).where(eq(chatMessages.id, id));
      if (action !== 'restore') {
        await closeReports(tx, actor, 'chat', id);
        if (!row.hiddenAt) chatShow = row.showId;
      }
    } else {
      const [row] = await tx.select().from(wallComments).where(eq(wallComments.id, id)).limit(1).for('update');
      if (!row) throw notFound();
      before = { state: stateOf(row.hiddenAt), body: row.body };
      if (action === 'delete')
        await tx.delete(wallComments).where(or(eq(wallComments.id, id), eq(wallComments.parentId, id)));
      else await tx.update(wallComments).set({ hiddenAt: hiddenValue }).where(eq(wallComments.id, id));
      if (action !== 'restore') await closeReports(tx, actor, 'wall', id);
    }
    const after =
      action === 'delete' ? null : { ...before, state: action === 'hide' ? ('hidden' as const) : ('visible' as const) };
    await recordAudit(tx, actor, {
      action: `moderation.${action}`,
      targetType: kind,
      targetId: id,
      summary: `${action === 'delete' ? 'Deleted' : action === 'hide' ? 'Hid' : 'Restored'} ${kind === 'chat' ? 'chat message' : kind === 'wall' ? 'wall comment' : kind} #${id}: ${before.title ?? before.body}`,
      before,
      after,
    });
    return { kind, id, state: action === 'delete' ? ('deleted' as const) : (after!.state as ModerationState) };
  });
  if (chatShow !== null) live.announceHidden(chatShow, id);
  return result;
}

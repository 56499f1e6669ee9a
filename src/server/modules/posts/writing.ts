import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { COMMUNITY_MESSAGES } from '#shared/community';
import { DISCUSSION_WORDING, permalinkFor, type PostType } from '#shared/discussion';
import { forumTopics, postAttachments, postRevisions, posts, topicWatches, users } from '#server/db/schema/index';
import { forbidden, notFound, ValidationError } from '#server/lib/errors';
import { escapeHtml } from '#server/lib/html';
import type { CommunityDeps } from '#server/modules/community-deps';
import { mailExcerpt, mentionedSlugs } from '#server/modules/mail/index';
import type { AuthUser } from '#server/types';
import { onePost } from './reading.ts';
import { postOr404, readable, threadParentOf, type PostRow, type Resource } from './resources.ts';

/** POST /posts */
export async function createPost(
  ctx: CommunityDeps,
  user: AuthUser,
  input: {
    type: PostType;
    resource_id: number;
    parent_id: number | null;
    replying_to: number | null;
    body: string;
    attachment: string | null;
  },
) {
  const { db } = ctx;
  const res = await readable(ctx, user, input.type, input.resource_id);
  if (res.locked && !user.isAdmin) throw forbidden(COMMUNITY_MESSAGES.topicLocked);
  const sameResource = (p: PostRow) => p.type === res.type && p.resourceId === res.id && !p.trashedAt;

  let parentId: number | null = null;
  let replyingToId: number | null = null;
  if (input.parent_id) {
    const [parent] = await db.select().from(posts).where(eq(posts.id, input.parent_id)).limit(1);
    if (!parent || !sameResource(parent)) throw new ValidationError({ parent_id: [DISCUSSION_WORDING.parentInvalid] });
    // a reply to a reply goes under the same parent; a reply to the topic's body is top level
    parentId = parent.id === res.firstPostId ? null : (threadParentOf(parent, res) ?? parent.id);
    replyingToId = parent.id === res.firstPostId ? null : parent.id;
  }
  if (input.replying_to && input.replying_to !== input.parent_id) {
    const [target] = await db.select().from(posts).where(eq(posts.id, input.replying_to)).limit(1);
    if (!target || !sameResource(target) || target.id === res.firstPostId)
      throw new ValidationError({ replying_to: [DISCUSSION_WORDING.parentInvalid] });
    const targetParent = threadParentOf(target, res) ?? target.id;
    if (parentId !== null && targetParent !== parentId)
      throw new ValidationError({ replying_to: [DISCUSSION_WORDING.parentInvalid] });
    parentId = targetParent;
    replyingToId = target.id;
  }

  const created = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(posts)
      .values({
        type: res.type,
        resourceId: res.id,
        userId: user.id,
        parentId,
        replyingToId,
        body: input.body,
        attachments: input.attachment ? [input.attachment] : [],
      })
      .returning();
    if (input.attachment) {
      const linked = await tx
        .update(postAttachments)
        .set({ postId: row!.id })
        .where(
          and(
            eq(postAttachments.filename, input.attachment),
            eq(postAttachments.userId, user.id),
            isNull(postAttachments.postId),
          ),
        )
        .returning({ id: postAttachments.id });
      if (!linked.length) throw new ValidationError({ attachment: [COMMUNITY_MESSAGES.attachmentMissing] });
    }
    if (res.type === 'forumtopic') {
      await tx
        .update(forumTopics)
        .set({ commentsCount: sql`${forumTopics.commentsCount} + 1`, lastActivityAt: new Date() })
        .where(eq(forumTopics.id, res.id));
    }
    return row!;
  });

  await notifyAbout(ctx, user, res, created).catch(() => undefined);
  return { post: await onePost(ctx, user, created.id, res) };
}

/** PATCH /posts/{id}: the author or an admin; the previous body is kept as a revision. */
export async function updatePost(ctx: CommunityDeps, user: AuthUser, id: number, body: string) {
  const row = await postOr404(ctx.db, id);
  if (row.trashedAt) throw notFound();
  const res = await readable(ctx, user, row.type as PostType, row.resourceId);
  if (!(user.isAdmin || user.id === row.userId) || row.userId === null) throw forbidden();
  if (body !== row.body) {
    await ctx.db.transaction(async (tx) => {
      await tx.insert(postRevisions).values({ postId: id, body: row.body, editedById: user.id });
      await tx.update(posts).set({ body, editedAt: new Date(), updatedAt: new Date() }).where(eq(posts.id, id));
    });
  }
  // the thread keeps the replies it shows under a parent and replaces the rest
  return onePost(ctx, user, id, res);
}

/** DELETE /posts/{id}: the author or an admin; the post is trashed, its replies stay. */
export async function removePost(ctx: CommunityDeps, user: AuthUser, id: number) {
  const row = await postOr404(ctx.db, id);
  if (row.trashedAt) throw notFound();
  const res = await readable(ctx, user, row.type as PostType, row.resourceId);
  if (!(user.isAdmin || user.id === row.userId) || row.userId === null) throw forbidden();
  await ctx.db.transaction(async (tx) => {
    const [trashed] = await tx
      .update(posts)
      .set({ trashedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(posts.id, id), isNull(posts.trashedAt)))
      .returning({ id: posts.id });
    if (trashed && res.type === 'forumtopic' && id !== res.firstPostId) {
      await tx
        .update(forumTopics)
        .set({ commentsCount: sql`greatest(${forumTopics.commentsCount} - 1, 0)` })
        .where(eq(forumTopics.id, res.id));
    }
  });
  return { ok: true as const };
}

/** POST /attachments: the checked, re-encoded image is stored and belongs to its uploader until posted. */
export async function addAttachment(ctx: CommunityDeps, user: AuthUser, image: { ext: string; data: Buffer }) {
  const filename = await ctx.storage.save('attachments', image.ext, image.data);
  await ctx.db.insert(postAttachments).values({ filename, userId: user.id, bytes: image.data.length });
  return { filename, url: `${ctx.fileBaseUrl}/${filename}` };
}

/** POST /attachments/delete: only the requester's own file that no post uses yet; really removed from disk. */
export async function deleteAttachment(ctx: CommunityDeps, user: AuthUser, filename: string) {
  const [row] = await ctx.db
    .delete(postAttachments)
    .where(
      and(eq(postAttachments.filename, filename), eq(postAttachments.userId, user.id), isNull(postAttachments.postId)),
    )
    .returning({ filename: postAttachments.filename });
  if (!row) throw notFound();
  await ctx.storage.remove(row.filename);
  return { ok: true as const };
}

/**
 * The author replied to, the members mentioned (@their-profile-name) who may read the post, and the
 * topic's watchers: once each, never the writer. The reply and the mention come with their e-mail;
 * watchers are e-mailed at most once an hour per topic (forums/watched-topic-mail.ts).
 */
async function notifyAbout(ctx: CommunityDeps, user: AuthUser, res: Resource, post: PostRow) {
  const { db } = ctx;
  const url = `${permalinkFor(res.type, res.id)}#${post.id}`;
  const who = `<strong>${escapeHtml(user.name)}</strong>`;
  const where = `<strong>${escapeHtml(res.title)}</strong>`;
  const said = { from: user.name, where: res.title, excerpt: mailExcerpt(post.body), url };
  const sent = new Set<number>([user.id]);
  const targetId = post.replyingToId ?? post.parentId;
  if (targetId) {
    const [target] = await db.select({ userId: posts.userId }).from(posts).where(eq(posts.id, targetId)).limit(1);
    if (target?.userId && !sent.has(target.userId)) {
      sent.add(target.userId);
      await ctx.notifications.notify(target.userId, {
        body: `${who} replied to your post in ${where}.`,
        url,
        mail: { kind: 'community.reply', data: said, key: `post-${post.id}-${target.userId}` },
      });
    }
  }
  const slugs = mentionedSlugs(post.body);
  if (slugs.length > 0) {
    const mentioned = await db.select().from(users).where(inArray(users.slug, slugs));
    for (const row of mentioned) {
      if (sent.has(row.id) || row.suspendedAt) continue;
      // only someone who may read the post hears of it (a members-only lesson, a hidden topic)
      const canRead = await readable(ctx, await ctx.users.toAuthUser(row), res.type, res.id).then(
        () => true,
        () => false,
      );
      if (!canRead) continue;
      sent.add(row.id);
      await ctx.notifications.notify(row.id, {
        body: `${who} mentioned you in ${where}.`,
        url,
        mail: { kind: 'community.mention', data: said, key: `post-${post.id}-${row.id}` },
      });
    }
  }
  if (res.type === 'forumtopic') {
    const watchers = await db
      .select({ userId: topicWatches.userId })
      .from(topicWatches)
      .where(and(eq(topicWatches.topicId, res.id), gt(topicWatches.userId, 0)));
    for (const w of watchers) {
      if (sent.has(w.userId)) continue;
      sent.add(w.userId);
      await ctx.notifications.notify(w.userId, { body: `${who} posted in ${where}.`, url, topic: 'watched-topics' });
    }
  }
}

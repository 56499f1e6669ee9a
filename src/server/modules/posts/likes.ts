import { and, eq, sql } from 'drizzle-orm';
import type { PostType } from '#shared/discussion';
import { forumTopics, postLikes, posts, topicLikes } from '#server/db/schema/index';
import { notFound } from '#server/lib/errors';
import type { CommunityDeps } from '#server/modules/community-deps';
import type { AuthUser } from '#server/types';
import { postOr404, readable, readableTopic } from './resources.ts';

/**
 * Unlike when the row was there, else like; the counter moves only when a row did (inside the
 * caller's transaction). The liked thing's row is locked first, so that one member's clicks racing
 * each other flip in turn (without it, on PostgreSQL a click could find the other's like not yet
 * committed and be absorbed by ON CONFLICT).
 */
async function toggleLikeRow(
  lock: () => Promise<unknown>,
  remove: () => Promise<unknown[]>,
  insert: () => Promise<unknown[]>,
  bump: (delta: 1 | -1) => Promise<number>,
  current: () => Promise<number>,
) {
  await lock();
  if ((await remove()).length) return { liked: false, likes: await bump(-1) };
  if ((await insert()).length) return { liked: true, likes: await bump(1) };
  // a concurrent request of the same member liked it first: nothing changed
  return { liked: true, likes: await current() };
}

/** POST /toggle-like type=post: exact under concurrency (the counter moves only with a like row). */
export async function togglePostLike(ctx: CommunityDeps, user: AuthUser, postId: number) {
  const row = await postOr404(ctx.db, postId);
  if (row.trashedAt) throw notFound();
  await readable(ctx, user, row.type as PostType, row.resourceId);
  return ctx.db.transaction((tx) =>
    toggleLikeRow(
      () => tx.select({ id: posts.id }).from(posts).where(eq(posts.id, postId)).for('update'),
      () =>
        tx
          .delete(postLikes)
          .where(and(eq(postLikes.postId, postId), eq(postLikes.userId, user.id)))
          .returning({ id: postLikes.postId }),
      () =>
        tx
          .insert(postLikes)
          .values({ postId, userId: user.id })
          .onConflictDoNothing()
          .returning({ id: postLikes.postId }),
      async (delta) => {
        const [r] = await tx
          .update(posts)
          .set({ likesCount: delta > 0 ? sql`${posts.likesCount} + 1` : sql`greatest(${posts.likesCount} - 1, 0)` })
          .where(eq(posts.id, postId))
          .returning({ n: posts.likesCount });
        return r?.n ?? 0;
      },
      async () => (await tx.select({ n: posts.likesCount }).from(posts).where(eq(posts.id, postId)))[0]?.n ?? 0,
    ),
  );
}

/** A forum topic's like (POST /toggle-like type=forumtopic and POST /forums/api/likes/topics/toggle). */
export async function toggleTopicLike(ctx: CommunityDeps, user: AuthUser, topicId: number) {
  await readableTopic(ctx, user, topicId);
  return ctx.db.transaction((tx) =>
    toggleLikeRow(
      () => tx.select({ id: forumTopics.id }).from(forumTopics).where(eq(forumTopics.id, topicId)).for('update'),
      () =>
        tx
          .delete(topicLikes)
          .where(and(eq(topicLikes.topicId, topicId), eq(topicLikes.userId, user.id)))
          .returning({ id: topicLikes.topicId }),
      () =>
        tx
          .insert(topicLikes)
          .values({ topicId, userId: user.id })
          .onConflictDoNothing()
          .returning({ id: topicLikes.topicId }),
      async (delta) => {
        const [r] = await tx
          .update(forumTopics)
          .set({
            likesCount:
              delta > 0 ? sql`${forumTopics.likesCount} + 1` : sql`greatest(${forumTopics.likesCount} - 1, 0)`,
          })
          .where(eq(forumTopics.id, topicId))
          .returning({ n: forumTopics.likesCount });
        return r?.n ?? 0;
      },
      async () =>
        (await tx.select({ n: forumTopics.likesCount }).from(forumTopics).where(eq(forumTopics.id, topicId)))[0]?.n ??
        0,
    ),
  );
}

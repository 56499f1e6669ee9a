import { and, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { COMMUNITY_MESSAGES } from '#shared/community';
import type { PostType } from '#shared/discussion';
import { LEARNING } from '#shared/learning';
import { prepared, type Executor } from '#server/db/client';
import { forumTopics, lessons, posts } from '#server/db/schema/index';
import { forbidden, notFound, unauthenticated } from '#server/lib/errors';
import { mayUseCommunity } from '#server/lib/guards';
import type { CommunityDeps } from '#server/modules/community-deps';
import { canWatch } from '#server/modules/learning/index';
import type { AuthUser } from '#server/types';

/** The resource a thread belongs to, after the reader's permission was checked. */
export interface Resource {
  type: PostType;
  id: number;
  title: string;
  /** forum topics: the post holding the topic's body (not part of the thread) */
  firstPostId: number | null;
  locked: boolean;
}

export type PostRow = typeof posts.$inferSelect;

/** The viewer may read the topic: community members (admins hold everything), not hidden. */
export async function readableTopic({ db }: CommunityDeps, user: AuthUser | null, topicId: number) {
  if (!mayUseCommunity(user)) throw forbidden(COMMUNITY_MESSAGES.communityMembersOnly);
  const [topic] = await db.select().from(forumTopics).where(eq(forumTopics.id, topicId)).limit(1);
  if (!topic || (topic.hiddenAt && !user!.isAdmin)) throw notFound();
  return topic;
}

/**
 * 403/404 unless the viewer may read the resource (forum topic: community; lesson: may watch it).
 * `countParents`: the same statement counts the thread's parents (`parents`; 0 otherwise).
 */
export async function readable(
  { db }: CommunityDeps,
  user: AuthUser | null,
  type: PostType,
  id: number,
  countParents = false,
): Promise<Resource & { parents: number }> {
  if (!user) throw unauthenticated();
  const parents = (firstPostId: SQL | null) =>
    countParents
      ? sql<number>`(select count(*)::int from ${posts} as p where p.type = ${type} and p.resource_id = ${id} and p.parent_id is null${firstPostId ? sql` and p.id is distinct from ${firstPostId}` : sql``})`
      : sql<number>`0`;
  if (type === 'forumtopic') {
    if (!mayUseCommunity(user)) throw forbidden(COMMUNITY_MESSAGES.communityMembersOnly);
    const [row] = await prepared(
      'thread_topic',
      db
        .select({
          title: forumTopics.title,
          firstPostId: forumTopics.firstPostId,
          locked: forumTopics.locked,
          hiddenAt: forumTopics.hiddenAt,
          parents: parents(sql`${forumTopics.firstPostId}`),
        })
        .from(forumTopics)
        .where(eq(forumTopics.id, id))
        .limit(1),
    );
    if (!row || (row.hiddenAt && !user.isAdmin)) throw notFound();
    return { type, id, title: row.title, firstPostId: row.firstPostId, locked: row.locked, parents: row.parents };
  }
  const [lesson] = await prepared(
    'thread_lesson',
    db
      .select({
        id: lessons.id,
        title: lessons.title,
        membersOnly: lessons.membersOnly,
        courseId: lessons.courseId,
        parents: parents(null),
      })
      .from(lessons)
      .where(eq(lessons.id, id))
      .limit(1),
  );
  if (!lesson) throw notFound();
  // the lesson's own rule: membership, or the course bought on its own
  if (!canWatch(user, lesson)) throw forbidden(LEARNING.membersOnly);
  return { type, id, title: lesson.title, firstPostId: null, locked: false, parents: lesson.parents };
}

/**
 * The top-level condition of a thread: parents only; a topic's first post is its body, not part of
 * the thread (migration 0009 moved older replies filed under it to the top level), so the partial
 * index on parents serves every page.
 */
export function parentCondition(res: Resource): SQL {
  return and(
    eq(posts.type, res.type),
    eq(posts.resourceId, res.id),
    isNull(posts.parentId),
    res.firstPostId ? ne(posts.id, res.firstPostId) : undefined,
  )!;
}

/** the parent a post shows under (null: it is a parent itself) */
export const threadParentOf = (row: Pick<PostRow, 'parentId'>, res: Resource) =>
  row.parentId && row.parentId !== res.firstPostId ? row.parentId : null;

/** a discussion post (forum topic or lesson), else 404 */
export async function postOr404(ex: Executor, id: number) {
  const [row] = await ex.select().from(posts).where(eq(posts.id, id)).limit(1);
  if (!row || (row.type !== 'forumtopic' && row.type !== 'lesson')) throw notFound();
  return row;
}

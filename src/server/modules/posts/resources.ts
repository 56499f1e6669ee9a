import { and, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { COMMUNITY_MESSAGES } from '#shared/community';
import type { PostType } from '#shared/discussion';
import { LEARNING } from '#shared/learning';
import { preparedQuery, type Executor } from '#server/db/client';
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

/** whether a thread's resource is read with the number of its parents */
type ParentsCounted = 'counted' | 'uncounted';

/** the number of parents of the thread (`type`, `id`), leaving out a topic's body (`firstPostId`) */
const parentsOf = (counted: ParentsCounted, firstPostId: SQL | null) =>
  counted === 'counted'
    ? sql<number>`(select count(*)::int from ${posts} as p where p.type = ${sql.placeholder('type')} and p.resource_id = ${sql.placeholder('id')} and p.parent_id is null${firstPostId ? sql` and p.id is distinct from ${firstPostId}` : sql``})`
    : sql<number>`0`;

/** a forum topic (`id`) as its thread needs it */
const threadTopic = preparedQuery('thread_topic', (db, counted: ParentsCounted) =>
  db
    .select({
      title: forumTopics.title,
      firstPostId: forumTopics.firstPostId,
      locked: forumTopics.locked,
      hiddenAt: forumTopics.hiddenAt,
      parents: parentsOf(counted, sql`${forumTopics.firstPostId}`),
    })
    .from(forumTopics)
    .where(eq(forumTopics.id, sql.placeholder('id')))
    .limit(1),
);

/** a lesson (`id`) as its discussion needs it */
const threadLesson = preparedQuery('thread_lesson', (db, counted: ParentsCounted) =>
  db
    .select({
      id: lessons.id,
      title: lessons.title,
      membersOnly: lessons.membersOnly,
      courseId: lessons.courseId,
      parents: parentsOf(counted, null),
    })
    .from(lessons)
    .where(eq(lessons.id, sql.placeholder('id')))
    .limit(1),
);

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
  const counted = countParents ? 'counted' : 'uncounted';
  if (type === 'forumtopic') {
    if (!mayUseCommunity(user)) throw forbidden(COMMUNITY_MESSAGES.communityMembersOnly);
    const [row] = await threadTopic(db, { type, id }, counted);
    if (!row || (row.hiddenAt && !user.isAdmin)) throw notFound();
    return { type, id, title: row.title, firstPostId: row.firstPostId, locked: row.locked, parents: row.parents };
  }
  const [lesson] = await threadLesson(db, { type, id }, counted);
  if (!lesson) throw notFound();
  // the lesson's own rule: membership, or the course bought on its own
  if (!canWatch(user, lesson)) throw forbidden(LEARNING.membersOnly);
  return { type, id, title: lesson.title, firstPostId: null, locked: false, parents: lesson.parents };
}

/**
 * The top-level condition of a thread, for a prepared statement: parents only, of the resource the
 * placeholders `type` and `id` name; a topic's first post (`withBody`: the placeholder `first`) is its
 * body, not part of the thread, and replies are never filed under it, so the partial index on parents
 * serves every page.
 */
export function parentCondition(withBody: boolean): SQL {
  return and(
    eq(posts.type, sql.placeholder('type')),
    eq(posts.resourceId, sql.placeholder('id')),
    isNull(posts.parentId),
    withBody ? ne(posts.id, sql.placeholder('first')) : undefined,
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

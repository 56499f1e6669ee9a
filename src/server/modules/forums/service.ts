import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { COMMUNITY, COMMUNITY_MESSAGES, type PostDto } from '#shared/community';
import { DEFAULT_AVATAR_URL } from '#shared/constants';
import {
  categoryUrl,
  FORUM_MESSAGES,
  topicUrl,
  type CategoryPage,
  type ForumCategoryDto,
  type NewTopic,
  type TopicAnswer,
  type TopicListItem,
} from '#shared/forums';
import { preparedQuery, type Executor } from '#server/db/client';
import {
  forumCategories,
  forumTopics,
  postLikes,
  posts,
  topicLikes,
  topicWatches,
  users,
} from '#server/db/schema/index';
import { forbidden, notFound, ValidationError } from '#server/lib/errors';
import type { CommunityDeps } from '#server/modules/community-deps';
import type { AuthUser } from '#server/types';

/** Forums and live shows are for members, mentorship students and admins. */

const YOUTUBE =
  /(?:youtube(?:-nocookie)?\.com\/(?:watch\?(?:[^\s#]*&)?v=|embed\/|shorts\/|live\/)|youtu\.be\/)([\w-]{11})/g;
/** which topics a reader counts: every topic (an admin) or the visible ones */
type TopicsSeen = 'all' | 'visible';
const topicsSeen = (seen: TopicsSeen) => (seen === 'all' ? undefined : isNull(forumTopics.hiddenAt));

/** a category's number of topics the reader counts, kept on the category by the database */
const topicsCountOf = (seen: TopicsSeen) =>
  seen === 'all' ? forumCategories.topicsCount : forumCategories.visibleTopicsCount;

/** a category's latest topic the reader may see (whose last activity is the category's), from forum_topics_latest_idx */
const latestTopicOf = (db: Executor, seen: TopicsSeen) =>
  db
    .select({ id: forumTopics.id, title: forumTopics.title, lastActivityAt: forumTopics.lastActivityAt })
    .from(forumTopics)
    .where(and(eq(forumTopics.categoryId, forumCategories.id), topicsSeen(seen)))
    .orderBy(desc(forumTopics.lastActivityAt), desc(forumTopics.id))
    .limit(1)
    .as('latest');

/**
 * The forums index in one statement: every category with its topic count (a column) and its latest
 * topic, read per category in the index's order, so nothing scans or sorts a category's topics.
 */
const categoryRows = preparedQuery('forum_categories', (db, seen: TopicsSeen) => {
  const latest = latestTopicOf(db, seen);
  return db
    .select({
      cat: forumCategories,
      topicsCount: topicsCountOf(seen),
      latestId: latest.id,
      latestTitle: latest.title,
      lastActivityAt: latest.lastActivityAt,
    })
    .from(forumCategories)
    .leftJoinLateral(latest, sql`true`)
    .orderBy(asc(forumCategories.position), asc(forumCategories.id));
});

/** video ids from links to the video host in a post's text */
export const videoIds = (body: string) => [...new Set([...body.matchAll(YOUTUBE)].map((m) => m[1]!))];

type TopicRow = typeof forumTopics.$inferSelect;

export function createForumService(deps: CommunityDeps) {
  const { db } = deps;
  const isAdmin = (user: AuthUser | null) => !!user?.isAdmin;
  const seenBy = (user: AuthUser | null): TopicsSeen => (isAdmin(user) ? 'all' : 'visible');
  const author = (u: { name: string; slug: string; avatarPath: string | null } | null) =>
    u
      ? { name: u.name, permalink: deps.users.profileUrl(u), avatarUrl: deps.users.avatarUrl(u) }
      : { name: COMMUNITY_MESSAGES.deleted, permalink: null, avatarUrl: DEFAULT_AVATAR_URL };

  /** A topic the viewer may see, or 404 (hidden topics are for admins only). */
  async function visibleTopic(
    viewer: AuthUser | null,
    topicId: number,
    tx: Executor = db,
    lock: 'no key update' | null = null,
  ): Promise<TopicRow> {
    const query = tx.select().from(forumTopics).where(eq(forumTopics.id, topicId)).limit(1);
    const [row] = await (lock ? query.for(lock) : query);
    if (!row || (row.hiddenAt && !isAdmin(viewer))) throw notFound();
    return row;
  }

  /**
   * Locks the categories a transaction puts a topic in or takes it out of (FOR NO KEY UPDATE, in id
   * order), after the topic's own row and before writing it, the order the count trigger's writers
   * (hiding, deleting) take them in. The trigger updates these rows anyway; taking that lock first means
   * the transaction never waits to strengthen the weaker lock the topic's foreign key takes, which
   * deadlocks against an admin deleting the category. An admin deleting one waits, then finds the topic
   * (only an empty category is deleted); one deleted first is missing from the answer (the
   * categories still there, by id).
   */
  async function lockCategories(tx: Executor, categoryIds: number[]) {
    const rows = await tx
      .select()
      .from(forumCategories)
      .where(inArray(forumCategories.id, categoryIds))
      .orderBy(asc(forumCategories.id))
      .for('no key update');
    return new Map(rows.map((r) => [r.id, r]));
  }

  async function categoryBySlug(slug: string) {
    const [row] = await db.select().from(forumCategories).where(eq(forumCategories.slug, slug)).limit(1);
    if (!row) throw notFound();
    return row;
  }

  return {
    visibleTopic,

    /** GET /api/forums: every category with its topic count, latest topic and latest activity (one statement). */
    async categories(viewer: AuthUser | null): Promise<ForumCategoryDto[]> {
      const rows = await categoryRows(db, {}, seenBy(viewer));
      return rows.map((r) => ({
        id: r.cat.id,
        slug: r.cat.slug,
        title: r.cat.title,
        description: r.cat.description,
        topicsCount: r.topicsCount,
        lastActivityAt: r.lastActivityAt ? r.lastActivityAt.toISOString() : null,
        latestTopic: r.latestId !== null && r.latestTitle !== null ? { id: r.latestId, title: r.latestTitle } : null,
      }));
    },

    /** GET /api/forums/{slug}?page=: pinned first, then newest activity (two statements whatever the page). */
    async categoryPage(viewer: AuthUser | null, slug: string, page: number): Promise<CategoryPage> {
      // the category with its totals (the topics the viewer may see), in one statement
      const seen = seenBy(viewer);
      const latest = latestTopicOf(db, seen);
      const [found] = await db
        .select({ cat: forumCategories, n: topicsCountOf(seen), last: latest.lastActivityAt })
        .from(forumCategories)
        .leftJoinLateral(latest, sql`true`)
        .where(eq(forumCategories.slug, slug))
        .limit(1);
      if (!found) throw notFound();
      const cat = found.cat;
      const where = and(eq(forumTopics.categoryId, cat.id), topicsSeen(seen));
      const per = COMMUNITY.topicsPerPage;
      const total = found.n;
      const rows = await db
        .select({ t: forumTopics, u: { name: users.name, slug: users.slug, avatarPath: users.avatarPath } })
        .from(forumTopics)
        .leftJoin(users, eq(users.id, forumTopics.userId))
        .where(where)
        .orderBy(desc(forumTopics.pinned), desc(forumTopics.lastActivityAt), desc(forumTopics.id))
        .limit(per)
        .offset((page - 1) * per);
      const topics: TopicListItem[] = rows.map(({ t, u }) => ({
        id: t.id,
        title: t.title,
        url: topicUrl(t.id),
        pinned: t.pinned,
        locked: t.locked,
        hidden: !!t.hiddenAt,
        numLikes: t.likesCount,
        numComments: t.commentsCount,
        createdAt: t.createdAt.toISOString(),
        lastActivityAt: t.lastActivityAt.toISOString(),
        user: author(u?.slug ? u : null),
      }));
      const last = found.last;
      return {
        category: {
          id: cat.id,
          slug: cat.slug,
          title: cat.title,
          description: cat.description,
          topicsCount: total,
          lastActivityAt: last ? last.toISOString() : null,
          latestTopic: null,
        },
        topics,
        page,
        pages: Math.max(1, Math.ceil(total / per)),
        total,
      };
    },

    /** POST /api/forums/{slug}/topics: the topic, its first post (the body) and the author's watch, in one transaction. */
    async createTopic(user: AuthUser, slug: string, input: NewTopic) {
      const cat = await categoryBySlug(slug);
      await deps.limiters.consume('topicsPerUser', String(user.id));
      const id = await db.transaction(async (tx) => {
        if (!(await lockCategories(tx, [cat.id])).has(cat.id)) throw notFound();
        const now = new Date();
        const [topic] = await tx
          .insert(forumTopics)
          .values({ categoryId: cat.id, userId: user.id, title: input.title, createdAt: now, lastActivityAt: now })
          .returning({ id: forumTopics.id });
        const [first] = await tx
          .insert(posts)
          .values({
            type: 'forumtopic',
            resourceId: topic!.id,
            userId: user.id,
            body: input.body,
            createdAt: now,
            updatedAt: now,
          })
          .returning({ id: posts.id });
        await tx.update(forumTopics).set({ firstPostId: first!.id }).where(eq(forumTopics.id, topic!.id));
        await tx.insert(topicWatches).values({ topicId: topic!.id, userId: user.id }).onConflictDoNothing();
        return topic!.id;
      });
      return { topic: { id, url: topicUrl(id) } };
    },

    /** GET /forums/api/topic/{id}: `{data: [{topic, user, posts: [first post]}]}`; four queries. */
    async topic(viewer: AuthUser, topicId: number): Promise<TopicAnswer> {
      const [row] = await db
        .select({
          t: forumTopics,
          cat: { slug: forumCategories.slug, title: forumCategories.title },
          u: { id: users.id, name: users.name, slug: users.slug, avatarPath: users.avatarPath, role: users.role },
          liked: sql<boolean>`exists (select 1 from ${topicLikes} where ${topicLikes.topicId} = ${forumTopics.id} and ${topicLikes.userId} = ${viewer.id})`,
          watching: sql<boolean>`exists (select 1 from ${topicWatches} where ${topicWatches.topicId} = ${forumTopics.id} and ${topicWatches.userId} = ${viewer.id})`,
        })
        .from(forumTopics)
        .innerJoin(forumCategories, eq(forumCategories.id, forumTopics.categoryId))
        .leftJoin(users, eq(users.id, forumTopics.userId))
        .where(eq(forumTopics.id, topicId))
        .limit(1);
      if (!row || (row.t.hiddenAt && !isAdmin(viewer))) throw notFound();
      const { t } = row;
      const firstPosts = t.firstPostId
        ? await db
            .select({
              p: posts,
              u: { id: users.id, name: users.name, slug: users.slug, avatarPath: users.avatarPath, role: users.role },
            })
            .from(posts)
            .leftJoin(users, eq(users.id, posts.userId))
            .where(eq(posts.id, t.firstPostId))
            .limit(1)
        : [];
      const first = firstPosts[0];
      let firstLiked = false;
      if (first) {
        const [like] = await db
          .select({ one: sql`1` })
          .from(postLikes)
          .where(and(eq(postLikes.postId, first.p.id), eq(postLikes.userId, viewer.id)))
          .limit(1);
        firstLiked = !!like;
      }
      const url = topicUrl(t.id);
      const postDto = (p: typeof posts.$inferSelect, u: NonNullable<typeof first>['u']): PostDto => {
        const gone = !u || !!p.trashedAt;
        return {
          id: p.id,
          body: p.trashedAt ? '' : p.body,
          userId: gone ? null : u.id,
          user: gone ? COMMUNITY_MESSAGES.deleted : u.name,
          admin: !gone && u.role === 'admin',
          avatarUrl: gone ? DEFAULT_AVATAR_URL : deps.users.avatarUrl(u),
          profileUrl: gone ? null : deps.users.profileUrl(u),
          permalink: url,
          mentorshipPermalink: `/mentorship${url}`,
          createdAt: p.createdAt.toISOString(),
          editedAt: p.editedAt?.toISOString() ?? null,
          trashed: !!p.trashedAt,
          phase: null,
          parentId: null,
          replyingTo: null,
          replyingToPermalink: null,
          numLikes: p.likesCount,
          authLiked: firstLiked,
          attachments: p.trashedAt ? [] : p.attachments,
          videos: p.trashedAt ? [] : videoIds(p.body),
          canEdit: !gone && (viewer.isAdmin || u.id === viewer.id),
          children: [],
          moreChildren: 0,
        };
      };
      const u = row.u?.slug ? row.u : null;
      return {
        data: [
          {
            topic: {
              id: t.id,
              title: t.title,
              url,
              createdAt: t.createdAt.toISOString(),
              authWatching: !!row.watching,
              authLiked: !!row.liked,
              numLikes: t.likesCount,
              numComments: t.commentsCount,
              pinned: t.pinned,
              locked: t.locked,
              hidden: !!t.hiddenAt,
              categoryId: t.categoryId,
              categorySlug: row.cat.slug,
              categoryTitle: row.cat.title,
            },
            user: u ? { ...author(u), admin: u.role === 'admin' } : null,
            posts: first ? [postDto(first.p, first.u?.slug ? first.u : null)] : [],
          },
        ],
      };
    },

    /** POST /api/forums/topics/{id}/watch: stored, so watchers can be notified of new posts. */
    async watch(viewer: AuthUser, topicId: number, watch: boolean) {
      await visibleTopic(viewer, topicId);
      if (watch) await db.insert(topicWatches).values({ topicId, userId: viewer.id }).onConflictDoNothing();
      else
        await db.delete(topicWatches).where(and(eq(topicWatches.topicId, topicId), eq(topicWatches.userId, viewer.id)));
      return { watching: watch };
    },

    /** ids of the members watching a topic (for notifications of new posts) */
    async watcherIds(topicId: number, tx: Executor = db) {
      const rows = await tx
        .select({ userId: topicWatches.userId })
        .from(topicWatches)
        .where(eq(topicWatches.topicId, topicId));
      return rows.map((r) => r.userId);
    },

    /** Admin only: pin or unpin. */
    async pin(viewer: AuthUser, topicId: number, pinned: boolean) {
      if (!viewer.isAdmin) throw forbidden();
      await visibleTopic(viewer, topicId);
      await db.update(forumTopics).set({ pinned }).where(eq(forumTopics.id, topicId));
      return { pinned };
    },

    /** Admin only: lock (no new replies from members) or unlock. */
    async lock(viewer: AuthUser, topicId: number, locked: boolean) {
      if (!viewer.isAdmin) throw forbidden();
      await visibleTopic(viewer, topicId);
      await db.update(forumTopics).set({ locked }).where(eq(forumTopics.id, topicId));
      return { locked };
    },

    /** Admin only: move to another category. */
    async move(viewer: AuthUser, topicId: number, categoryId: number) {
      if (!viewer.isAdmin) throw forbidden();
      const cat = await db.transaction(async (tx) => {
        // the topic's row, then its categories': the order every write to a category's count locks them in
        const topic = await visibleTopic(viewer, topicId, tx, 'no key update');
        const target = (await lockCategories(tx, [topic.categoryId, categoryId])).get(categoryId);
        if (!target) throw new ValidationError({ category_id: [FORUM_MESSAGES.categoryInvalid] });
        await tx.update(forumTopics).set({ categoryId: target.id }).where(eq(forumTopics.id, topicId));
        return target;
      });
      return {
        category_id: cat.id,
        categorySlug: cat.slug,
        categoryTitle: cat.title,
        categoryUrl: categoryUrl(cat.slug),
      };
    },
  };
}
export type ForumService = ReturnType<typeof createForumService>;

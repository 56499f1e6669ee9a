import { and, asc, desc, eq, gt, inArray, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { COMMUNITY, COMMUNITY_MESSAGES, type DiscussionSort, type PostDto } from '#shared/community';
import { DEFAULT_AVATAR_URL } from '#shared/constants';
import {
  DISCUSSION_WORDING,
  mentorshipPermalinkFor,
  permalinkFor,
  youtubeIds,
  type PostType,
} from '#shared/discussion';
import { LEARNING } from '#shared/learning';
import type { Executor } from '#server/db/client';
import {
  forumTopics,
  lessons,
  postAttachments,
  postLikes,
  postRevisions,
  posts,
  topicLikes,
  topicWatches,
  users,
} from '#server/db/schema/index';
import { forbidden, notFound, unauthenticated, ValidationError } from '#server/lib/errors';
import { mayUseCommunity } from '#server/lib/guards';
import type { CommunityDeps } from '#server/modules/community-deps';
import { canWatch } from '#server/modules/learning/index';
import type { AuthUser } from '#server/types';
import { escapeHtml } from '#server/lib/html';
import { mailExcerpt, mentionedSlugs } from '#server/modules/mail/index';

/** replies of one parent answered by GET /posts/thread (a safety bound; threads are far smaller) */
const THREAD_MAX_REPLIES = 2000;

/** The resource a thread belongs to, after the reader's permission was checked. */
interface Resource {
  type: PostType;
  id: number;
  title: string;
  /** forum topics: the post holding the topic's body (not part of the thread) */
  firstPostId: number | null;
  locked: boolean;
}

type PostRow = typeof posts.$inferSelect;
const author = alias(users, 'author');
const replied = alias(posts, 'replied');
const repliedAuthor = alias(users, 'replied_author');

/**
 * Threaded posts on a forum topic or a lesson (docs/product/discussion.md).
 * Every page of a thread is two statements whatever the thread's size: the resource the viewer's
 * permission depends on, then the page's parents and the replies shown under them in one statement,
 * with authors and the replied-to author joined and the viewer's likes and each parent's number of
 * replies as subqueries (`threadPage`).
 */
export function createPostService(deps: CommunityDeps) {
  const { db } = deps;

  // ---- resources and permissions ----

  /** The viewer may read the topic: community members (admins hold everything), not hidden. */
  async function readableTopic(user: AuthUser | null, topicId: number, tx: Executor = db) {
    if (!mayUseCommunity(user)) throw forbidden(COMMUNITY_MESSAGES.communityMembersOnly);
    const [topic] = await tx.select().from(forumTopics).where(eq(forumTopics.id, topicId)).limit(1);
    if (!topic || (topic.hiddenAt && !user!.isAdmin)) throw notFound();
    return topic;
  }

  /**
   * 403/404 unless the viewer may read the resource (forum topic: community; lesson: may watch it).
   * `countParents`: the same statement counts the thread's parents (`parents`; 0 otherwise).
   */
  async function readable(
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
      const [row] = await db
        .select({
          title: forumTopics.title,
          firstPostId: forumTopics.firstPostId,
          locked: forumTopics.locked,
          hiddenAt: forumTopics.hiddenAt,
          parents: parents(sql`${forumTopics.firstPostId}`),
        })
        .from(forumTopics)
        .where(eq(forumTopics.id, id))
        .limit(1);
      if (!row || (row.hiddenAt && !user.isAdmin)) throw notFound();
      return { type, id, title: row.title, firstPostId: row.firstPostId, locked: row.locked, parents: row.parents };
    }
    const [lesson] = await db
      .select({
        id: lessons.id,
        title: lessons.title,
        membersOnly: lessons.membersOnly,
        courseId: lessons.courseId,
        parents: parents(null),
      })
      .from(lessons)
      .where(eq(lessons.id, id))
      .limit(1);
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
  function parentCondition(res: Resource): SQL {
    return and(
      eq(posts.type, res.type),
      eq(posts.resourceId, res.id),
      isNull(posts.parentId),
      res.firstPostId ? ne(posts.id, res.firstPostId) : undefined,
    )!;
  }
  /** the parent a post shows under (null: it is a parent itself) */
  const threadParentOf = (row: Pick<PostRow, 'parentId'>, res: Resource) =>
    row.parentId && row.parentId !== res.firstPostId ? row.parentId : null;

  async function postOr404(id: number, tx: Executor = db) {
    const [row] = await tx.select().from(posts).where(eq(posts.id, id)).limit(1);
    if (!row || (row.type !== 'forumtopic' && row.type !== 'lesson')) throw notFound();
    return row;
  }

  // ---- reading: rows with authors, then DTOs ----

  function selectRows<Extra extends Record<string, SQL.Aliased | SQL>>(tx: Executor = db, extra: Extra = {} as Extra) {
    return tx
      .select({
        ...extra,
        post: posts,
        authorName: author.name,
        authorSlug: author.slug,
        authorAvatar: author.avatarPath,
        authorRole: author.role,
        authorSuspended: author.suspendedAt,
        repliedTrashed: replied.trashedAt,
        repliedName: repliedAuthor.name,
      })
      .from(posts)
      .leftJoin(author, eq(author.id, posts.userId))
      .leftJoin(replied, eq(replied.id, posts.replyingToId))
      .leftJoin(repliedAuthor, eq(repliedAuthor.id, replied.userId));
  }
  type Row = Awaited<ReturnType<ReturnType<typeof selectRows<Record<never, never>>>['where']>>[number];

  async function likedBy(viewer: AuthUser | null, ids: number[]) {
    if (!viewer || ids.length === 0) return new Set<number>();
    const rows = await db
      .select({ id: postLikes.postId })
      .from(postLikes)
      .where(and(eq(postLikes.userId, viewer.id), inArray(postLikes.postId, ids)));
    return new Set(rows.map((r) => r.id));
  }

  function toDto(row: Row, viewer: AuthUser | null, liked: Set<number>, res: Resource): PostDto {
    const p = row.post;
    const permalink = permalinkFor(p.type, p.resourceId);
    const gone = !!p.trashedAt || p.userId === null || row.authorName === null;
    const replyingTo =
      p.replyingToId && p.replyingToId !== p.id
        ? row.repliedTrashed || !row.repliedName
          ? COMMUNITY_MESSAGES.deleted
          : row.repliedName
        : null;
    return {
      id: p.id,
      body: gone ? '' : p.body,
      userId: gone ? null : p.userId,
      user: gone ? COMMUNITY_MESSAGES.deleted : row.authorName!,
      admin: !gone && row.authorRole === 'admin',
      avatarUrl: gone ? DEFAULT_AVATAR_URL : deps.users.avatarUrl({ avatarPath: row.authorAvatar ?? null }),
      profileUrl: gone || row.authorSuspended ? null : `/profile/${row.authorSlug}`,
      permalink,
      mentorshipPermalink: mentorshipPermalinkFor(p.type, p.resourceId),
      createdAt: p.createdAt.toISOString(),
      editedAt: gone ? null : (p.editedAt?.toISOString() ?? null),
      trashed: !!p.trashedAt,
      phase: null,
      parentId: threadParentOf(p, res),
      replyingTo,
      replyingToPermalink: replyingTo ? `${permalink}#${p.replyingToId}` : null,
      numLikes: p.likesCount,
      authLiked: liked.has(p.id),
      attachments: gone ? [] : p.attachments,
      videos: gone ? [] : youtubeIds(p.body),
      canEdit: !gone && !!viewer && (viewer.isAdmin || viewer.id === p.userId),
      children: [],
      moreChildren: 0,
    };
  }

  /**
   * One page of a thread in one statement: the rows `ids` selects (parents, then the replies shown
   * under them) with their authors, the replied-to author, whether the viewer liked each, and each
   * parent's number of replies. Any row whose parent is among the rows is a reply; the others are
   * parents, answered in `order`. `allReplies`: every reply is shown (no count needed).
   */
  async function threadPage(
    viewer: AuthUser | null,
    res: Resource,
    ids: SQL,
    allReplies: boolean,
    order: (a: Row, b: Row) => number,
  ): Promise<PostDto[]> {
    const rows = await selectRows(db, {
      liked: viewer
        ? sql<boolean>`exists (select 1 from ${postLikes} where ${postLikes.postId} = ${posts.id} and ${postLikes.userId} = ${viewer.id})`
        : sql<boolean>`false`,
      replies: allReplies
        ? sql<number>`0`
        : sql<number>`(select count(*)::int from ${posts} as c where c.parent_id = ${posts.id})`,
    })
      .where(sql`${posts.id} in (${ids})`)
      .orderBy(asc(posts.id));
    const liked = new Set(rows.filter((r) => r.liked).map((r) => r.post.id));
    const present = new Set(rows.map((r) => r.post.id));
    const byParent = new Map<number, PostDto[]>();
    const parents: typeof rows = [];
    for (const r of rows) {
      const parentId = r.post.parentId;
      if (parentId === null || !present.has(parentId)) {
        parents.push(r);
        continue;
      }
      const list = byParent.get(parentId) ?? [];
      list.push(toDto(r, viewer, liked, res));
      byParent.set(parentId, list);
    }
    return parents.sort(order).map((r) => {
      const dto = toDto(r, viewer, liked, res);
      dto.children = byParent.get(r.post.id) ?? [];
      dto.moreChildren = allReplies ? 0 : Math.max(0, Number(r.replies) - dto.children.length);
      return dto;
    });
  }

  /** the ids of the first replies shown under each of the parents `parentIds` selects */
  const firstReplies = (parentIds: SQL) =>
    sql`select r.id from (select id, row_number() over (partition by parent_id order by id) as rn from ${posts} where parent_id in (${parentIds})) r where r.rn <= ${COMMUNITY.repliesShown}`;

  const newestFirst = (a: Row, b: Row) => b.post.id - a.post.id;

  async function onePost(viewer: AuthUser | null, id: number, res: Resource) {
    const [row] = await selectRows().where(eq(posts.id, id)).limit(1);
    if (!row) throw notFound();
    return toDto(row, viewer, await likedBy(viewer, [id]), res);
  }

  /** The conversation a post belongs to: its parent (or itself) with every reply, in one statement. */
  async function conversation(viewer: AuthUser | null, res: Resource, postId: number) {
    // the post's thread parent (threadParentOf), when the post is in this thread and not a topic's body
    const first = res.firstPostId ?? 0;
    const parent = sql`select case when p.parent_id is not null and p.parent_id <> ${first} then p.parent_id else p.id end from ${posts} as p where p.id = ${postId} and p.type = ${res.type} and p.resource_id = ${res.id} and p.id <> ${first}`;
    const ids = sql`select (${parent}) union all (select id from ${posts} where parent_id = (${parent}) order by id limit ${THREAD_MAX_REPLIES})`;
    const data = await threadPage(viewer, res, ids, true, newestFirst);
    // a reply whose parent is gone answers as the original did: not found
    if (data.length !== 1 || data[0]!.parentId !== null) throw notFound();
    return data;
  }

  // ---- likes ----

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

  return {
    readable,

    /** GET /posts: parents newest first (keyset on id), each with its first replies. */
    async thread(viewer: AuthUser | null, type: PostType, id: number, from: number | null) {
      const res = await readable(viewer, type, id);
      const perPage = COMMUNITY.parentsPerPage;
      // one parent past the page says whether there are more (its replies are not read)
      const parents = (n: number) =>
        db
          .select({ id: posts.id })
          .from(posts)
          .where(and(parentCondition(res), from ? lt(posts.id, from) : undefined))
          .orderBy(desc(posts.id))
          .limit(n);
      const ids = sql`(${parents(perPage + 1)}) union all (${firstReplies(sql`${parents(perPage)}`)})`;
      const all = await threadPage(viewer, res, ids, false, newestFirst);
      const more = all.length > perPage;
      const page = all.slice(0, perPage);
      return { posts: page, more, from: more ? page[page.length - 1]!.id : null };
    },

    /** GET /posts/thread: one conversation (individual thread mode). */
    async individualThread(viewer: AuthUser | null, type: PostType, id: number, postId: number) {
      const res = await readable(viewer, type, id);
      return { posts: await conversation(viewer, res, postId) };
    },

    /** GET /inline-posts: a lesson's discussion, sorted and paged; `to` answers one conversation. */
    async inline(
      viewer: AuthUser | null,
      type: PostType,
      id: number,
      sort: DiscussionSort,
      page: number,
      to: number | null,
    ) {
      const res = await readable(viewer, type, id, !to);
      const perPage = COMMUNITY.inlinePostsPerPage;
      if (to) {
        const data = await conversation(viewer, res, to);
        return {
          posts: { data, current_page: 1, last_page: 1, per_page: perPage, total: data.length },
          page: 1,
          pages: 1,
        };
      }
      const n = res.parents;
      const pages = Math.max(1, Math.ceil(n / perPage));
      const [order, inOrder] =
        sort === 'upvoted'
          ? [
              [desc(posts.likesCount), desc(posts.id)],
              (a: Row, b: Row) => b.post.likesCount - a.post.likesCount || b.post.id - a.post.id,
            ]
          : sort === 'newest'
            ? [[desc(posts.id)], newestFirst]
            : [[asc(posts.id)], (a: Row, b: Row) => a.post.id - b.post.id];
      const parents = db
        .select({ id: posts.id })
        .from(posts)
        .where(parentCondition(res))
        .orderBy(...order)
        .limit(perPage)
        .offset((page - 1) * perPage);
      const ids = sql`(${parents}) union all (${firstReplies(sql`${parents}`)})`;
      const data = await threadPage(viewer, res, ids, false, inOrder);
      return { posts: { data, current_page: page, last_page: pages, per_page: perPage, total: n }, page, pages };
    },

    /** GET /api/posts/{id}: one post and where it lives (the /posts/{id} page and the posts modal). */
    async show(viewer: AuthUser | null, id: number) {
      const row = await postOr404(id);
      const res = await readable(viewer, row.type as PostType, row.resourceId);
      return {
        post: await onePost(viewer, id, res),
        type: res.type,
        resource_id: res.id,
        title: res.title,
        is_topic_body: row.id === res.firstPostId,
        thread_parent_id: threadParentOf(row, res) ?? row.id,
      };
    },

    /** POST /posts */
    async create(
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
      const res = await readable(user, input.type, input.resource_id);
      if (res.locked && !user.isAdmin) throw forbidden(COMMUNITY_MESSAGES.topicLocked);
      const sameResource = (p: PostRow) => p.type === res.type && p.resourceId === res.id && !p.trashedAt;

      let parentId: number | null = null;
      let replyingToId: number | null = null;
      if (input.parent_id) {
        const [parent] = await db.select().from(posts).where(eq(posts.id, input.parent_id)).limit(1);
        if (!parent || !sameResource(parent))
          throw new ValidationError({ parent_id: [DISCUSSION_WORDING.parentInvalid] });
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

      await notifyAbout(user, res, created).catch(() => undefined);
      return { post: await onePost(user, created.id, res) };
    },

    /** PATCH /posts/{id}: the author or an admin; the previous body is kept as a revision. */
    async update(user: AuthUser, id: number, body: string) {
      const row = await postOr404(id);
      if (row.trashedAt) throw notFound();
      const res = await readable(user, row.type as PostType, row.resourceId);
      if (!(user.isAdmin || user.id === row.userId) || row.userId === null) throw forbidden();
      if (body !== row.body) {
        await db.transaction(async (tx) => {
          await tx.insert(postRevisions).values({ postId: id, body: row.body, editedById: user.id });
          await tx.update(posts).set({ body, editedAt: new Date(), updatedAt: new Date() }).where(eq(posts.id, id));
        });
      }
      // the thread keeps the replies it shows under a parent and replaces the rest
      return onePost(user, id, res);
    },

    /** GET /api/posts/{id}/revisions: earlier versions, newest first, for anyone who can read the post. */
    async revisions(viewer: AuthUser | null, id: number) {
      const row = await postOr404(id);
      if (row.trashedAt) throw notFound();
      await readable(viewer, row.type as PostType, row.resourceId);
      const editor = alias(users, 'editor');
      const rows = await db
        .select({
          id: postRevisions.id,
          body: postRevisions.body,
          createdAt: postRevisions.createdAt,
          editor: editor.name,
        })
        .from(postRevisions)
        .leftJoin(editor, eq(editor.id, postRevisions.editedById))
        .where(eq(postRevisions.postId, id))
        .orderBy(desc(postRevisions.id))
        .limit(100);
      return rows.map((r) => ({
        id: r.id,
        body: r.body,
        replaced_at: r.createdAt.toISOString(),
        edited_by: r.editor ?? COMMUNITY_MESSAGES.deleted,
      }));
    },

    /** DELETE /posts/{id}: the author or an admin; the post is trashed, its replies stay. */
    async remove(user: AuthUser, id: number) {
      const row = await postOr404(id);
      if (row.trashedAt) throw notFound();
      const res = await readable(user, row.type as PostType, row.resourceId);
      if (!(user.isAdmin || user.id === row.userId) || row.userId === null) throw forbidden();
      await db.transaction(async (tx) => {
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
      return { ok: true };
    },

    /** POST /toggle-like type=post: exact under concurrency (the counter moves only with a like row). */
    async togglePostLike(user: AuthUser, postId: number) {
      const row = await postOr404(postId);
      if (row.trashedAt) throw notFound();
      await readable(user, row.type as PostType, row.resourceId);
      return db.transaction((tx) =>
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
    },

    /** A forum topic's like (POST /toggle-like type=forumtopic and POST /forums/api/likes/topics/toggle). */
    async toggleTopicLike(user: AuthUser, topicId: number) {
      await readableTopic(user, topicId);
      return db.transaction((tx) =>
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
            (await tx.select({ n: forumTopics.likesCount }).from(forumTopics).where(eq(forumTopics.id, topicId)))[0]
              ?.n ?? 0,
        ),
      );
    },

    /** POST /attachments: the checked, re-encoded image is stored and belongs to its uploader until posted. */
    async addAttachment(user: AuthUser, image: { ext: string; data: Buffer }) {
      const filename = await deps.storage.save('attachments', image.ext, image.data);
      await db.insert(postAttachments).values({ filename, userId: user.id, bytes: image.data.length });
      return { filename, url: `${deps.fileBaseUrl}/${filename}` };
    },

    /** POST /attachments/delete: only the requester's own file that no post uses yet; really removed from disk. */
    async deleteAttachment(user: AuthUser, filename: string) {
      const [row] = await db
        .delete(postAttachments)
        .where(
          and(
            eq(postAttachments.filename, filename),
            eq(postAttachments.userId, user.id),
            isNull(postAttachments.postId),
          ),
        )
        .returning({ filename: postAttachments.filename });
      if (!row) throw notFound();
      await deps.storage.remove(row.filename);
      return { ok: true };
    },
  };

  /**
   * The author replied to, the members mentioned (@their-profile-name) who may read the post, and the
   * topic's watchers: once each, never the writer. The reply and the mention come with their e-mail;
   * watchers are e-mailed at most once an hour per topic (./watched-topics.ts).
   */
  async function notifyAbout(user: AuthUser, res: Resource, post: PostRow) {
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
        await deps.notifications.notify(target.userId, {
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
        const canRead = await readable(await deps.users.toAuthUser(row), res.type, res.id).then(
          () => true,
          () => false,
        );
        if (!canRead) continue;
        sent.add(row.id);
        await deps.notifications.notify(row.id, {
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
        await deps.notifications.notify(w.userId, { body: `${who} posted in ${where}.`, url, topic: 'watched-topics' });
      }
    }
  }
}
export type PostService = ReturnType<typeof createPostService>;

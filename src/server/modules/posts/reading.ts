import { and, asc, desc, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { COMMUNITY, COMMUNITY_MESSAGES, type DiscussionSort, type PostDto } from '#shared/community';
import { DEFAULT_AVATAR_URL } from '#shared/constants';
import { mentorshipPermalinkFor, permalinkFor, youtubeIds, type PostType } from '#shared/discussion';
import { preparedQuery, type Executor } from '#server/db/client';
import { postLikes, postRevisions, posts, users } from '#server/db/schema/index';
import { notFound } from '#server/lib/errors';
import type { CommunityDeps } from '#server/modules/community-deps';
import type { AuthUser } from '#server/types';
import { parentCondition, postOr404, readable, threadParentOf, type Resource } from './resources.ts';

/*
 * Reading threads (docs/product/discussion.md). Every page of a thread is two statements whatever
 * the thread's size: the resource the viewer's permission depends on, then the page's parents and
 * the replies shown under them in one statement, with authors and the replied-to author joined and
 * the viewer's likes and each parent's number of replies as subqueries (`threadPage`).
 */

/** replies of one parent answered by GET /posts/thread (a safety bound; threads are far smaller) */
const THREAD_MAX_REPLIES = 2000;

const author = alias(users, 'author');
const replied = alias(posts, 'replied');
const repliedAuthor = alias(users, 'replied_author');

// ---- rows with authors, then DTOs ----

function selectRows<Extra extends Record<string, SQL.Aliased | SQL>>(ex: Executor, extra: Extra = {} as Extra) {
  return ex
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

async function likedBy({ db }: CommunityDeps, viewer: AuthUser | null, ids: number[]) {
  if (!viewer || ids.length === 0) return new Set<number>();
  const rows = await db
    .select({ id: postLikes.postId })
    .from(postLikes)
    .where(and(eq(postLikes.userId, viewer.id), inArray(postLikes.postId, ids)));
  return new Set(rows.map((r) => r.id));
}

function toDto(ctx: CommunityDeps, row: Row, viewer: AuthUser | null, liked: Set<number>, res: Resource): PostDto {
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
    avatarUrl: gone ? DEFAULT_AVATAR_URL : ctx.users.avatarUrl({ avatarPath: row.authorAvatar ?? null }),
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
 * Which rows a page of a thread reads (the `ids` of `threadPage`), one shape per prepared statement:
 * one conversation; a topic's or lesson's newest parents (from the start or before `from`); a lesson
 * discussion's page of parents in a sort. `body`: the thread's resource has a body post to leave out.
 */
type PageShape =
  | 'conversation'
  | `newest:${'body' | 'nobody'}:${'first' | 'before'}`
  | `sorted:${'body' | 'nobody'}:${DiscussionSort}`;

/** the ids of the first replies shown under each of the parents `parentIds` selects */
const firstReplies = (parentIds: SQL) =>
  sql`select r.id from (select id, row_number() over (partition by parent_id order by id) as rn from ${posts} where parent_id in (${parentIds})) r where r.rn <= ${COMMUNITY.repliesShown}`;

const newestFirst = (a: Row, b: Row) => b.post.id - a.post.id;

/** each sort of a lesson discussion: the parents' order in SQL, and the same order of read rows */
const SORTED_BY: Record<DiscussionSort, { sql: SQL[]; rows: (a: Row, b: Row) => number }> = {
  upvoted: {
    sql: [desc(posts.likesCount), desc(posts.id)],
    rows: (a, b) => b.post.likesCount - a.post.likesCount || b.post.id - a.post.id,
  },
  newest: { sql: [desc(posts.id)], rows: newestFirst },
  oldest: { sql: [asc(posts.id)], rows: (a, b) => a.post.id - b.post.id },
};

/**
 * The ids a page of `shape` reads, with the placeholders `type`, `id` (the resource), `first` (a
 * topic's body post, 0 for none), `postId` (a conversation's post), `from` and `offset` (paging).
 */
function pageIds(ex: Executor, shape: PageShape): SQL {
  if (shape === 'conversation') {
    // the post's thread parent (threadParentOf), when the post is in this thread and not a topic's body
    const first = sql.placeholder('first');
    const parent = sql`select case when p.parent_id is not null and p.parent_id <> ${first} then p.parent_id else p.id end from ${posts} as p where p.id = ${sql.placeholder('postId')} and p.type = ${sql.placeholder('type')} and p.resource_id = ${sql.placeholder('id')} and p.id <> ${first}`;
    return sql`select (${parent}) union all (select id from ${posts} where parent_id = (${parent}) order by id limit ${THREAD_MAX_REPLIES})`;
  }
  const [kind, body, order] = shape.split(':') as ['newest' | 'sorted', 'body' | 'nobody', string];
  const parentsOfThread = parentCondition(body === 'body');
  if (kind === 'newest') {
    const perPage = COMMUNITY.parentsPerPage;
    // one parent past the page says whether there are more (its replies are not read)
    const parents = (n: number) =>
      ex
        .select({ id: posts.id })
        .from(posts)
        .where(and(parentsOfThread, order === 'before' ? lt(posts.id, sql.placeholder('from')) : undefined))
        .orderBy(desc(posts.id))
        .limit(n);
    return sql`(${parents(perPage + 1)}) union all (${firstReplies(sql`${parents(perPage)}`)})`;
  }
  const parents = ex
    .select({ id: posts.id })
    .from(posts)
    .where(parentsOfThread)
    .orderBy(...SORTED_BY[order as DiscussionSort].sql)
    .limit(COMMUNITY.inlinePostsPerPage)
    .offset(sql.placeholder('offset'));
  return sql`(${parents}) union all (${firstReplies(sql`${parents}`)})`;
}

/**
 * One page of a thread in one statement: the rows of the page's shape (parents, then the replies
 * shown under them) with their authors, the replied-to author, whether the viewer (`viewer`, 0 for
 * none) liked each, and each parent's number of replies (a conversation shows every reply: no count).
 */
const threadPageRows = preparedQuery('thread_page', (ex, shape: PageShape) =>
  selectRows(ex, {
    liked: sql<boolean>`exists (select 1 from ${postLikes} where ${postLikes.postId} = ${posts.id} and ${postLikes.userId} = ${sql.placeholder('viewer')})`,
    replies:
      shape === 'conversation'
        ? sql<number>`0`
        : sql<number>`(select count(*)::int from ${posts} as c where c.parent_id = ${posts.id})`,
  })
    .where(sql`${posts.id} in (${pageIds(ex, shape)})`)
    .orderBy(asc(posts.id)),
);

/**
 * A page of a thread: any row whose parent is among the rows is a reply; the others are parents,
 * answered in `order`.
 */
async function threadPage(
  ctx: CommunityDeps,
  viewer: AuthUser | null,
  res: Resource,
  page: { shape: PageShape; postId?: number; from?: number; offset?: number },
  order: (a: Row, b: Row) => number,
): Promise<PostDto[]> {
  const { shape, ...paging } = page;
  const rows = await threadPageRows(
    ctx.db,
    { viewer: viewer?.id ?? 0, type: res.type, id: res.id, first: res.firstPostId ?? 0, ...paging },
    shape,
  );
  const allReplies = shape === 'conversation';
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
    list.push(toDto(ctx, r, viewer, liked, res));
    byParent.set(parentId, list);
  }
  return parents.sort(order).map((r) => {
    const dto = toDto(ctx, r, viewer, liked, res);
    dto.children = byParent.get(r.post.id) ?? [];
    dto.moreChildren = allReplies ? 0 : Math.max(0, Number(r.replies) - dto.children.length);
    return dto;
  });
}

/** one post as the thread shows it (without its replies) */
export async function onePost(ctx: CommunityDeps, viewer: AuthUser | null, id: number, res: Resource) {
  const [row] = await selectRows(ctx.db).where(eq(posts.id, id)).limit(1);
  if (!row) throw notFound();
  return toDto(ctx, row, viewer, await likedBy(ctx, viewer, [id]), res);
}

/** The conversation a post belongs to: its parent (or itself) with every reply, in one statement. */
async function conversation(ctx: CommunityDeps, viewer: AuthUser | null, res: Resource, postId: number) {
  const data = await threadPage(ctx, viewer, res, { shape: 'conversation', postId }, newestFirst);
  // a reply whose parent is gone answers as the original did: not found
  if (data.length !== 1 || data[0]!.parentId !== null) throw notFound();
  return data;
}

// ---- the reading calls ----

/** GET /posts: parents newest first (keyset on id), each with its first replies. */
export async function thread(
  ctx: CommunityDeps,
  viewer: AuthUser | null,
  type: PostType,
  id: number,
  from: number | null,
) {
  const res = await readable(ctx, viewer, type, id);
  const perPage = COMMUNITY.parentsPerPage;
  const body = res.firstPostId ? 'body' : 'nobody';
  const all = await threadPage(
    ctx,
    viewer,
    res,
    from ? { shape: `newest:${body}:before`, from } : { shape: `newest:${body}:first` },
    newestFirst,
  );
  const more = all.length > perPage;
  const page = all.slice(0, perPage);
  return { posts: page, more, from: more ? page[page.length - 1]!.id : null };
}

/** GET /posts/thread: one conversation (individual thread mode). */
export async function individualThread(
  ctx: CommunityDeps,
  viewer: AuthUser | null,
  type: PostType,
  id: number,
  postId: number,
) {
  const res = await readable(ctx, viewer, type, id);
  return { posts: await conversation(ctx, viewer, res, postId) };
}

/** GET /inline-posts: a lesson's discussion, sorted and paged; `to` answers one conversation. */
export async function inline(
  ctx: CommunityDeps,
  viewer: AuthUser | null,
  type: PostType,
  id: number,
  sort: DiscussionSort,
  page: number,
  to: number | null,
) {
  const res = await readable(ctx, viewer, type, id, !to);
  const perPage = COMMUNITY.inlinePostsPerPage;
  if (to) {
    const data = await conversation(ctx, viewer, res, to);
    return {
      posts: { data, current_page: 1, last_page: 1, per_page: perPage, total: data.length },
      page: 1,
      pages: 1,
    };
  }
  const n = res.parents;
  const pages = Math.max(1, Math.ceil(n / perPage));
  const shape = `sorted:${res.firstPostId ? 'body' : 'nobody'}:${sort}` as const;
  const data = await threadPage(ctx, viewer, res, { shape, offset: (page - 1) * perPage }, SORTED_BY[sort].rows);
  return { posts: { data, current_page: page, last_page: pages, per_page: perPage, total: n }, page, pages };
}

/** GET /api/posts/{id}: one post and where it lives (the /posts/{id} page and the posts modal). */
export async function show(ctx: CommunityDeps, viewer: AuthUser | null, id: number) {
  const row = await postOr404(ctx.db, id);
  const res = await readable(ctx, viewer, row.type as PostType, row.resourceId);
  return {
    post: await onePost(ctx, viewer, id, res),
    type: res.type,
    resource_id: res.id,
    title: res.title,
    is_topic_body: row.id === res.firstPostId,
    thread_parent_id: threadParentOf(row, res) ?? row.id,
  };
}

/** GET /api/posts/{id}/revisions: earlier versions, newest first, for anyone who can read the post. */
export async function revisions(ctx: CommunityDeps, viewer: AuthUser | null, id: number) {
  const row = await postOr404(ctx.db, id);
  if (row.trashedAt) throw notFound();
  await readable(ctx, viewer, row.type as PostType, row.resourceId);
  const editor = alias(users, 'editor');
  const rows = await ctx.db
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
}

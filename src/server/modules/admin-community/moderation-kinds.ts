import { and, desc, eq, ilike, isNotNull, isNull, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ModerationItem, ModerationKind, ModerationState } from '#shared/admin-community';
import { topicUrl } from '#shared/forums';
import {
  chatMessages,
  forumCategories,
  forumTopics,
  liveShows,
  posts,
  users,
  wallComments,
} from '#server/db/schema/index';
import { countAll, containing } from '#server/modules/admin/index';
import { postLink } from '#server/modules/reports/index';
import type { AdminCommunityContext } from './context.ts';

const EXCERPT = 280;
const excerpt = (s: string) => (s.length > EXCERPT ? `${s.slice(0, EXCERPT - 1)}…` : s);
const author = (id: number | null, name: string | null) => (id && name ? { id, name } : null);
export const stateOf = (hidden: Date | null): ModerationState => (hidden ? 'hidden' : 'visible');

export interface ListFilter {
  state?: ModerationState | '' | undefined;
  q?: string | undefined;
  userId?: number | undefined;
}

// one list builder per kind: a fixed number of queries whatever the page

/** a kind's filter: hidden or visible, by one author, the search in the given columns (after `first`, if any) */
function moderationWhere(
  f: ListFilter,
  hiddenAt: AnyColumn,
  userId: AnyColumn,
  searched: AnyColumn[],
  first?: SQL,
): SQL | undefined {
  const like = f.q ? containing(f.q) : null;
  return and(
    first,
    f.state === 'hidden' ? isNotNull(hiddenAt) : f.state === 'visible' ? isNull(hiddenAt) : undefined,
    f.userId ? eq(userId, f.userId) : undefined,
    like ? or(...searched.map((column) => ilike(column, like))) : undefined,
  );
}

/** the posts of the list: replies and lesson comments, not a topic's first post (that is the topic) */
const notFirstPost = sql`not exists (select 1 from "forum_topics" ft where ft."first_post_id" = "posts"."id")`;

const postWhere = (f: ListFilter) =>
  moderationWhere(f, posts.trashedAt, posts.userId, [posts.body, users.name], notFirstPost);
const postTopic = alias(forumTopics, 'post_topic');
async function postRows(
  { db }: AdminCommunityContext,
  where: SQL | undefined,
  order: SQL[],
  limit: number,
  offset: number,
): Promise<ModerationItem[]> {
  const rows = await db
    .select({
      p: {
        id: posts.id,
        type: posts.type,
        resourceId: posts.resourceId,
        body: posts.body,
        trashedAt: posts.trashedAt,
        createdAt: posts.createdAt,
      },
      uid: users.id,
      uname: users.name,
      topic: postTopic.title,
    })
    .from(posts)
    .leftJoin(users, eq(users.id, posts.userId))
    .leftJoin(postTopic, and(eq(posts.type, 'forumtopic'), eq(postTopic.id, posts.resourceId)))
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return rows.map(({ p, uid, uname, topic }) => ({
    kind: 'post',
    id: p.id,
    title: null,
    excerpt: excerpt(p.body),
    author: author(uid, uname),
    where: {
      label:
        p.type === 'forumtopic'
          ? `Topic: ${topic ?? 'deleted topic'}`
          : p.type === 'lesson'
            ? 'Lesson discussion'
            : 'Post',
      url: postLink(p),
    },
    state: stateOf(p.trashedAt),
    created_at: p.createdAt.toISOString(),
  }));
}
const postCount = async ({ db }: AdminCommunityContext, where: SQL | undefined) =>
  (await db.select({ n: countAll }).from(posts).leftJoin(users, eq(users.id, posts.userId)).where(where))[0]?.n ?? 0;

const firstPost = alias(posts, 'first_post');
const topicWhere = (f: ListFilter) =>
  moderationWhere(f, forumTopics.hiddenAt, forumTopics.userId, [forumTopics.title, firstPost.body, users.name]);
async function topicRows(
  { db }: AdminCommunityContext,
  where: SQL | undefined,
  order: SQL[],
  limit: number,
  offset: number,
): Promise<ModerationItem[]> {
  const rows = await db
    .select({ t: forumTopics, body: firstPost.body, uid: users.id, uname: users.name, cat: forumCategories.title })
    .from(forumTopics)
    .leftJoin(firstPost, eq(firstPost.id, forumTopics.firstPostId))
    .leftJoin(users, eq(users.id, forumTopics.userId))
    .innerJoin(forumCategories, eq(forumCategories.id, forumTopics.categoryId))
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return rows.map(({ t, body, uid, uname, cat }) => ({
    kind: 'topic',
    id: t.id,
    title: t.title,
    excerpt: excerpt(body ?? ''),
    author: author(uid, uname),
    where: { label: `Category: ${cat}`, url: topicUrl(t.id) },
    state: stateOf(t.hiddenAt),
    created_at: t.createdAt.toISOString(),
  }));
}
const topicCount = async ({ db }: AdminCommunityContext, where: SQL | undefined) =>
  (
    await db
      .select({ n: countAll })
      .from(forumTopics)
      .leftJoin(firstPost, eq(firstPost.id, forumTopics.firstPostId))
      .leftJoin(users, eq(users.id, forumTopics.userId))
      .where(where)
  )[0]?.n ?? 0;

const chatWhere = (f: ListFilter) =>
  moderationWhere(f, chatMessages.hiddenAt, chatMessages.userId, [chatMessages.body, users.name]);
async function chatRows(
  { db }: AdminCommunityContext,
  where: SQL | undefined,
  order: SQL[],
  limit: number,
  offset: number,
): Promise<ModerationItem[]> {
  const rows = await db
    .select({ m: chatMessages, uid: users.id, uname: users.name, show: liveShows.title })
    .from(chatMessages)
    .leftJoin(users, eq(users.id, chatMessages.userId))
    .innerJoin(liveShows, eq(liveShows.id, chatMessages.showId))
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return rows.map(({ m, uid, uname, show }) => ({
    kind: 'chat',
    id: m.id,
    title: null,
    excerpt: excerpt(m.body),
    author: author(uid, uname),
    where: { label: `Live show: ${show}`, url: `/live/${m.showId}` },
    state: stateOf(m.hiddenAt),
    created_at: m.createdAt.toISOString(),
  }));
}
const chatCount = async ({ db }: AdminCommunityContext, where: SQL | undefined) =>
  (
    await db.select({ n: countAll }).from(chatMessages).leftJoin(users, eq(users.id, chatMessages.userId)).where(where)
  )[0]?.n ?? 0;

const wallOwner = alias(users, 'wall_owner');
const wallWhere = (f: ListFilter) =>
  moderationWhere(f, wallComments.hiddenAt, wallComments.userId, [wallComments.body, users.name]);
async function wallRows(
  ctx: AdminCommunityContext,
  where: SQL | undefined,
  order: SQL[],
  limit: number,
  offset: number,
): Promise<ModerationItem[]> {
  const rows = await ctx.db
    .select({
      w: wallComments,
      uid: users.id,
      uname: users.name,
      owner: { name: wallOwner.name, slug: wallOwner.slug },
    })
    .from(wallComments)
    .leftJoin(users, eq(users.id, wallComments.userId))
    .innerJoin(wallOwner, eq(wallOwner.id, wallComments.toId))
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return rows.map(({ w, uid, uname, owner }) => ({
    kind: 'wall',
    id: w.id,
    title: null,
    excerpt: excerpt(w.body),
    author: author(uid, uname),
    where: { label: `${owner.name}'s wall`, url: ctx.users.profileUrl(owner) },
    state: stateOf(w.hiddenAt),
    created_at: w.createdAt.toISOString(),
  }));
}
const wallCount = async ({ db }: AdminCommunityContext, where: SQL | undefined) =>
  (
    await db.select({ n: countAll }).from(wallComments).leftJoin(users, eq(users.id, wallComments.userId)).where(where)
  )[0]?.n ?? 0;

/** Each kind's filter, page of items, count and the columns its order is built from. */
export const kinds = {
  post: { where: postWhere, rows: postRows, count: postCount, created: posts.createdAt, id: posts.id },
  topic: {
    where: topicWhere,
    rows: topicRows,
    count: topicCount,
    created: forumTopics.createdAt,
    id: forumTopics.id,
  },
  chat: { where: chatWhere, rows: chatRows, count: chatCount, created: chatMessages.createdAt, id: chatMessages.id },
  wall: { where: wallWhere, rows: wallRows, count: wallCount, created: wallComments.createdAt, id: wallComments.id },
} as const;

/** one item as the list shows it (after an action) */
export async function moderationItem(
  ctx: AdminCommunityContext,
  kind: ModerationKind,
  id: number,
): Promise<ModerationItem | null> {
  const k = kinds[kind];
  const [row] = await k.rows(ctx, and(eq(k.id, id)), [desc(k.id)], 1, 0);
  return row ?? null;
}

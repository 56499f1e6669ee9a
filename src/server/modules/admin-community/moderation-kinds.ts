import { and, desc, eq, ilike, isNotNull, isNull, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ModerationItem, ModerationKind, ModerationState } from '#shared/admin-community';
import { topicUrl } from '#shared/forums';
import type { Database } from '#server/db/client';
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

/** A select with its FROM and joins, still to be filtered. */
interface Filterable<T> {
  where(where: SQL | undefined): T;
}
interface Pageable<TRow> {
  orderBy(...order: SQL[]): { limit(n: number): { offset(n: number): PromiseLike<TRow[]> } };
}

/** What a kind's row says of the thing, before it is cut to an item of the list. */
interface Shown {
  id: number;
  title: string | null;
  body: string;
  uid: number | null;
  uname: string | null;
  hiddenAt: Date | null;
  createdAt: Date;
  where: ModerationItem['where'];
}

/**
 * One kind of the moderation list: the columns its filter and order use, its select (and the count
 * over the joins its filter needs), and what a row shows. A fixed number of queries whatever the page.
 */
function moderationKind<TRow>(
  kind: ModerationKind,
  spec: {
    hiddenAt: AnyColumn;
    userId: AnyColumn;
    searched: AnyColumn[];
    first?: SQL;
    created: AnyColumn;
    id: AnyColumn;
    count: (db: Database) => Filterable<PromiseLike<{ n: number }[]>>;
    select: (db: Database) => Filterable<Pageable<TRow>>;
    shown: (row: TRow, ctx: AdminCommunityContext) => Shown;
  },
) {
  return {
    created: spec.created,
    id: spec.id,
    where: (f: ListFilter) => moderationWhere(f, spec.hiddenAt, spec.userId, spec.searched, spec.first),
    count: async ({ db }: AdminCommunityContext, where: SQL | undefined) =>
      (await spec.count(db).where(where))[0]?.n ?? 0,
    async rows(
      ctx: AdminCommunityContext,
      where: SQL | undefined,
      order: SQL[],
      limit: number,
      offset: number,
    ): Promise<ModerationItem[]> {
      const rows = await spec
        .select(ctx.db)
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset);
      return rows.map((row) => {
        const s = spec.shown(row, ctx);
        return {
          kind,
          id: s.id,
          title: s.title,
          excerpt: excerpt(s.body),
          author: author(s.uid, s.uname),
          where: s.where,
          state: stateOf(s.hiddenAt),
          created_at: s.createdAt.toISOString(),
        };
      });
    },
  };
}

/** the posts of the list: replies and lesson comments, not a topic's first post (that is the topic) */
const notFirstPost = sql`not exists (select 1 from "forum_topics" ft where ft."first_post_id" = "posts"."id")`;
const postTopic = alias(forumTopics, 'post_topic');
const firstPost = alias(posts, 'first_post');
const wallOwner = alias(users, 'wall_owner');

/** Each kind's filter, page of items, count and the columns its order is built from. */
export const kinds = {
  post: moderationKind('post', {
    hiddenAt: posts.trashedAt,
    userId: posts.userId,
    searched: [posts.body, users.name],
    first: notFirstPost,
    created: posts.createdAt,
    id: posts.id,
    count: (db) => db.select({ n: countAll }).from(posts).leftJoin(users, eq(users.id, posts.userId)),
    select: (db) =>
      db
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
        .leftJoin(postTopic, and(eq(posts.type, 'forumtopic'), eq(postTopic.id, posts.resourceId))),
    shown: ({ p, uid, uname, topic }) => ({
      id: p.id,
      title: null,
      body: p.body,
      uid,
      uname,
      hiddenAt: p.trashedAt,
      createdAt: p.createdAt,
      where: {
        label:
          p.type === 'forumtopic'
            ? `Topic: ${topic ?? 'deleted topic'}`
            : p.type === 'lesson'
              ? 'Lesson discussion'
              : 'Post',
        url: postLink(p),
      },
    }),
  }),
  topic: moderationKind('topic', {
    hiddenAt: forumTopics.hiddenAt,
    userId: forumTopics.userId,
    searched: [forumTopics.title, firstPost.body, users.name],
    created: forumTopics.createdAt,
    id: forumTopics.id,
    count: (db) =>
      db
        .select({ n: countAll })
        .from(forumTopics)
        .leftJoin(firstPost, eq(firstPost.id, forumTopics.firstPostId))
        .leftJoin(users, eq(users.id, forumTopics.userId)),
    select: (db) =>
      db
        .select({ t: forumTopics, body: firstPost.body, uid: users.id, uname: users.name, cat: forumCategories.title })
        .from(forumTopics)
        .leftJoin(firstPost, eq(firstPost.id, forumTopics.firstPostId))
        .leftJoin(users, eq(users.id, forumTopics.userId))
        .innerJoin(forumCategories, eq(forumCategories.id, forumTopics.categoryId)),
    shown: ({ t, body, uid, uname, cat }) => ({
      id: t.id,
      title: t.title,
      body: body ?? '',
      uid,
      uname,
      hiddenAt: t.hiddenAt,
      createdAt: t.createdAt,
      where: { label: `Category: ${cat}`, url: topicUrl(t.id) },
    }),
  }),
  chat: moderationKind('chat', {
    hiddenAt: chatMessages.hiddenAt,
    userId: chatMessages.userId,
    searched: [chatMessages.body, users.name],
    created: chatMessages.createdAt,
    id: chatMessages.id,
    count: (db) => db.select({ n: countAll }).from(chatMessages).leftJoin(users, eq(users.id, chatMessages.userId)),
    select: (db) =>
      db
        .select({ m: chatMessages, uid: users.id, uname: users.name, show: liveShows.title })
        .from(chatMessages)
        .leftJoin(users, eq(users.id, chatMessages.userId))
        .innerJoin(liveShows, eq(liveShows.id, chatMessages.showId)),
    shown: ({ m, uid, uname, show }) => ({
      id: m.id,
      title: null,
      body: m.body,
      uid,
      uname,
      hiddenAt: m.hiddenAt,
      createdAt: m.createdAt,
      where: { label: `Live show: ${show}`, url: `/live/${m.showId}` },
    }),
  }),
  wall: moderationKind('wall', {
    hiddenAt: wallComments.hiddenAt,
    userId: wallComments.userId,
    searched: [wallComments.body, users.name],
    created: wallComments.createdAt,
    id: wallComments.id,
    count: (db) => db.select({ n: countAll }).from(wallComments).leftJoin(users, eq(users.id, wallComments.userId)),
    select: (db) =>
      db
        .select({
          w: wallComments,
          uid: users.id,
          uname: users.name,
          owner: { name: wallOwner.name, slug: wallOwner.slug },
        })
        .from(wallComments)
        .leftJoin(users, eq(users.id, wallComments.userId))
        .innerJoin(wallOwner, eq(wallOwner.id, wallComments.toId)),
    shown: ({ w, uid, uname, owner }, ctx) => ({
      id: w.id,
      title: null,
      body: w.body,
      uid,
      uname,
      hiddenAt: w.hiddenAt,
      createdAt: w.createdAt,
      where: { label: `${owner.name}'s wall`, url: ctx.users.profileUrl(owner) },
    }),
  }),
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

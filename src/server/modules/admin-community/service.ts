import { and, asc, desc, eq, ilike, isNotNull, isNull, ne, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AdminListQuery, AdminPage } from '#shared/admin';
import {
  CATEGORY_MESSAGES,
  MODERATION_MESSAGES,
  type AdminCategory,
  type AdminLiveShow,
  type MemberCommunity,
  type ModerationAction,
  type ModerationItem,
  type ModerationKind,
  type ModerationQuery,
  type ModerationState,
} from '#shared/admin-community';
import { categoryUrl, topicUrl } from '#shared/forums';
import { LIVE_MESSAGES, type LiveStatus } from '#shared/live';
import type { Database, Executor } from '#server/db/client';
import {
  chatMessages,
  forumCategories,
  forumTopics,
  liveShows,
  posts,
  reports,
  users,
  wallComments,
} from '#server/db/schema/index';
import { notFound, ValidationError } from '#server/lib/errors';
import { recordAudit, type Actor } from '#server/modules/admin/index';
import { countAll, escapeLike, pageEnvelope, pageOfSelect, sortOf } from '#server/modules/admin/index';
import { guardSlug } from '#server/modules/admin/index';
import { videoEmbed, type LiveService } from '#server/modules/live/index';
import { postLink } from '#server/modules/reports/index';
import type { UserService } from '#server/modules/users/index';

const EXCERPT = 280;
const excerpt = (s: string) => (s.length > EXCERPT ? `${s.slice(0, EXCERPT - 1)}…` : s);
const author = (id: number | null, name: string | null) => (id && name ? { id, name } : null);
const stateOf = (hidden: Date | null): ModerationState => (hidden ? 'hidden' : 'visible');

interface ListFilter {
  state?: ModerationState | '' | undefined;
  q?: string | undefined;
  userId?: number | undefined;
}

/**
 * The console's community pages: moderation of posts, topics, chat messages and wall
 * comments; forum categories; live shows. Every change is written with its audit entry in one
 * transaction; live viewers hear about it through the live service's channel events.
 */
export function createAdminCommunityService(deps: { db: Database; users: UserService; live: LiveService }) {
  const { db, live } = deps;

  // ---- moderation: one list builder per kind (a fixed number of queries whatever the page) ----

  /** a kind's filter: hidden or visible, by one author, the search in the given columns (after `first`, if any) */
  function moderationWhere(
    f: ListFilter,
    hiddenAt: AnyColumn,
    userId: AnyColumn,
    searched: AnyColumn[],
    first?: SQL,
  ): SQL | undefined {
    const like = f.q ? `%${escapeLike(f.q)}%` : null;
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
  const postCount = async (where: SQL | undefined) =>
    (await db.select({ n: countAll }).from(posts).leftJoin(users, eq(users.id, posts.userId)).where(where))[0]?.n ?? 0;

  const firstPost = alias(posts, 'first_post');
  const topicWhere = (f: ListFilter) =>
    moderationWhere(f, forumTopics.hiddenAt, forumTopics.userId, [forumTopics.title, firstPost.body, users.name]);
  async function topicRows(
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
  const topicCount = async (where: SQL | undefined) =>
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
  const chatCount = async (where: SQL | undefined) =>
    (
      await db
        .select({ n: countAll })
        .from(chatMessages)
        .leftJoin(users, eq(users.id, chatMessages.userId))
        .where(where)
    )[0]?.n ?? 0;

  const wallOwner = alias(users, 'wall_owner');
  const wallWhere = (f: ListFilter) =>
    moderationWhere(f, wallComments.hiddenAt, wallComments.userId, [wallComments.body, users.name]);
  async function wallRows(
    where: SQL | undefined,
    order: SQL[],
    limit: number,
    offset: number,
  ): Promise<ModerationItem[]> {
    const rows = await db
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
      where: { label: `${owner.name}'s wall`, url: deps.users.profileUrl(owner) },
      state: stateOf(w.hiddenAt),
      created_at: w.createdAt.toISOString(),
    }));
  }
  const wallCount = async (where: SQL | undefined) =>
    (
      await db
        .select({ n: countAll })
        .from(wallComments)
        .leftJoin(users, eq(users.id, wallComments.userId))
        .where(where)
    )[0]?.n ?? 0;

  const kinds = {
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
  async function item(kind: ModerationKind, id: number): Promise<ModerationItem | null> {
    const k = kinds[kind];
    const [row] = await k.rows(and(eq(k.id, id)), [desc(k.id)], 1, 0);
    return row ?? null;
  }

  // ---- moderation actions ----

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

  async function act(actor: Actor, kind: ModerationKind, id: number, action: ModerationAction) {
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
        action === 'delete'
          ? null
          : { ...before, state: action === 'hide' ? ('hidden' as const) : ('visible' as const) };
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

  // ---- forum categories ----

  // qualified by hand: drizzle leaves a single-table select's columns unqualified, and inside the
  // subquery an unqualified "id" would be the subquery's own row
  const topicsIn = sql<number>`(select count(*)::int from "forum_topics" t where t."category_id" = "forum_categories"."id")`;
  const toCategory = (c: typeof forumCategories.$inferSelect, topics: number): AdminCategory => ({
    ...c,
    topics,
    url: categoryUrl(c.slug),
  });

  async function slugFree(tx: Executor, slug: string, exceptId?: number) {
    const [row] = await tx
      .select({ id: forumCategories.id })
      .from(forumCategories)
      .where(and(eq(forumCategories.slug, slug), exceptId ? ne(forumCategories.id, exceptId) : undefined))
      .limit(1);
    if (row) throw new ValidationError({ slug: [CATEGORY_MESSAGES.slugTaken] });
  }

  async function category(id: number, tx: Executor = db) {
    const [row] = await tx
      .select({ c: forumCategories, topics: topicsIn })
      .from(forumCategories)
      .where(eq(forumCategories.id, id))
      .limit(1);
    if (!row) throw notFound();
    return toCategory(row.c, row.topics);
  }

  // ---- live shows ----

  const messagesIn = sql<number>`(select count(*)::int from "chat_messages" m where m."show_id" = "live_shows"."id")`;
  const toLive = (s: typeof liveShows.$inferSelect, messages: number): AdminLiveShow => ({
    id: s.id,
    title: s.title,
    description: s.description,
    starts_at: s.startsAt.toISOString(),
    status: s.status,
    video_url: s.videoUrl,
    chat_open: s.chatOpen,
    topic: s.topic,
    messages,
    url: `/live/${s.id}`,
  });
  async function show(id: number, tx: Executor = db, lock = false) {
    const q = tx.select({ s: liveShows, messages: messagesIn }).from(liveShows).where(eq(liveShows.id, id)).limit(1);
    const [row] = lock ? await q.for('update', { of: liveShows }) : await q;
    if (!row) throw notFound();
    return toLive(row.s, row.messages);
  }
  function embed(url: string) {
    if (!url) return null;
    const v = videoEmbed(url);
    if (!v) throw new ValidationError({ video_url: [LIVE_MESSAGES.videoUrlInvalid] });
    return v;
  }
  /** one change to a show, with its audit entry; its viewers hear of it after the commit */
  async function changeShow(actor: Actor, id: number, action: string, set: Partial<typeof liveShows.$inferInsert>) {
    const after = await db.transaction(async (tx) => {
      const before = await show(id, tx, true);
      await tx.update(liveShows).set(set).where(eq(liveShows.id, id));
      const next = await show(id, tx);
      await recordAudit(tx, actor, {
        action,
        targetType: 'live_show',
        targetId: id,
        summary: next.title,
        before,
        after: next,
      });
      return next;
    });
    const [row] = await db.select().from(liveShows).where(eq(liveShows.id, id)).limit(1);
    if (row) live.announceShow(row);
    return after;
  }

  return {
    /** GET /api/admin/moderation: newest first, filtered by kind, state, text and author name. */
    async moderation(query: ModerationQuery): Promise<AdminPage<ModerationItem>> {
      const k = kinds[query.kind];
      const sort = sortOf(query, { created_at: k.created }, 'created_at', 'desc');
      const where = k.where({ state: query.state, q: query.q });
      const [total, rows] = await Promise.all([
        k.count(where),
        k.rows(
          where,
          [sort.order, sort.dir === 'asc' ? asc(k.id) : desc(k.id)],
          query.per_page,
          (query.page - 1) * query.per_page,
        ),
      ]);
      return pageEnvelope(rows, total, query, sort);
    },
    act,
    item,

    /** GET /api/admin/members/:id/community: the member's latest of each kind and the reports against them. */
    async memberCommunity(userId: number): Promise<MemberCommunity> {
      const [u] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
      if (!u) throw notFound();
      const latest = async (kind: ModerationKind) => {
        const k = kinds[kind];
        const where = k.where({ userId });
        const [n, rows] = await Promise.all([k.count(where), k.rows(where, [desc(k.created), desc(k.id)], 10, 0)]);
        return { n, rows };
      };
      const against = or(
        and(
          eq(reports.kind, 'post'),
          sql`${reports.targetId} in (select ${posts.id} from ${posts} where ${posts.userId} = ${userId})`,
        ),
        and(
          eq(reports.kind, 'chat'),
          sql`${reports.targetId} in (select ${chatMessages.id} from ${chatMessages} where ${chatMessages.userId} = ${userId})`,
        ),
        and(
          eq(reports.kind, 'wall'),
          sql`${reports.targetId} in (select ${wallComments.id} from ${wallComments} where ${wallComments.userId} = ${userId})`,
        ),
      );
      const [p, t, c, w, rn, rs] = await Promise.all([
        latest('post'),
        latest('topic'),
        latest('chat'),
        latest('wall'),
        db.select({ n: countAll }).from(reports).where(against),
        db.select().from(reports).where(against).orderBy(desc(reports.id)).limit(10),
      ]);
      return {
        counts: { posts: p.n, topics: t.n, chat: c.n, wall: w.n, reports_against: rn[0]?.n ?? 0 },
        posts: p.rows,
        topics: t.rows,
        chat: c.rows,
        wall: w.rows,
        reports_against: rs.map((r) => ({
          id: r.id,
          kind: r.kind,
          target_id: r.targetId,
          reason: r.reason,
          status: r.status,
          created_at: r.createdAt.toISOString(),
        })),
      };
    },

    // ---- categories ----

    /** GET /api/admin/categories: in the forums' order (position), searchable by title and slug. */
    async categories(query: AdminListQuery): Promise<AdminPage<AdminCategory>> {
      const sort = sortOf(
        query,
        { position: forumCategories.position, title: forumCategories.title },
        'position',
        'asc',
      );
      const where = query.q
        ? or(
            ilike(forumCategories.title, `%${escapeLike(query.q)}%`),
            ilike(forumCategories.slug, `%${escapeLike(query.q)}%`),
          )
        : undefined;
      return pageOfSelect({
        query,
        sort,
        count: db.select({ n: countAll }).from(forumCategories).where(where),
        rows: db
          .select({ c: forumCategories, topics: topicsIn })
          .from(forumCategories)
          .where(where)
          .orderBy(sort.order, asc(forumCategories.id)),
        map: (r) => toCategory(r.c, r.topics),
      });
    },
    category,

    async createCategory(
      actor: Actor,
      input: { title: string; slug: string; description: string; position?: number | undefined },
    ) {
      // a unique-slug race lost to another admin answers the same field message
      return guardSlug(CATEGORY_MESSAGES.slugTaken, () =>
        db.transaction(async (tx) => {
          await slugFree(tx, input.slug);
          const position =
            input.position ??
            ((
              await tx
                .select({ n: sql<number>`coalesce(max(${forumCategories.position}), 0)::int` })
                .from(forumCategories)
            )[0]?.n ?? 0) + 1;
          const [row] = await tx
            .insert(forumCategories)
            .values({ ...input, position })
            .returning();
          const after = toCategory(row!, 0);
          await recordAudit(tx, actor, {
            action: 'category.create',
            targetType: 'forum_category',
            targetId: row!.id,
            summary: row!.title,
            before: null,
            after,
          });
          return after;
        }),
      );
    },

    async updateCategory(
      actor: Actor,
      id: number,
      input: { title: string; slug: string; description: string; position?: number | undefined },
    ) {
      return guardSlug(CATEGORY_MESSAGES.slugTaken, () =>
        db.transaction(async (tx) => {
          const before = await category(id, tx);
          await slugFree(tx, input.slug, id);
          await tx
            .update(forumCategories)
            .set({ ...input, position: input.position ?? before.position })
            .where(eq(forumCategories.id, id));
          const after = await category(id, tx);
          await recordAudit(tx, actor, {
            action: 'category.update',
            targetType: 'forum_category',
            targetId: id,
            summary: after.title,
            before,
            after,
          });
          return after;
        }),
      );
    },

    /** Up or down one place: the categories are numbered 1..n in their order, then the two swap. */
    async moveCategory(actor: Actor, id: number, direction: 'up' | 'down') {
      return db.transaction(async (tx) => {
        const all = await tx
          .select({ id: forumCategories.id, position: forumCategories.position, title: forumCategories.title })
          .from(forumCategories)
          .orderBy(asc(forumCategories.position), asc(forumCategories.id))
          .for('update');
        const i = all.findIndex((c) => c.id === id);
        if (i < 0) throw notFound();
        const j = direction === 'up' ? i - 1 : i + 1;
        const order = all.map((c) => c.id);
        if (j >= 0 && j < all.length) [order[i], order[j]] = [order[j]!, order[i]!];
        for (const [n, cid] of order.entries()) {
          const was = all.find((c) => c.id === cid)!;
          if (was.position !== n + 1)
            await tx
              .update(forumCategories)
              .set({ position: n + 1 })
              .where(eq(forumCategories.id, cid));
        }
        const after = await category(id, tx);
        await recordAudit(tx, actor, {
          action: 'category.move',
          targetType: 'forum_category',
          targetId: id,
          summary: `${all[i]!.title} ${direction}`,
          before: all.map((c) => ({ id: c.id, position: c.position })),
          after: order.map((cid, n) => ({ id: cid, position: n + 1 })),
        });
        return after;
      });
    },

    /** Only an empty category (422 with how many topics it still holds). */
    async deleteCategory(actor: Actor, id: number) {
      return db.transaction(async (tx) => {
        const before = await category(id, tx);
        if (before.topics > 0) throw new ValidationError({ category: [CATEGORY_MESSAGES.notEmpty(before.topics)] });
        await tx.delete(forumCategories).where(eq(forumCategories.id, id));
        await recordAudit(tx, actor, {
          action: 'category.delete',
          targetType: 'forum_category',
          targetId: id,
          summary: before.title,
          before,
          after: null,
        });
        return { ok: true };
      });
    },

    // ---- live shows ----

    /** GET /api/admin/live-shows: live and upcoming first (soonest first), then ended (newest first). */
    async liveShows(
      query: AdminListQuery & { status?: LiveStatus | '' | undefined },
    ): Promise<AdminPage<AdminLiveShow>> {
      const sorts = { starts_at: liveShows.startsAt, title: liveShows.title };
      const custom = query.sort && Object.hasOwn(sorts, query.sort);
      const sort = sortOf(query, sorts, 'starts_at', 'asc');
      const order = custom
        ? [sort.order, asc(liveShows.id)]
        : [
            sql`case ${liveShows.status} when 'live' then 0 when 'scheduled' then 1 else 2 end`,
            sql`case when ${liveShows.status} <> 'ended' then ${liveShows.startsAt} end asc`,
            desc(liveShows.startsAt),
            desc(liveShows.id),
          ];
      const where = and(
        query.status ? eq(liveShows.status, query.status) : undefined,
        query.q ? ilike(liveShows.title, `%${escapeLike(query.q)}%`) : undefined,
      );
      return pageOfSelect({
        query,
        sort: custom ? sort : { key: 'upcoming', dir: 'asc' },
        count: db.select({ n: countAll }).from(liveShows).where(where),
        rows: db
          .select({ s: liveShows, messages: messagesIn })
          .from(liveShows)
          .where(where)
          .orderBy(...order),
        map: (r) => toLive(r.s, r.messages),
      });
    },
    show,

    async createShow(
      actor: Actor,
      input: { title: string; description: string; starts_at: string; video_url: string },
    ) {
      const videoUrl = embed(input.video_url);
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(liveShows)
          .values({ title: input.title, description: input.description, startsAt: new Date(input.starts_at), videoUrl })
          .returning();
        const after = toLive(row!, 0);
        await recordAudit(tx, actor, {
          action: 'live_show.create',
          targetType: 'live_show',
          targetId: row!.id,
          summary: row!.title,
          before: null,
          after,
        });
        return after;
      });
    },

    updateShow: (
      actor: Actor,
      id: number,
      input: { title: string; description: string; starts_at: string; video_url: string },
    ) =>
      changeShow(actor, id, 'live_show.update', {
        title: input.title,
        description: input.description,
        startsAt: new Date(input.starts_at),
        videoUrl: embed(input.video_url),
      }),

    /** the live module's rule: going live opens the chat, ending the show closes it */
    setShowStatus: (actor: Actor, id: number, status: LiveStatus) =>
      changeShow(actor, id, 'live_show.status', {
        status,
        ...(status === 'live' ? { chatOpen: true } : status === 'ended' ? { chatOpen: false } : {}),
      }),

    setShowChat: (actor: Actor, id: number, open: boolean) =>
      changeShow(actor, id, open ? 'live_show.chat_open' : 'live_show.chat_close', { chatOpen: open }),

    async setShowTopic(actor: Actor, id: number, text: string) {
      const topic = text.trim() || null;
      const after = await changeShow(actor, id, topic ? 'live_show.topic' : 'live_show.topic_clear', { topic });
      live.announceTopic(id, topic);
      return after;
    },

    async deleteShow(actor: Actor, id: number) {
      return db.transaction(async (tx) => {
        const before = await show(id, tx, true);
        await tx.delete(liveShows).where(eq(liveShows.id, id));
        await recordAudit(tx, actor, {
          action: 'live_show.delete',
          targetType: 'live_show',
          targetId: id,
          summary: before.title,
          before,
          after: null,
        });
        return { ok: true };
      });
    },
  };
}
export type AdminCommunityService = ReturnType<typeof createAdminCommunityService>;

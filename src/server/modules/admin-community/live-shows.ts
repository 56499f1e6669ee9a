import { and, asc, desc, eq, ilike, sql } from 'drizzle-orm';
import type { AdminListQuery, AdminPage } from '#shared/admin';
import type { AdminLiveShow } from '#shared/admin-community';
import { LIVE_MESSAGES, type LiveStatus } from '#shared/live';
import type { Executor } from '#server/db/client';
import { liveShows } from '#server/db/schema/index';
import { notFound, ValidationError } from '#server/lib/errors';
import { countAll, containing, pageOfSelect, recordAudit, sortOf, type Actor } from '#server/modules/admin/index';
import { videoEmbed } from '#server/modules/live/index';
import type { AdminCommunityContext } from './context.ts';

type ShowInput = { title: string; description: string; starts_at: string; video_url: string };

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

export async function show(ctx: AdminCommunityContext, id: number, tx: Executor = ctx.db, lock = false) {
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
async function changeShow(
  ctx: AdminCommunityContext,
  actor: Actor,
  id: number,
  action: string,
  set: Partial<typeof liveShows.$inferInsert>,
) {
  const { db, live } = ctx;
  const after = await db.transaction(async (tx) => {
    const before = await show(ctx, id, tx, true);
    await tx.update(liveShows).set(set).where(eq(liveShows.id, id));
    const next = await show(ctx, id, tx);
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

/** GET /api/admin/live-shows: live and upcoming first (soonest first), then ended (newest first). */
export async function showPage(
  { db }: AdminCommunityContext,
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
    query.q ? ilike(liveShows.title, containing(query.q)) : undefined,
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
}

export async function createShow({ db }: AdminCommunityContext, actor: Actor, input: ShowInput) {
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
}

export const updateShow = (ctx: AdminCommunityContext, actor: Actor, id: number, input: ShowInput) =>
  changeShow(ctx, actor, id, 'live_show.update', {
    title: input.title,
    description: input.description,
    startsAt: new Date(input.starts_at),
    videoUrl: embed(input.video_url),
  });

/** the live module's rule: going live opens the chat, ending the show closes it */
export const setShowStatus = (ctx: AdminCommunityContext, actor: Actor, id: number, status: LiveStatus) =>
  changeShow(ctx, actor, id, 'live_show.status', {
    status,
    ...(status === 'live' ? { chatOpen: true } : status === 'ended' ? { chatOpen: false } : {}),
  });

export const setShowChat = (ctx: AdminCommunityContext, actor: Actor, id: number, open: boolean) =>
  changeShow(ctx, actor, id, open ? 'live_show.chat_open' : 'live_show.chat_close', { chatOpen: open });

export async function setShowTopic(ctx: AdminCommunityContext, actor: Actor, id: number, text: string) {
  const topic = text.trim() || null;
  const after = await changeShow(ctx, actor, id, topic ? 'live_show.topic' : 'live_show.topic_clear', { topic });
  ctx.live.announceTopic(id, topic);
  return after;
}

export async function deleteShow(ctx: AdminCommunityContext, actor: Actor, id: number) {
  return ctx.db.transaction(async (tx) => {
    const before = await show(ctx, id, tx, true);
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
}

import { and, asc, desc, eq, gt, isNull, lt, lte, sql } from 'drizzle-orm';
import { COMMUNITY, COMMUNITY_MESSAGES } from '#shared/community';
import { DEFAULT_AVATAR_URL } from '#shared/constants';
import {
  LIVE,
  LIVE_MESSAGES,
  toEmbedUrl,
  type ChatMessageDto,
  type ChatPageDto,
  type LiveShowDto,
  type LiveStatus,
} from '#shared/live';
import { showChannel } from '#shared/realtime';
import { preparedQuery } from '#server/db/client';
import { chatHearts, chatMessages, liveShowFollows, liveShows, users } from '#server/db/schema/index';
import { AppError, notFound, ValidationError } from '#server/lib/errors';
import type { RateLimitName } from '#server/lib/rate-limits';
import { FRAME_SOURCES } from '#server/plugins/security';
import type { CommunityDeps } from '#server/modules/community-deps';
import type { AuthUser } from '#server/types';
import { escapeHtml } from '#server/lib/html';

type ShowRow = typeof liveShows.$inferSelect;

export const toShow = (row: ShowRow): LiveShowDto => ({
  id: row.id,
  title: row.title,
  description: row.description,
  startsAt: row.startsAt.toISOString(),
  status: row.status,
  videoUrl: row.videoUrl,
  chatOpen: row.chatOpen,
  topic: row.topic,
});

/** A video address we may frame: a YouTube or Vimeo player on one of the pages' frame sources. */
export function videoEmbed(input: string): string | null {
  const embed = toEmbedUrl(input);
  return embed && FRAME_SOURCES.includes(new URL(embed).origin) ? embed : null;
}

/** The chat body as the chat panel's form sends it: trimmed, required, bounded. */
function chatBody(raw: unknown): string {
  const body = typeof raw === 'string' ? raw.trim() : typeof raw === 'number' ? String(raw) : '';
  if (!body) throw new ValidationError({ body: [COMMUNITY_MESSAGES.bodyRequired] });
  if (body.length > COMMUNITY.chatBodyMax)
    throw new ValidationError({ body: [COMMUNITY_MESSAGES.bodyTooLong(COMMUNITY.chatBodyMax)] });
  return body;
}

/**
 * Live shows and their chat (docs/product/live.md; the calls are /live-chat/*). Reads are a fixed
 * number of queries per page; each message, heart and topic change is one broadcast on the show's
 * channel (`show.{id}`), leaving out the sender's own socket.
 */
/** how long before a show starts its followers are told */
export const LIVE_REMINDER_MINUTES = 30;
export const LIVE_FOLLOW_STARTED = 'This show has already started: there is nothing to remind you of.';

const showById = preparedQuery('chat_show', (db) =>
  db
    .select()
    .from(liveShows)
    .where(eq(liveShows.id, sql.placeholder('id')))
    .limit(1),
);

/**
 * A page of a show's chat (`showId`), newest first: the newest messages, or those before the message
 * `from`, with their authors and whether the `viewer` hearted each; one past the page says there are more.
 */
const chatRows = preparedQuery('chat_page', (db, page: 'newest' | 'before') =>
  db
    .select({
      id: chatMessages.id,
      body: chatMessages.body,
      hearts: chatMessages.heartsCount,
      createdAt: chatMessages.createdAt,
      userId: users.id,
      name: users.name,
      role: users.role,
      slug: users.slug,
      avatarPath: users.avatarPath,
      hearted: sql<boolean>`exists (select 1 from ${chatHearts} where ${chatHearts.messageId} = ${chatMessages.id} and ${chatHearts.userId} = ${sql.placeholder('viewer')})`,
    })
    .from(chatMessages)
    .leftJoin(users, eq(users.id, chatMessages.userId))
    .where(
      and(
        eq(chatMessages.showId, sql.placeholder('showId')),
        isNull(chatMessages.hiddenAt),
        page === 'before' ? lt(chatMessages.id, sql.placeholder('from')) : undefined,
      ),
    )
    .orderBy(desc(chatMessages.id))
    .limit(COMMUNITY.chatPageSize + 1),
);

export function createLiveService(deps: CommunityDeps) {
  const { db, realtime, limiters } = deps;

  async function findShow(id: number) {
    const [row] = await showById(db, { id });
    if (!row) throw notFound();
    return row;
  }

  /** a limit (per member, or per show) whose 429 names the body field, so the chat input shows it */
  async function limit(name: RateLimitName, key: number, message: string) {
    try {
      await limiters.consume(name, String(key));
    } catch (err) {
      if (err instanceof AppError && err.statusCode === 429)
        throw new AppError('rate-limited', message, { body: [message] }, err.headers);
      throw err;
    }
  }

  const publishShow = (show: ShowRow) => realtime.publish(showChannel(show.id), 'ShowUpdated', { show: toShow(show) });

  return {
    /** Tell a show's viewers what an admin changed elsewhere (the console). */
    announceShow: publishShow,
    announceTopic: (showId: number, topic: string | null) =>
      realtime.publish(showChannel(showId), 'NewTopic', { topic }),
    /** a message an admin hid or deleted: viewers take it out of the chat */
    announceHidden: (showId: number, messageId: number) =>
      realtime.publish(showChannel(showId), 'MessageHidden', { messageId }),

    /** GET /api/live/shows: live now, upcoming (soonest first), past (newest first, bounded). */
    async shows() {
      const [current, upcoming, past] = await Promise.all([
        db
          .select()
          .from(liveShows)
          .where(eq(liveShows.status, 'live'))
          .orderBy(asc(liveShows.startsAt), asc(liveShows.id)),
        db
          .select()
          .from(liveShows)
          .where(eq(liveShows.status, 'scheduled'))
          .orderBy(asc(liveShows.startsAt), asc(liveShows.id)),
        db
          .select()
          .from(liveShows)
          .where(eq(liveShows.status, 'ended'))
          .orderBy(desc(liveShows.startsAt), desc(liveShows.id))
          .limit(LIVE.pastShown),
      ]);
      return { live: current.map(toShow), upcoming: upcoming.map(toShow), past: past.map(toShow) };
    },

    async show(id: number) {
      return toShow(await findShow(id));
    },

    /** whether a show exists: its channel (`show.{id}`) may only be joined while it does */
    async showExists(id: number) {
      const [row] = await db.select({ id: liveShows.id }).from(liveShows).where(eq(liveShows.id, id)).limit(1);
      return !!row;
    },

    /** POST /api/live/shows (admins): the input is already checked by scheduleShowSchema. */
    async schedule(input: { title: string; description: string; starts_at: string; video_url: string }) {
      let videoUrl: string | null = null;
      if (input.video_url) {
        videoUrl = videoEmbed(input.video_url);
        if (!videoUrl) throw new ValidationError({ video_url: [LIVE_MESSAGES.videoUrlInvalid] });
      }
      const [row] = await db
        .insert(liveShows)
        .values({ title: input.title, description: input.description, startsAt: new Date(input.starts_at), videoUrl })
        .returning();
      return toShow(row!);
    },

    /** POST /api/live/shows/{id}/follow: a show that has not started can be followed; unfollowing always works */
    async follow(user: AuthUser, id: number, follow: boolean) {
      const show = await findShow(id);
      if (!follow) {
        await db
          .delete(liveShowFollows)
          .where(and(eq(liveShowFollows.showId, show.id), eq(liveShowFollows.userId, user.id)));
        return { following: false };
      }
      if (show.status !== 'scheduled') throw new ValidationError({ follow: [LIVE_FOLLOW_STARTED] });
      await db.insert(liveShowFollows).values({ showId: show.id, userId: user.id }).onConflictDoNothing();
      return { following: true };
    },

    async following(user: AuthUser, id: number) {
      const [row] = await db
        .select({ id: liveShowFollows.showId })
        .from(liveShowFollows)
        .where(and(eq(liveShowFollows.showId, id), eq(liveShowFollows.userId, user.id)))
        .limit(1);
      return { following: !!row };
    },

    /**
     * The followers of each scheduled show starting within LIVE_REMINDER_MINUTES of `now` hear of it
     * (bell and e-mail) once: the key names the show, its start time and the member, so a sweep that
     * runs again, or on another process, tells nobody twice; a show moved to a new time tells again.
     */
    async remindFollowers(now: Date = new Date()) {
      const soon = await db
        .select()
        .from(liveShows)
        .where(
          and(
            eq(liveShows.status, 'scheduled'),
            gt(liveShows.startsAt, now),
            lte(liveShows.startsAt, new Date(now.getTime() + LIVE_REMINDER_MINUTES * 60_000)),
          ),
        );
      let told = 0;
      for (const show of soon) {
        const followers = await db
          .select({ userId: liveShowFollows.userId })
          .from(liveShowFollows)
          .where(eq(liveShowFollows.showId, show.id));
        const url = `/live/${show.id}`;
        for (const f of followers) {
          const note = await deps.notifications.notify(f.userId, {
            body: `<strong>${escapeHtml(show.title)}</strong> starts soon.`,
            url,
            mail: {
              kind: 'community.live-show-soon',
              data: { title: show.title, startsAt: show.startsAt.toISOString(), url },
              key: `show-${show.id}-${show.startsAt.getTime()}-${f.userId}`,
            },
          });
          if (note) told++;
        }
      }
      return { told };
    },

    /** Go live opens the chat; ending the show closes it. */
    async setStatus(id: number, status: LiveStatus) {
      const chat = status === 'live' ? { chatOpen: true } : status === 'ended' ? { chatOpen: false } : {};
      const [row] = await db
        .update(liveShows)
        .set({ status, ...chat })
        .where(eq(liveShows.id, id))
        .returning();
      if (!row) throw notFound();
      publishShow(row);
      return toShow(row);
    },

    async setChatOpen(id: number, open: boolean) {
      const [row] = await db.update(liveShows).set({ chatOpen: open }).where(eq(liveShows.id, id)).returning();
      if (!row) throw notFound();
      publishShow(row);
      return toShow(row);
    },

    /**
     * GET /live-chat/get: the newest page (or the page before `from`) in chronological order.
     * Three queries whatever the page: the show, the messages with their authors, the viewer's hearts.
     */
    async chatPage(viewer: AuthUser, showId: number, from: number | undefined): Promise<ChatPageDto> {
      const show = await findShow(showId);
      // the page and the viewer's hearts in one statement
      const rows = await chatRows(db, { showId, viewer: viewer.id, from: from ?? 0 }, from ? 'before' : 'newest');
      const more = rows.length > COMMUNITY.chatPageSize;
      const page = rows.slice(0, COMMUNITY.chatPageSize).reverse();
      const hearted = new Set(page.filter((r) => r.hearted).map((r) => r.id));
      const messages: ChatMessageDto[] = page.map((r) => ({
        id: r.id,
        name: r.userId ? r.name! : COMMUNITY_MESSAGES.deleted,
        admin: r.role === 'admin',
        avatar_url: r.userId ? deps.users.avatarUrl({ avatarPath: r.avatarPath }) : DEFAULT_AVATAR_URL,
        profile_url: r.userId ? deps.users.profileUrl({ slug: r.slug! }) : null,
        body: r.body,
        hearts: Math.max(0, r.hearts),
        hearted: hearted.has(r.id),
        timestamp: Math.floor(r.createdAt.getTime() / 1000),
      }));
      return { messages, topic: show.topic, from: page[0]?.id ?? null, more };
    },

    /** POST /live-chat/messages */
    async post(viewer: AuthUser, showId: number, rawBody: unknown, socketId: string | undefined) {
      const body = chatBody(rawBody);
      await limit('chatPerUser', viewer.id, LIVE_MESSAGES.chatTooFast);
      const show = await findShow(showId);
      if (!show.chatOpen) throw new ValidationError({ body: [COMMUNITY_MESSAGES.chatClosed] });
      // the whole show's pace (docs/product/live.md): counted after the member's own limit, so one
      // member's flood is stopped by that limit and does not spend the crowd's share
      if (!viewer.isAdmin) await limit('chatPerShow', show.id, LIVE_MESSAGES.chatBusy);
      const [row] = await db
        .insert(chatMessages)
        .values({ showId, userId: viewer.id, body })
        .returning({ id: chatMessages.id, createdAt: chatMessages.createdAt });
      const message: ChatMessageDto = {
        id: row!.id,
        name: viewer.name,
        admin: viewer.isAdmin,
        avatar_url: viewer.avatarUrl,
        profile_url: viewer.profileUrl,
        body,
        hearts: 0,
        hearted: false,
        timestamp: Math.floor(row!.createdAt.getTime() / 1000),
      };
      realtime.publish(showChannel(showId), 'NewMessage', { message }, { exceptSocketId: socketId });
      return { id: message.id, message };
    },

    /** POST /live-chat/set-topic (admins): an empty body clears the topic. */
    async setTopic(showId: number, rawBody: unknown, socketId: string | undefined) {
      const text = typeof rawBody === 'string' ? rawBody.trim() : '';
      if (text.length > COMMUNITY.chatBodyMax)
        throw new ValidationError({ body: [COMMUNITY_MESSAGES.bodyTooLong(COMMUNITY.chatBodyMax)] });
      const topic = text || null;
      const [row] = await db
        .update(liveShows)
        .set({ topic })
        .where(eq(liveShows.id, showId))
        .returning({ id: liveShows.id });
      if (!row) throw notFound();
      realtime.publish(showChannel(showId), 'NewTopic', { topic }, { exceptSocketId: socketId });
      return { topic };
    },

    /**
     * POST /live-chat/toggle-heart: one heart per member per message (the chat_hearts key). The
     * count moves in the same transaction as the heart row and only when a row really changed, so
     * it stays exact under concurrent toggles and never goes below 0.
     */
    async toggleHeart(viewer: AuthUser, showId: number, messageId: number, socketId: string | undefined) {
      await limit('heartsPerUser', viewer.id, LIVE_MESSAGES.heartsTooFast);
      const [message] = await db
        .select({ id: chatMessages.id })
        .from(chatMessages)
        .where(and(eq(chatMessages.id, messageId), eq(chatMessages.showId, showId), isNull(chatMessages.hiddenAt)))
        .limit(1);
      if (!message) throw notFound();
      const result = await db.transaction(async (tx) => {
        // one member's racing clicks flip in turn (see posts' toggleLikeRow)
        await tx.select({ id: chatMessages.id }).from(chatMessages).where(eq(chatMessages.id, messageId)).for('update');
        const added = await tx
          .insert(chatHearts)
          .values({ messageId, userId: viewer.id })
          .onConflictDoNothing()
          .returning({ id: chatHearts.messageId });
        if (added.length) {
          const [m] = await tx
            .update(chatMessages)
            .set({ heartsCount: sql`${chatMessages.heartsCount} + 1` })
            .where(eq(chatMessages.id, messageId))
            .returning({ hearts: chatMessages.heartsCount });
          return { hearted: true, hearts: m!.hearts, changed: true };
        }
        const removed = await tx
          .delete(chatHearts)
          .where(and(eq(chatHearts.messageId, messageId), eq(chatHearts.userId, viewer.id)))
          .returning({ id: chatHearts.messageId });
        if (removed.length) {
          const [m] = await tx
            .update(chatMessages)
            .set({ heartsCount: sql`greatest(${chatMessages.heartsCount} - 1, 0)` })
            .where(eq(chatMessages.id, messageId))
            .returning({ hearts: chatMessages.heartsCount });
          return { hearted: false, hearts: m!.hearts, changed: true };
        }
        // a concurrent toggle of the same member removed it in between: nothing changed here
        const [m] = await tx
          .select({ hearts: chatMessages.heartsCount })
          .from(chatMessages)
          .where(eq(chatMessages.id, messageId));
        return { hearted: false, hearts: m!.hearts, changed: false };
      });
      if (result.changed) {
        realtime.publish(
          showChannel(showId),
          result.hearted ? 'HeartAdded' : 'HeartRemoved',
          { messageId, userId: viewer.id },
          { exceptSocketId: socketId },
        );
      }
      return { hearted: result.hearted, hearts: Math.max(0, result.hearts) };
    },
  };
}
export type LiveService = ReturnType<typeof createLiveService>;

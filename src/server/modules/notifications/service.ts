import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import sanitizeHtml from 'sanitize-html';
import { LIMITS } from '#shared/constants';
import { userChannel } from '#shared/realtime';
import type { Notification } from '#shared/notifications';
import { preparedQuery, type Database } from '#server/db/client';
import { notifications } from '#server/db/schema/index';
import { notFound } from '#server/lib/errors';
import type { Realtime } from '#server/modules/realtime/index';
import type { NotificationTopicId } from '#shared/mail';
import { createPreferences, MAIL_KINDS, type MailRequest, type MailService } from '#server/modules/mail/index';

export type NotificationArea = 'main' | 'mentorship';

/** Notification bodies are HTML from our own code, still passed through a strict allow-list. */
export function sanitizeNotificationBody(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ['a', 'b', 'strong', 'em', 'i', 'br', 'span'],
    allowedAttributes: { a: ['href'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
  }).slice(0, 2000);
}

type Row = typeof notifications.$inferSelect;
const toDto = (row: Row): Notification => ({
  id: row.id,
  body: row.body,
  created_at: row.createdAt.toISOString(),
  unread: row.readAt === null,
  url: row.url,
});

const ofMemberArea = () =>
  and(eq(notifications.userId, sql.placeholder('userId')), eq(notifications.area, sql.placeholder('area')));

/** how many of the member's (`userId`) notifications in an area are unread */
const unreadRows = preparedQuery('notifications_unread', (db) =>
  db
    .select({ n: count() })
    .from(notifications)
    .where(and(ofMemberArea(), isNull(notifications.readAt))),
);

/** the member's latest notifications in an area, for the bell */
const recentRows = preparedQuery('notifications_recent', (db) =>
  db
    .select()
    .from(notifications)
    .where(ofMemberArea())
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(LIMITS.recentNotifications),
);

/**
 * One notification service: features call `notify`; the header sees it at once over the user channel.
 * The same call may carry the event's e-mail (`mail`): the bell and the mail come from one event, each
 * through the member's choice for the topic (the mail's topic unless `topic` says otherwise).
 */
export function createNotificationService(deps: {
  db: Database;
  realtime: Realtime;
  mail?: Pick<MailService, 'send'>;
}) {
  const { db } = deps;
  const preferences = createPreferences(db);
  async function unreadCount(userId: number, area: NotificationArea) {
    const [row] = await unreadRows(db, { userId, area });
    return Number(row?.n ?? 0);
  }
  return {
    unreadCount,
    /**
     * Adds a notification to the member's bell. With `topic` (or `mail`, whose kind has a topic), only
     * when the member has not turned that topic's in-app notifications off (the notification settings
     * page); answers null then. `mail` queues the same event's e-mail, which its job sends only when
     * the member gets that topic by e-mail (docs/mail.md); a mail whose key was queued before means the
     * event was announced already, and the bell is left as it is (null).
     */
    async notify<T extends NotificationTopicId | undefined = undefined, M extends MailRequest | undefined = undefined>(
      userId: number,
      input: { body: string; url?: string | null; area?: NotificationArea; topic?: T; mail?: M },
    ): Promise<T extends undefined ? (M extends undefined ? Notification : Notification | null) : Notification | null> {
      type Answer = T extends undefined
        ? M extends undefined
          ? Notification
          : Notification | null
        : Notification | null;
      if (input.mail) {
        if (!deps.mail) throw new Error('This notification service was built without mail.');
        const { kind, data, ...options } = input.mail;
        const fresh = await deps.mail.send(kind, userId, data as never, options);
        // the key names the event: one already announced (a sweep that runs again) is not repeated in the bell
        if (!fresh && options.key) return null as Answer;
      }
      const topic = input.topic ?? (input.mail ? MAIL_KINDS[input.mail.kind].topic : undefined);
      if (topic && !(await preferences.allows(userId, topic, 'inApp'))) return null as Answer;
      const area = input.area ?? 'main';
      const [row] = await db
        .insert(notifications)
        .values({ userId, area, body: sanitizeNotificationBody(input.body), url: input.url ?? null })
        .returning();
      const notification = toDto(row!);
      deps.realtime.publish(userChannel(userId), 'NotificationCreated', {
        notification,
        area,
        unread_count: await unreadCount(userId, area),
      });
      return notification as Answer;
    },
    async recent(userId: number, area: NotificationArea) {
      const rows = await recentRows(db, { userId, area });
      return { data: rows.map(toDto), unread_count: await unreadCount(userId, area) };
    },
    async page(userId: number, area: NotificationArea, page: number) {
      const per = LIMITS.notificationsPerPage;
      const where = and(eq(notifications.userId, userId), eq(notifications.area, area));
      const [total] = await db.select({ n: count() }).from(notifications).where(where);
      const rows = await db
        .select()
        .from(notifications)
        .where(where)
        .orderBy(desc(notifications.createdAt), desc(notifications.id))
        .limit(per)
        .offset((page - 1) * per);
      const pages = Math.max(1, Math.ceil(Number(total?.n ?? 0) / per));
      return { data: rows.map(toDto), page, pages, unread_count: await unreadCount(userId, area) };
    },
    /** One of the user's own notifications, marked read. Another user's is "not found". */
    async open(userId: number, id: number) {
      const [row] = await db
        .update(notifications)
        .set({ readAt: sql`coalesce(${notifications.readAt}, now())` })
        .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
        .returning();
      if (!row) throw notFound();
      return toDto(row);
    },
    async readAll(userId: number, area: NotificationArea) {
      await db
        .update(notifications)
        .set({ readAt: new Date() })
        .where(and(eq(notifications.userId, userId), eq(notifications.area, area), isNull(notifications.readAt)));
      return { unread_count: 0 };
    },
  };
}
export type NotificationService = ReturnType<typeof createNotificationService>;

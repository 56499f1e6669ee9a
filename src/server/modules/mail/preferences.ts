import { and, eq, sql } from 'drizzle-orm';
import {
  NOTIFICATION_TOPICS,
  notificationTopic,
  type NotificationSetting,
  type NotificationSettingsResponse,
  type NotificationTopic,
  type NotificationTopicId,
} from '#shared/mail';
import type { Database } from '#server/db/client';
import { notificationPreferences } from '#server/db/schema/index';
import { ValidationError } from '#server/lib/errors';

/**
 * A member's choice per notification topic (docs/mail.md): a topic without a row follows its
 * default; essential topics (account, billing) are always on and cannot be stored otherwise.
 */
export function createPreferences(db: Database) {
  const choice = (topic: NotificationTopic, row: { inApp: boolean; email: boolean } | undefined) =>
    topic.essential
      ? { inApp: topic.inApp, email: true }
      : {
          inApp: topic.inApp && (row?.inApp ?? topic.defaults.inApp),
          email: row?.email ?? topic.defaults.email,
        };

  const service = {
    async list(userId: number): Promise<NotificationSettingsResponse> {
      const rows = await db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId));
      const byTopic = new Map(rows.map((r) => [r.topic, r]));
      return {
        settings: (NOTIFICATION_TOPICS as readonly NotificationTopic[]).map((t) => {
          const c = choice(t, byTopic.get(t.id));
          return {
            topic: t.id as NotificationTopicId,
            label: t.label,
            description: t.description,
            essential: t.essential,
            has_in_app: t.inApp,
            in_app: c.inApp,
            email: c.email,
          };
        }),
      };
    },

    /** whether the member gets this topic on this channel */
    async allows(userId: number, topicId: NotificationTopicId, channel: 'email' | 'inApp'): Promise<boolean> {
      const topic = notificationTopic(topicId);
      if (!topic) return false;
      if (topic.essential) return channel === 'email' || topic.inApp;
      const [row] = await db
        .select()
        .from(notificationPreferences)
        .where(and(eq(notificationPreferences.userId, userId), eq(notificationPreferences.topic, topicId)))
        .limit(1);
      return choice(topic, row)[channel];
    },

    /** saves the member's choices; an essential topic turned off is refused and nothing is saved */
    async update(userId: number, settings: NotificationSetting[]): Promise<void> {
      const refused = settings.filter((s) => {
        const t = notificationTopic(s.topic)!;
        return t.essential && (!s.email || (t.inApp && !s.in_app));
      });
      if (refused.length > 0)
        throw new ValidationError({
          settings: [`${notificationTopic(refused[0]!.topic)!.label} e-mails cannot be turned off.`],
        });
      const rows = settings
        .filter((s) => !notificationTopic(s.topic)!.essential)
        .map((s) => ({
          userId,
          topic: s.topic,
          inApp: notificationTopic(s.topic)!.inApp && s.in_app,
          email: s.email,
        }));
      if (rows.length === 0) return;
      await db
        .insert(notificationPreferences)
        .values(rows)
        .onConflictDoUpdate({
          target: [notificationPreferences.userId, notificationPreferences.topic],
          set: { inApp: sql`excluded.in_app`, email: sql`excluded.email`, updatedAt: sql`now()` },
        });
    },

    /** the one-click unsubscribe: e-mail off for the topic, in-app left as it was */
    async stopEmail(userId: number, topicId: NotificationTopicId): Promise<void> {
      const topic = notificationTopic(topicId)!;
      const current = await service.allows(userId, topicId, 'inApp');
      await db
        .insert(notificationPreferences)
        .values({ userId, topic: topicId, inApp: topic.inApp && current, email: false })
        .onConflictDoUpdate({
          target: [notificationPreferences.userId, notificationPreferences.topic],
          set: { email: false, updatedAt: sql`now()` },
        });
    },
  };
  return service;
}
export type Preferences = ReturnType<typeof createPreferences>;

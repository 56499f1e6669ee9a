import { createHmac } from 'node:crypto';
import { notificationTopic, type NotificationTopicId } from '#shared/mail';
import { safeEqual } from '#server/lib/crypto';

/**
 * Unsubscribe links work without signing in: the token names the member and the topic, signed with
 * HMAC-SHA256 (config.mail.unsubscribeSecret). It does not expire, as a mail read months later must
 * still turn its topic off; it can only turn that one topic off.
 */
export function unsubscribeTokens(secret: string) {
  const sign = (payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');
  return {
    create(userId: number, topic: NotificationTopicId): string {
      const payload = `${userId}.${topic}`;
      return `${Buffer.from(payload).toString('base64url')}.${sign(payload)}`;
    },
    /** the member and topic a token names, or null for anything not signed by us */
    read(token: string): { userId: number; topic: NotificationTopicId } | null {
      const [encoded, signature, ...rest] = token.split('.');
      if (!encoded || !signature || rest.length > 0) return null;
      const payload = Buffer.from(encoded, 'base64url').toString('utf8');
      if (!safeEqual(signature, sign(payload))) return null;
      const match = /^(\d{1,12})\.([a-z-]{1,40})$/.exec(payload);
      if (!match) return null;
      const topic = notificationTopic(match[2]!);
      if (!topic || topic.essential) return null;
      return { userId: Number(match[1]), topic: topic.id as NotificationTopicId };
    },
  };
}
export type UnsubscribeTokens = ReturnType<typeof unsubscribeTokens>;

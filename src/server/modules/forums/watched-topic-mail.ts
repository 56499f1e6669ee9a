import { and, asc, eq, gte, inArray, isNull, lt } from 'drizzle-orm';
import { permalinkFor } from '#shared/discussion';
import type { Database } from '#server/db/client';
import { forumTopics, posts, topicWatches, users } from '#server/db/schema/index';
import { mayUseCommunity } from '#server/lib/guards';
import type { MailService } from '#server/modules/mail/index';
import { mailExcerpt } from '#server/modules/mail/index';
import type { UserService } from '#server/modules/users/index';

/** the background job that mails watchers the posts of the hour that just ended */
export const WATCHED_TOPICS_JOB = 'mail.watched-topics';
/** a few minutes past each hour: the hour before is over, posts written in its last second are in */
export const WATCHED_TOPICS_CRON = '3 * * * *';
const HOUR = 60 * 60 * 1000;
/** the posts a mail quotes; the rest are counted */
const QUOTED = 5;

/**
 * Watched forum topics by e-mail (docs/mail.md): for the hour ending at the last full hour before
 * `now`, each watcher of a topic that got posts from others in that hour gets one mail with them. The
 * mail's key is member + topic + hour, so a job run twice (two processes, a retry) sends it once, and
 * a member never gets more than one mail per topic an hour. The bell had each post at once.
 */
export async function mailWatchedTopics(
  deps: { db: Database; users: UserService; mail: MailService },
  now: Date = new Date(),
): Promise<{ queued: number }> {
  const { db } = deps;
  const end = new Date(Math.floor(now.getTime() / HOUR) * HOUR);
  const start = new Date(end.getTime() - HOUR);
  // topics touched since the hour began (an index), then their posts of that hour
  const topics = await db
    .select({ id: forumTopics.id, title: forumTopics.title, firstPostId: forumTopics.firstPostId })
    .from(forumTopics)
    .where(and(gte(forumTopics.lastActivityAt, start), isNull(forumTopics.hiddenAt)));
  if (topics.length === 0) return { queued: 0 };
  const rows = await db
    .select({ id: posts.id, topicId: posts.resourceId, userId: posts.userId, body: posts.body, name: users.name })
    .from(posts)
    .leftJoin(users, eq(users.id, posts.userId))
    .where(
      and(
        eq(posts.type, 'forumtopic'),
        inArray(
          posts.resourceId,
          topics.map((t) => t.id),
        ),
        gte(posts.createdAt, start),
        lt(posts.createdAt, end),
        isNull(posts.trashedAt),
      ),
    )
    .orderBy(asc(posts.createdAt), asc(posts.id));
  if (rows.length === 0) return { queued: 0 };
  const byTopic = new Map<number, typeof rows>();
  const bodies = new Set(topics.map((t) => t.firstPostId));
  // a topic's first post is the topic itself, not news for those who watch it
  for (const r of rows) if (!bodies.has(r.id)) byTopic.set(r.topicId, [...(byTopic.get(r.topicId) ?? []), r]);
  const watches = await db
    .select({ topicId: topicWatches.topicId, userId: topicWatches.userId })
    .from(topicWatches)
    .where(inArray(topicWatches.topicId, [...byTopic.keys()]));

  const mayRead = new Map<number, boolean>();
  const readerOk = async (userId: number) => {
    if (!mayRead.has(userId)) {
      const row = await deps.users.findById(userId);
      const ok =
        !!row &&
        !row.suspendedAt &&
        mayUseCommunity(await deps.users.toAuthUser(row)) &&
        (await deps.mail.preferences.allows(userId, 'watched-topics', 'email'));
      mayRead.set(userId, ok);
    }
    return mayRead.get(userId)!;
  };

  let queued = 0;
  const hour = start.toISOString().slice(0, 13);
  for (const w of watches) {
    const topic = topics.find((t) => t.id === w.topicId)!;
    const fromOthers = (byTopic.get(w.topicId) ?? []).filter((p) => p.userId !== w.userId);
    if (fromOthers.length === 0 || !(await readerOk(w.userId))) continue;
    const url = permalinkFor('forumtopic', topic.id);
    const sent = await deps.mail.send(
      'community.watched-topic',
      w.userId,
      {
        topic: topic.title,
        url,
        count: fromOthers.length,
        posts: fromOthers.slice(0, QUOTED).map((p) => ({
          from: p.name ?? 'Deleted',
          excerpt: mailExcerpt(p.body, 200),
          url: `${url}#${p.id}`,
        })),
      },
      { key: `${w.userId}-topic-${topic.id}-${hour}` },
    );
    if (sent) queued++;
  }
  return { queued };
}

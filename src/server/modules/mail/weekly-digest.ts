import { and, count, desc, eq, gte, inArray, isNull, lt } from 'drizzle-orm';
import { permalinkFor } from '#shared/discussion';
import { addDays, weekStart } from '#shared/practice';
import type { Database } from '#server/db/client';
import { forumTopics, notificationPreferences, posts, users } from '#server/db/schema/index';
import { mayUseCommunity } from '#server/lib/guards';
import type { JournalService } from '#server/modules/journal/index';
import type { UserService } from '#server/modules/users/index';
import type { MailSender } from './types.ts';

/** the recurring job that queues one weekly digest per member who turned it on */
export const WEEKLY_DIGEST_JOB = 'mail.weekly-digest';
/** Monday 08:00 UTC: the week before (Monday to Sunday) is over everywhere but the far west */
export const WEEKLY_DIGEST_CRON = '0 8 * * 1';
const ACTIVE_TOPICS = 5;

/**
 * The weekly digest (docs/mail.md): for the Monday-to-Sunday week before `now`'s week (UTC days),
 * each member whose digest e-mail is on gets their practice week (minutes, days, streak, the tempos
 * they logged) and, when they may use the community, the forum topics with the most posts that week.
 * The key is member + week: a job run twice queues each digest once.
 */
export async function queueWeeklyDigests(
  deps: { db: Database; users: UserService; journal: JournalService; mail: MailSender },
  now: Date = new Date(),
): Promise<{ queued: number }> {
  const { db } = deps;
  const from = addDays(weekStart(now.toISOString().slice(0, 10)), -7);
  const to = addDays(from, 6);
  const start = new Date(`${from}T00:00:00Z`);
  const end = new Date(`${addDays(to, 1)}T00:00:00Z`);

  // the digest is off unless the member turned it on: only stored choices can be "on"
  const subscribers = await db
    .select({ userId: notificationPreferences.userId })
    .from(notificationPreferences)
    .where(and(eq(notificationPreferences.topic, 'digest'), eq(notificationPreferences.email, true)));
  if (subscribers.length === 0) return { queued: 0 };

  const busiest = await db
    .select({ id: forumTopics.id, title: forumTopics.title, posts: count(posts.id) })
    .from(posts)
    .innerJoin(forumTopics, eq(forumTopics.id, posts.resourceId))
    .where(
      and(
        eq(posts.type, 'forumtopic'),
        gte(posts.createdAt, start),
        lt(posts.createdAt, end),
        isNull(posts.trashedAt),
        isNull(forumTopics.hiddenAt),
      ),
    )
    .groupBy(forumTopics.id, forumTopics.title)
    .orderBy(desc(count(posts.id)), desc(forumTopics.id))
    .limit(ACTIVE_TOPICS);
  const topics = busiest.map((t) => ({
    title: t.title,
    url: permalinkFor('forumtopic', t.id),
    posts: Number(t.posts),
  }));

  let queued = 0;
  const members = await db
    .select()
    .from(users)
    .where(
      inArray(
        users.id,
        subscribers.map((s) => s.userId),
      ),
    );
  for (const member of members) {
    if (member.suspendedAt) continue;
    const stats = await deps.journal.stats(member.id);
    const week = stats.days.filter((d) => d.day >= from && d.day <= to);
    const tempos = stats.tempos
      .map((t) => {
        const inWeek = t.points.filter((p) => p.day >= from && p.day <= to);
        const before = t.points.filter((p) => p.day < from);
        const last = inWeek.at(-1);
        if (!last) return null;
        const base = before.at(-1) ?? inWeek[0]!;
        return { exercise: t.exercise, bpm: last.tempo, change: last.tempo - base.tempo };
      })
      .filter((t) => t !== null);
    const community = mayUseCommunity(await deps.users.toAuthUser(member));
    const sent = await deps.mail.send(
      'digest.weekly',
      member.id,
      {
        from,
        to,
        minutes: week.reduce((n, d) => n + d.minutes, 0),
        daysPracticed: week.filter((d) => d.minutes > 0).length,
        streak: stats.streak.current,
        longestStreak: stats.streak.longest,
        tempos,
        topics: community ? topics : [],
      },
      { key: `${member.id}-week-${from}` },
    );
    if (sent) queued++;
  }
  return { queued };
}

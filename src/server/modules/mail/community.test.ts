import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  forumCategories,
  forumTopics,
  journalEntries,
  mailMessages,
  notifications,
  posts,
  practiceSessions,
  topicWatches,
  videoSubmissions,
} from '#server/db/schema/index';
import { WATCHED_TOPICS_JOB } from '#server/modules/forums/watched-topic-mail';
import { LIVE_REMINDERS_JOB } from '#server/modules/live/routes';
import { LIVE_FOLLOW_STARTED } from '#server/modules/live/service';
import type { TestApp, TestClient } from '#test/api-harness';
import type { TestSmtpServer } from '#test/smtp';
import { startMailApp } from '#test/mail-app';
import { practicePlan } from '#test/fixtures';
import { WEEKLY_DIGEST_JOB } from './weekly-digest.ts';

/**
 * The community, mentorship and digest mails, each from what a member does (or the job that collects
 * it), read back from a real SMTP server (tests/support/smtp.ts): the bell and the mail come from the
 * same event, each through the member's choice for its topic.
 */
let t: TestApp;
let smtp: TestSmtpServer;

let mailApp: Awaited<ReturnType<typeof startMailApp>>;
beforeAll(async () => {
  mailApp = await startMailApp();
  ({ t, smtp } = mailApp);
  await t.app.deps.db.insert(forumCategories).values({ slug: 'general', title: 'General' });
}, 60_000);

afterAll(async () => mailApp?.close());

const member = async (name: string) => {
  const m = await t.signedIn({ name, entitlements: ['membership'] });
  return { ...m, slug: (await t.app.deps.services.users.findById(m.user.id))!.slug };
};

/** every mail row of a member once its job has finished with it */
async function settledMails(userId: number) {
  for (let i = 0; i < 300; i++) {
    const rows = await t.app.deps.db.select().from(mailMessages).where(eq(mailMessages.userId, userId));
    if (rows.every((r) => r.status !== 'queued')) return rows;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`The mails of member ${userId} were never settled.`);
}

/** queues a run of a background job and waits until it has finished */
async function runJob(name: string, data: object) {
  const done = async () => (await t.app.deps.jobs.overview()).queues.find((q) => q.name === name)?.completed ?? 0;
  const before = await done();
  await t.app.deps.jobs.send(name, data);
  for (let i = 0; i < 300 && (await done()) <= before; i++) await new Promise((r) => setTimeout(r, 100));
  expect(await done()).toBeGreaterThan(before);
}

const bell = (userId: number) => t.app.deps.db.select().from(notifications).where(eq(notifications.userId, userId));

async function newTopic(authorId: number, title: string) {
  const db = t.app.deps.db;
  const [cat] = await db.select().from(forumCategories).limit(1);
  const [topic] = await db.insert(forumTopics).values({ categoryId: cat!.id, userId: authorId, title }).returning();
  const [first] = await db
    .insert(posts)
    .values({ type: 'forumtopic', resourceId: topic!.id, userId: authorId, body: 'What do you practise first?' })
    .returning();
  await db.update(forumTopics).set({ firstPostId: first!.id }).where(eq(forumTopics.id, topic!.id));
  return topic!.id;
}

const write = async (c: TestClient, topicId: number, body: string, parentId: number | null = null) => {
  const res = await c.post('/posts', { type: 'forumtopic', resource_id: topicId, parent_id: parentId, body });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { post: { id: number } }).post.id;
};

describe('community mail', () => {
  it('a reply mails the author replied to, with the reply quoted and a link to it', async () => {
    const author = await member('Ada Author');
    const replier = await member('Remy Replier');
    const topicId = await newTopic(author.user.id, 'Moeller technique for fast singles');
    const postId = await write(author.client, topicId, 'My wrists hurt after ten minutes.');
    const replyId = await write(replier.client, topicId, 'Loosen your grip <b>and</b> let the stick bounce.', postId);
    const mail = await smtp.waitFor(author.user.email);
    expect(mail.subject).toBe('Remy Replier replied to you in Moeller technique for fast singles');
    expect(mail.text).toContain('Loosen your grip <b>and</b> let the stick bounce.');
    // the member's words are text, never markup
    expect(mail.html).toContain('Loosen your grip &lt;b&gt;and&lt;/b&gt;');
    expect(mail.text).toContain(`${t.config.appUrl}/forums/topic/${topicId}`);
    expect(mail.html).toContain(`#${replyId}`);
    expect(mail.header('list-unsubscribe-post')).toMatch(/One-Click/);
    expect((await bell(author.user.id)).some((n) => n.body.includes('replied to your post'))).toBe(true);
  });

  it('an @mention mails the member named, once, and not a member who turned mentions off by e-mail', async () => {
    const writer = await member('Mona Mentioner');
    const named = await member('Nia Named');
    const quiet = await member('Quinn Quiet');
    await t.app.deps.mail.preferences.update(quiet.user.id, [{ topic: 'mentions', in_app: true, email: false }]);
    const topicId = await newTopic(writer.user.id, 'Who plays along to records?');
    await write(
      writer.client,
      topicId,
      `@${named.slug} and @${quiet.slug}, you both play along to records, right? @${named.slug}?`,
    );
    const mail = await smtp.waitFor(named.user.email);
    expect(mail.subject).toBe('Mona Mentioner mentioned you in Who plays along to records?');
    expect(mail.text).toContain('you both play along to records');
    const rows = await settledMails(quiet.user.id);
    expect(rows.map((r) => [r.kind, r.status])).toEqual([['community.mention', 'skipped']]);
    // turned off by e-mail only: the bell still has it
    expect((await bell(quiet.user.id)).some((n) => n.body.includes('mentioned you'))).toBe(true);
    expect(smtp.to(named.user.email)).toHaveLength(1);
    expect(smtp.to(quiet.user.email)).toHaveLength(0);
  });

  it('watched topics: the hour job sends one mail per topic with the hour’s posts; run again, nothing more', async () => {
    const watcher = await member('Wanda Watcher');
    const a = await member('Poster One');
    const b = await member('Poster Two');
    const topicId = await newTopic(a.user.id, 'Best practice pad for apartments');
    await t.app.deps.db.insert(topicWatches).values({ topicId, userId: watcher.user.id });
    await write(a.client, topicId, 'The RealFeel is quiet enough for night practice.');
    await write(b.client, topicId, 'I like a mesh pad: closer to a real drum.');
    await write(watcher.client, topicId, 'Thanks, both!');
    // the bell had each post at once, under the watched-topics topic
    expect((await bell(watcher.user.id)).filter((n) => n.body.includes('posted in'))).toHaveLength(2);

    const now = new Date(Date.now() + 60 * 60 * 1000).toISOString();
    await runJob(WATCHED_TOPICS_JOB, { now });
    const mail = await smtp.waitFor(watcher.user.email);
    expect(mail.subject).toBe('2 new posts in Best practice pad for apartments');
    expect(mail.text).toContain('The RealFeel is quiet enough for night practice.');
    expect(mail.text).toContain('I like a mesh pad: closer to a real drum.');
    expect(mail.text).not.toContain('Thanks, both!');
    // a second run for the same hour (another process, a retry) queues nothing
    await runJob(WATCHED_TOPICS_JOB, { now });
    const rows = await settledMails(watcher.user.id);
    expect(rows.filter((r) => r.kind === 'community.watched-topic')).toHaveLength(1);
    expect(smtp.to(watcher.user.email)).toHaveLength(1);
  });

  it('a comment on my wall, and a reply to my comment on another wall, each mail once', async () => {
    const owner = await member('Wally Owner');
    const guest = await member('Gus Guest');
    const third = await member('Tess Third');
    const first = await guest.client.post('/profile-comments', { body: 'Great groove video!', to_id: owner.user.id });
    expect(first.statusCode, first.body).toBe(201);
    const mail = await smtp.waitFor(owner.user.email);
    expect(mail.subject).toBe('Gus Guest wrote on your wall');
    expect(mail.text).toContain('Great groove video!');
    expect(mail.text).toContain(`${t.config.appUrl}/profile/${owner.slug}`);
    const parentId = (first.json() as Array<{ id: number }>)[0]!.id;
    const res = await third.client.post('/profile-comments', {
      body: 'Agreed, that fill!',
      to_id: owner.user.id,
      parent_id: parentId,
    });
    expect(res.statusCode, res.body).toBe(201);
    const toGuest = await smtp.waitFor(guest.user.email);
    expect(toGuest.subject).toBe("Tess Third replied to your comment on Wally Owner's wall");
    await smtp.waitFor((m) => m.to.includes(owner.user.email) && m.subject === 'Tess Third replied on your wall');
  });

  it('a followed live show: one reminder (bell and mail) before it starts, however often the sweep runs', async () => {
    const fan = await member('Fiona Follower');
    const admin = await t.signedIn({ role: 'admin' });
    const startsAt = new Date(Date.now() + 20 * 60 * 1000);
    const created = await admin.client.post('/api/live/shows', {
      title: 'Linear fills with Q&A',
      description: 'Bring your questions.',
      starts_at: startsAt.toISOString(),
      video_url: '',
    });
    expect(created.statusCode, created.body).toBe(201);
    const showId = (created.json() as { data: { id: number } }).data.id;
    const later = await admin.client.post('/api/live/shows', {
      title: 'Next month',
      description: '',
      starts_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      video_url: '',
    });
    const laterId = (later.json() as { data: { id: number } }).data.id;
    for (const id of [showId, laterId]) {
      const res = await fan.client.post(`/api/live/shows/${id}/follow`, { follow: true });
      expect(res.json()).toEqual({ data: { following: true } });
    }
    expect((await fan.client.get(`/api/live/shows/${showId}/follow`)).json()).toEqual({ data: { following: true } });

    await runJob(LIVE_REMINDERS_JOB, {});
    await runJob(LIVE_REMINDERS_JOB, {});
    const mail = await smtp.waitFor(fan.user.email);
    expect(mail.subject).toBe('Starting soon: Linear fills with Q&A');
    expect(mail.text).toContain(`${t.config.appUrl}/live/${showId}`);
    const rows = await settledMails(fan.user.id);
    expect(rows.map((r) => r.kind)).toEqual(['community.live-show-soon']);
    expect((await bell(fan.user.id)).filter((n) => n.body.includes('starts soon'))).toHaveLength(1);

    // a show that has started cannot be followed (there is nothing left to remind of)
    await admin.client.post(`/api/live/shows/${showId}/status`, { status: 'live' });
    const refused = await member('Late Larry');
    const res = await refused.client.post(`/api/live/shows/${showId}/follow`, { follow: true });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.follow[0]).toBe(LIVE_FOLLOW_STARTED);
  });

  it('a member who turned friend-request e-mail on keeps the bell and the mail from one request', async () => {
    const asker = await member('Fran Friendly');
    const target = await member('Tom Target');
    await t.app.deps.mail.preferences.update(target.user.id, [
      { topic: 'friend-requests', in_app: false, email: true },
    ]);
    expect((await asker.client.post('/friends', { user_id: target.user.id })).statusCode).toBe(200);
    const mail = await smtp.waitFor(target.user.email);
    expect(mail.subject).toBe('Fran Friendly wants to be your friend');
    // in-app turned off: no bell
    expect(await bell(target.user.id)).toHaveLength(0);
  });
});

describe('mentorship mail', () => {
  it("a mentor's feedback on a practice video mails the student, in the mentorship area of the bell", async () => {
    const student = await t.signedIn({ name: 'Sam Student', entitlements: ['mentorship'] });
    const mentor = await t.signedIn({ name: 'Max Mentor', role: 'admin' });
    const [video] = await t.app.deps.db
      .insert(videoSubmissions)
      .values({
        studentId: student.user.id,
        title: 'Paradiddles at 90',
        path: 'videos/none.mp4',
        originalName: 'p.mp4',
        mimeType: 'video/mp4',
        size: 10,
      })
      .returning();
    const res = await mentor.client.post(`/mentorship/videos/${video!.id}/feedback`, {
      feedback: 'Relax the left wrist and keep the accents low.',
    });
    expect(res.statusCode, res.body).toBe(200);
    const mail = await smtp.waitFor(student.user.email);
    expect(mail.subject).toBe('Max Mentor answered your practice video');
    expect(mail.text).toContain('Relax the left wrist and keep the accents low.');
    expect(mail.text).toContain(`${t.config.appUrl}/mentorship/videos/${video!.id}`);
    const notes = await bell(student.user.id);
    expect(notes.some((n) => n.area === 'mentorship' && n.body.includes('Paradiddles at 90'))).toBe(true);
  });

  it("the mentor's first plan change tells the student; the saves right after it do not", async () => {
    const student = await t.signedIn({ name: 'Pat Planned', entitlements: ['mentorship'] });
    const mentor = await t.signedIn({ name: 'Mia Mentor', role: 'admin' });
    const opened = await mentor.client.get(`/mentorship/practice-plan?student_id=${student.user.id}`);
    let plan = opened.json() as { id: number; admin_version: number };
    for (let i = 0; i < 3; i++) {
      const saved = await mentor.client.post('/mentorship/practice-plan', {
        id: plan.id,
        admin_version: plan.admin_version,
        practice_plan: practicePlan(),
      });
      expect(saved.statusCode, saved.body).toBe(200);
      plan = saved.json() as typeof plan;
    }
    const mail = await smtp.waitFor(student.user.email);
    expect(mail.subject).toBe('Mia Mentor updated your practice plan');
    expect(mail.text).toContain(`${t.config.appUrl}/mentorship/practice-plan`);
    const rows = await settledMails(student.user.id);
    expect(rows.map((r) => r.kind)).toEqual(['mentorship.practice-plan-updated']);
    expect((await bell(student.user.id)).filter((n) => n.body.includes('updated your practice plan'))).toHaveLength(1);
  });
});

describe('weekly digest', () => {
  it('goes only to members who turned it on: their practice week and the busiest topics, once per week', async () => {
    const keen = await member('Kim Keen');
    const other = await member('Olly Off');
    await t.app.deps.mail.preferences.update(keen.user.id, [{ topic: 'digest', in_app: false, email: true }]);
    // the week before this one (Monday to Sunday) is the one a run during this week sums up
    const now = new Date();
    const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7) - 7);
    const day = (n: number) => new Date(monday.getTime() + n * 86_400_000).toISOString().slice(0, 10);
    const db = t.app.deps.db;
    await db.insert(practiceSessions).values([
      { userId: keen.user.id, minutes: 30, day: day(0) },
      { userId: keen.user.id, minutes: 25, day: day(1) },
      { userId: keen.user.id, minutes: 15, day: day(3) },
      { userId: other.user.id, minutes: 40, day: day(2) },
    ]);
    await db.insert(journalEntries).values([
      {
        userId: keen.user.id,
        exercises: [{ practicedToday: 'Single strokes', startingTempo: '90', endingTempo: '96' }],
        createdAt: new Date(`${day(0)}T18:00:00Z`),
      },
      {
        userId: keen.user.id,
        exercises: [{ practicedToday: 'Single strokes', startingTempo: '96', endingTempo: '104' }],
        createdAt: new Date(`${day(3)}T18:00:00Z`),
      },
    ]);
    const topicId = await newTopic(other.user.id, 'Digest topic: brushes on a snare');
    await db
      .update(posts)
      .set({ createdAt: new Date(`${day(2)}T12:00:00Z`) })
      .where(eq(posts.resourceId, topicId));

    const thisWeek = new Date(monday.getTime() + 9 * 86_400_000).toISOString();
    await runJob(WEEKLY_DIGEST_JOB, { now: thisWeek });
    const mail = await smtp.waitFor(keen.user.email);
    expect(mail.subject).toBe('Your week at Backbeat: 70 minutes of practice');
    expect(mail.text).toMatch(/Days practised\s+3 of 7/);
    expect(mail.text).toMatch(/Single strokes\s+104 bpm \(up 8\)/);
    expect(mail.text).toContain('Digest topic: brushes on a snare');
    expect(mail.text).toContain(`${t.config.appUrl}/forums/topic/${topicId}`);

    await runJob(WEEKLY_DIGEST_JOB, { now: thisWeek });
    const rows = await settledMails(keen.user.id);
    expect(rows.filter((r) => r.kind === 'digest.weekly')).toHaveLength(1);
    // off by default
    expect(
      await db
        .select()
        .from(mailMessages)
        .where(and(eq(mailMessages.userId, other.user.id), eq(mailMessages.kind, 'digest.weekly'))),
    ).toHaveLength(0);
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { PgDialect } from 'drizzle-orm/pg-core';
import {
  chatHearts,
  chatMessages,
  courses,
  entitlements,
  forumCategories,
  forumTopics,
  lessonBookmarks,
  lessonCompletions,
  lessonQuizzes,
  lessons,
  liveShows,
  notifications,
  postLikes,
  posts,
  sessions,
  soundslicePathCompletions,
  soundslicePaths,
  users,
} from '#server/db/schema/index';
import { createTestApp, type TestApp } from '#test/api-harness';

/**
 * The hot pages read cold (HOT_CACHE=0: nothing kept in memory, as for a thread nobody opened
 * lately) answer with at most two SQL statements each, whatever the size of what they show: the
 * database shapes the page (joins, counts and the viewer's likes in the same statement). Only the
 * page's own statements count: the session's (one with the database session store, the session
 * with its member), the same for every request of one member, are those GET /api/me makes (it reads
 * nothing else) and are taken off.
 */
const MAX_STATEMENTS = 2;
let t: TestApp;
type Member = Awaited<ReturnType<TestApp['signedIn']>>;
let maya: Member;
let topicId: number;
let lessonId: number;
let showId: number;
let replyId: number;
let topicReplyId: number;

/** every shape of the hot pages: the session alone, then each page with the session */
const hotPages = () => [
  '/api/me',
  `/posts?type=forumtopic&id=${topicId}`,
  `/posts?type=forumtopic&id=${topicId}&from=${topicReplyId + 1}`,
  `/inline-posts?type=lesson&id=${lessonId}&sort=upvoted&page=1`,
  `/inline-posts?type=lesson&id=${lessonId}&to=${replyId}`,
  `/live-chat/get?showId=${showId}`,
  '/notifications/recent',
  '/api/forums',
  `/api/lessons/${lessonId}`,
];

beforeAll(async () => {
  t = await createTestApp({ hotCache: false });
  maya = await t.signedIn({ name: 'Maya', entitlements: ['membership'] });
  const sam = await t.createUser({ name: 'Sam' });
  const db = t.app.deps.db;
  const [cat] = await db.insert(forumCategories).values({ slug: 'grooves', title: 'Grooves' }).returning();
  const [topic] = await db
    .insert(forumTopics)
    .values({ categoryId: cat!.id, userId: maya.user.id, title: 'Ghost notes' })
    .returning();
  topicId = topic!.id;
  const [body] = await db
    .insert(posts)
    .values({ type: 'forumtopic', resourceId: topicId, userId: maya.user.id, body: 'The topic body' })
    .returning();
  await db.update(forumTopics).set({ firstPostId: body!.id }).where(eq(forumTopics.id, topicId));
  const [course] = await db.insert(courses).values({ slug: 'cold', title: 'Course' }).returning();
  const [lesson] = await db
    .insert(lessons)
    .values({ courseId: course!.id, slug: 'cold-lesson', title: 'Lesson', membersOnly: true })
    .returning();
  lessonId = lesson!.id;
  // the lesson page's parts: a next lesson, notation paths, a quiz, the viewer's completion and bookmark
  await db.insert(lessons).values({ courseId: course!.id, slug: 'after', title: 'After', position: 1 });
  const [path] = await db
    .insert(soundslicePaths)
    .values([
      { lessonId, title: 'Groove', url: 'https://www.soundslice.com/slices/a/' },
      { lessonId, title: 'Fill', url: 'https://www.soundslice.com/slices/b/', position: 1 },
    ])
    .returning();
  await db.insert(soundslicePathCompletions).values({ userId: maya.user.id, pathId: path!.id });
  await db
    .insert(lessonQuizzes)
    .values({ lessonId, questions: [{ title: 'Which hand?', options: ['Left', 'Right'], correct: 1 }] });
  await db.insert(lessonCompletions).values({ userId: maya.user.id, lessonId });
  await db.insert(lessonBookmarks).values({ userId: maya.user.id, lessonId });
  // more parents than a page holds, each with more replies than are shown, some liked by the viewer
  for (const [type, resourceId] of [
    ['forumtopic', topicId],
    ['lesson', lessonId],
  ] as const) {
    for (let i = 0; i < 14; i++) {
      const [parent] = await db
        .insert(posts)
        .values({ type, resourceId, userId: i % 2 ? sam.id : maya.user.id, body: `Parent ${i}`, likesCount: i % 3 })
        .returning();
      for (let j = 0; j < 5; j++) {
        const [reply] = await db
          .insert(posts)
          .values({
            type,
            resourceId,
            userId: sam.id,
            parentId: parent!.id,
            replyingToId: parent!.id,
            body: `Reply ${j}`,
          })
          .returning();
        replyId = reply!.id;
        if (type === 'forumtopic') topicReplyId = reply!.id;
        if (j === 0) await db.insert(postLikes).values({ postId: reply!.id, userId: maya.user.id });
      }
      if (i % 4 === 0) await db.insert(postLikes).values({ postId: parent!.id, userId: maya.user.id });
    }
  }
  const [show] = await db
    .insert(liveShows)
    .values({ title: 'Clinic', startsAt: new Date(), status: 'live', chatOpen: true })
    .returning();
  showId = show!.id;
  for (let i = 0; i < 60; i++) {
    const [m] = await db
      .insert(chatMessages)
      .values({ showId, userId: i % 2 ? sam.id : maya.user.id, body: `Message ${i}` })
      .returning();
    if (i % 5 === 0) await db.insert(chatHearts).values({ messageId: m!.id, userId: maya.user.id });
  }
  for (let i = 0; i < 12; i++) await db.insert(notifications).values({ userId: maya.user.id, body: `Note ${i}` });
});
afterAll(async () => t.close());

/** the statements a request runs beyond the viewer's session, and its answer */
async function statements(url: string) {
  const session = await t.countQueries(() => maya.client.get('/api/me'));
  let status = 0;
  const n = await t.countQueries(async () => {
    status = (await maya.client.get(url)).statusCode;
  });
  expect(status, url).toBe(200);
  return n - session;
}

describe('cold hot pages', () => {
  it.each([
    ['thread page', () => `/posts?type=forumtopic&id=${topicId}`],
    ['thread page, next page (keyset)', () => `/posts?type=forumtopic&id=${topicId}&from=${topicReplyId}`],
    ['one conversation', () => `/posts/thread?type=forumtopic&id=${topicId}&post_id=${topicReplyId - 2}`],
    ['lesson discussion, most liked', () => `/inline-posts?type=lesson&id=${lessonId}&sort=upvoted&page=1`],
    ['lesson discussion, newest, page 2', () => `/inline-posts?type=lesson&id=${lessonId}&sort=newest&page=2`],
    ['lesson discussion, one conversation', () => `/inline-posts?type=lesson&id=${lessonId}&to=${replyId}`],
    ['live chat history', () => `/live-chat/get?showId=${showId}`],
    ['notifications', () => '/notifications/recent'],
    ['forum categories', () => '/api/forums'],
    ['forum category page', () => '/api/forums/grooves'],
    ['lesson page data', () => `/api/lessons/${lessonId}`],
  ])(`%s: at most ${MAX_STATEMENTS} statements`, async (_name, url) => {
    expect(await statements(url())).toBeLessThanOrEqual(MAX_STATEMENTS);
  });

  it('a session read from the database is one statement: the session with its member and their active entitlements', async () => {
    const db = t.app.deps.db;
    const past = new Date(Date.now() - 60_000);
    await db.insert(entitlements).values([
      { userId: maya.user.id, kind: 'course:7', source: 'test' },
      { userId: maya.user.id, kind: 'mentorship', source: 'test', endsAt: past },
      { userId: maya.user.id, kind: 'course:12', source: 'test', revokedAt: past },
    ]);
    let me: { user: { entitlements: string[] } | null } | null = null;
    const n = await t.countQueries(async () => {
      me = (await maya.client.get('/api/me')).json();
    });
    expect(n).toBe(1);
    expect(me!.user?.entitlements).toEqual(['course:7', 'membership']);
  });

  it('an expired session or a suspended member reads as signed out', async () => {
    const db = t.app.deps.db;
    const lee = await t.signedIn({ name: 'Lee' });
    const kim = await t.signedIn({ name: 'Kim' });
    const me = async (m: Member) => ((await m.client.get('/api/me')).json() as { user: { id: number } | null }).user;
    expect((await me(lee))?.id).toBe(lee.user.id);
    expect((await me(kim))?.id).toBe(kim.user.id);
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, lee.user.id));
    await db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, kim.user.id));
    expect(await me(lee)).toBeNull();
    expect(await me(kim)).toBeNull();
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'on PostgreSQL a page read again sends no statement to be parsed: the session and the page are prepared once per connection',
    async () => {
      // requests one after another reuse the pool's most recently released connection
      const parse = vi.spyOn(pg.Connection.prototype, 'parse');
      try {
        for (const url of hotPages()) {
          expect((await maya.client.get(url)).statusCode, url).toBe(200);
          parse.mockClear();
          expect((await maya.client.get(url)).statusCode, url).toBe(200);
          // the background jobs' own statements are not the page's
          const parsed = parse.mock.calls.map(([q]) => q.text).filter((text) => !/pgboss/i.test(text));
          expect(parsed, url).toEqual([]);
        }
      } finally {
        parse.mockRestore();
      }
      const held = (await t.app.deps.db.execute(
        sql`select name from pg_prepared_statements where not from_sql order by name`,
      )) as unknown as { rows: Array<{ name: string }> };
      const labels = new Set(held.rows.map((r) => r.name.replace(/_[0-9a-f]{16}$/, '')));
      for (const label of [
        'session_user',
        'thread_topic',
        'thread_lesson',
        'thread_page',
        'chat_page',
        'notifications_recent',
        'forum_categories',
        'lesson_page',
      ])
        expect(labels, label).toContain(label);
    },
  );

  it('a page read again runs statements turned into SQL once: no request builds its page query again', async () => {
    const built = vi.spyOn(PgDialect.prototype, 'sqlToQuery');
    try {
      for (const url of hotPages()) {
        expect((await maya.client.get(url)).statusCode, url).toBe(200);
        built.mockClear();
        const again = await maya.client.get(url);
        expect(again.statusCode, url).toBe(200);
        expect(built.mock.calls.length, url).toBe(0);
      }
    } finally {
      built.mockRestore();
    }
  });

  it("the forums index reads each category's latest topic in index order, without sorting every topic", async () => {
    const texts: string[] = [];
    const listen = { query: (text: string) => void texts.push(text), ran: () => undefined };
    t.app.deps.database.observers.add(listen);
    try {
      expect((await maya.client.get('/api/forums')).statusCode).toBe(200);
    } finally {
      t.app.deps.database.observers.delete(listen);
    }
    const latest = texts.find((text) => text.includes('left join lateral'));
    expect(latest).toBeDefined();
    // a few rows would be read by a scan either way: the question is whether the index holds the order
    const plan = await t.app.deps.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_bitmapscan = off`);
      // its one parameter is the latest topic's limit, 1
      const explained = (await tx.execute(sql.raw(`explain ${latest!.replace('$1', '1')}`))) as unknown as {
        rows: Array<Record<string, string>>;
      };
      return explained.rows.map((r) => Object.values(r)[0]).join('\n');
    });
    expect(plan).toContain('forum_topics_latest_idx');
    // the categories are sorted (a handful); the topics never are
    expect(plan).not.toMatch(/Sort Key:.*last_activity_at/);
  });

  it('the session costs the same on every request (what the counts above take off)', async () => {
    const once = await t.countQueries(() => maya.client.get('/api/me'));
    expect(await t.countQueries(() => maya.client.get('/api/me'))).toBe(once);
    expect(once).toBeGreaterThan(0);
  });
});

describe.skipIf(!process.env.REDIS_URL)('a session kept in Redis', () => {
  it('is read from Redis, then its member with their entitlements in one statement; signed out once ended', async () => {
    const r = await createTestApp({ hotCache: false, redisUrl: process.env.REDIS_URL! });
    try {
      expect(r.app.deps.sessions.kept).toBe('redis');
      const ana = await r.signedIn({ name: 'Ana', entitlements: ['membership'] });
      let me: { user: { id: number; entitlements: string[] } | null } | null = null;
      const n = await r.countQueries(async () => {
        me = (await ana.client.get('/api/me')).json();
      });
      expect(n).toBe(1);
      expect(me!.user).toMatchObject({ id: ana.user.id, entitlements: ['membership'] });
      await r.app.deps.sessions.destroyUser(ana.user.id);
      expect((await ana.client.get('/api/me')).json().user).toBeNull();
    } finally {
      await r.close();
    }
  });
});

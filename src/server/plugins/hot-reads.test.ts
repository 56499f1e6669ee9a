import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import {
  chatMessages,
  courses,
  entitlements,
  forumCategories,
  forumTopics,
  lessons,
  liveShows,
  posts,
  users,
} from '#server/db/schema/index';
import { createTestApp, type TestApp } from '#test/api-harness';
import { until } from '#test/until';

/**
 * The hot reads (thread page, lesson discussion, chat history, notifications) answered from memory
 * (plugins/hot-reads.ts, lib/hot-cache.ts): a repeated read runs no SQL, and every change a member
 * could make or see shows on the very next read, for the right viewer only.
 */
let t: TestApp;
let topicId: number;
let lessonId: number;
let showId: number;
type Member = Awaited<ReturnType<TestApp['signedIn']>>;
let maya: Member;
let sam: Member;
let admin: Member;

beforeAll(async () => {
  t = await createTestApp();
  maya = await t.signedIn({ name: 'Maya', entitlements: ['membership'] });
  sam = await t.signedIn({ name: 'Sam', entitlements: ['membership'] });
  admin = await t.signedIn({ name: 'Alex Admin', role: 'admin' });
  const db = t.app.deps.db;
  const [cat] = await db.insert(forumCategories).values({ slug: 'general', title: 'General' }).returning();
  const [topic] = await db
    .insert(forumTopics)
    .values({ categoryId: cat!.id, userId: maya.user.id, title: 'Ghost notes' })
    .returning();
  const [first] = await db
    .insert(posts)
    .values({ type: 'forumtopic', resourceId: topic!.id, userId: maya.user.id, body: 'The topic body' })
    .returning();
  await db.update(forumTopics).set({ firstPostId: first!.id }).where(eq(forumTopics.id, topic!.id));
  topicId = topic!.id;
  const [course] = await db.insert(courses).values({ slug: 'hot', title: 'Course' }).returning();
  const [lesson] = await db
    .insert(lessons)
    .values({ courseId: course!.id, slug: 'paid', title: 'Paid lesson', membersOnly: true })
    .returning();
  lessonId = lesson!.id;
  const [show] = await db
    .insert(liveShows)
    .values({ title: 'Clinic', startsAt: new Date(), status: 'live', chatOpen: true })
    .returning();
  showId = show!.id;
});
afterAll(async () => t.close());

const thread = `/posts?type=forumtopic&id=`;

describe('hot reads from memory', () => {
  it('a repeated read runs no SQL and answers the same bytes and type', async () => {
    const first = await maya.client.get(thread + topicId);
    expect(first.statusCode).toBe(200);
    const hitsBefore = t.app.deps.hotCache.stats.hits;
    let again: Awaited<ReturnType<typeof maya.client.get>> | undefined;
    const queries = await t.countQueries(async () => (again = await maya.client.get(thread + topicId)));
    expect(queries).toBe(0);
    expect(t.app.deps.hotCache.stats.hits).toBeGreaterThan(hitsBefore);
    expect(again!.body).toBe(first.body);
    expect(again!.headers['content-type']).toBe(first.headers['content-type']);
  });

  it('a read answered from memory carries the same headers as the one that ran (security policy, type, no cookie)', async () => {
    const url = `/live-chat/get?showId=${showId}`;
    const ran = await sam.client.get(url);
    const hitsBefore = t.app.deps.hotCache.stats.hits;
    const kept = await sam.client.get(url);
    expect(t.app.deps.hotCache.stats.hits).toBeGreaterThan(hitsBefore);
    const shown = (h: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(h).filter(([k]) => !['date', 'connection', 'keep-alive'].includes(k)));
    expect(shown(kept.headers)).toEqual(shown(ran.headers));
    expect(kept.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'self'");
    expect(kept.headers['x-content-type-options']).toBe('nosniff');
    expect(kept.headers['set-cookie']).toBeUndefined();
  });

  it('a kept read is only for the routes that ask for it: another GET runs its handler every time', async () => {
    const queries = await t.countQueries(async () => void (await maya.client.get(`/api/lessons/${lessonId}`)));
    const again = await t.countQueries(async () => void (await maya.client.get(`/api/lessons/${lessonId}`)));
    expect(queries).toBeGreaterThan(0);
    expect(again).toBeGreaterThan(0);
  });

  it('a reply and a like show on the next read of the thread', async () => {
    await maya.client.get(thread + topicId);
    const created = await sam.client.post('/posts', {
      type: 'forumtopic',
      resource_id: topicId,
      parent_id: null,
      body: 'Try it at 60 bpm',
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().post.id as number;
    const seen = (await maya.client.get(thread + topicId)).json().posts as { id: number; body: string }[];
    expect(seen.find((p) => p.id === id)?.body).toBe('Try it at 60 bpm');

    expect((await maya.client.post('/toggle-like', { type: 'post', resource_id: id })).json()).toMatchObject({
      liked: true,
      likes: 1,
    });
    const liked = (await maya.client.get(thread + topicId)).json().posts.find((p: { id: number }) => p.id === id);
    expect(liked).toMatchObject({ numLikes: 1, authLiked: true });
    // each viewer has their own answer: Sam sees the count, not Maya's like as his
    const forSam = (await sam.client.get(thread + topicId)).json().posts.find((p: { id: number }) => p.id === id);
    expect(forSam).toMatchObject({ numLikes: 1, authLiked: false, canEdit: true });
    expect(
      (await maya.client.get(thread + topicId)).json().posts.find((p: { id: number }) => p.id === id),
    ).toMatchObject({ canEdit: false });
  });

  it('a member renamed shows under the new name at once (another table than the posts)', async () => {
    await sam.client.get(thread + topicId);
    await t.app.deps.db.update(users).set({ name: 'Sam Renamed' }).where(eq(users.id, sam.user.id));
    const body = (await sam.client.get(thread + topicId)).body;
    expect(body).toContain('Sam Renamed');
  });

  it('revoking an entitlement closes a members-only discussion on the next read', async () => {
    const url = `/inline-posts?type=lesson&id=${lessonId}`;
    expect((await sam.client.get(url)).statusCode).toBe(200);
    expect((await sam.client.get(url)).statusCode).toBe(200);
    const [row] = await t.app.deps.db.select().from(entitlements).where(eq(entitlements.userId, sam.user.id));
    const revoked = await admin.client.post(`/api/admin/members/${sam.user.id}/entitlements/${row!.id}/revoke`, {});
    expect(revoked.statusCode).toBe(200);
    expect((await sam.client.get(url)).statusCode).toBe(403);
  });

  it('chat history shows a new message and a heart at once', async () => {
    const url = `/live-chat/get?showId=${showId}`;
    expect((await maya.client.get(url)).json().messages).toEqual([]);
    const sent = await maya.client.post('/live-chat/messages', { body: 'Hello', showId });
    expect(sent.statusCode).toBe(200);
    const id = sent.json().id as number;
    expect((await maya.client.get(url)).json().messages.map((m: { id: number }) => m.id)).toEqual([id]);
    expect((await maya.client.post('/live-chat/toggle-heart', { show_id: showId, message_id: id })).statusCode).toBe(
      200,
    );
    expect((await maya.client.get(url)).json().messages[0]).toMatchObject({ id, hearts: 1, hearted: true });
  });

  it('notifications: a new one and read-all show at once, and one member never sees another’s', async () => {
    const before = (await maya.client.get('/notifications/recent')).json();
    await maya.client.get('/notifications/recent');
    const sent = await admin.client.post('/api/admin/notifications', {
      user_id: maya.user.id,
      body: 'Your lesson is ready',
    });
    expect(sent.statusCode).toBe(201);
    const after = (await maya.client.get('/notifications/recent')).json();
    expect(after.data[0].body).toBe('Your lesson is ready');
    expect(after.unread_count).toBe(before.unread_count + 1);
    expect(
      (await sam.client.get('/notifications/recent')).json().data.map((n: { body: string }) => n.body),
    ).not.toContain('Your lesson is ready');
    expect((await maya.client.post('/api/notifications/read-all', { area: 'main' })).statusCode).toBe(200);
    expect((await maya.client.get('/notifications/recent')).json().unread_count).toBe(0);
  });

  it('signing out and suspension end a session kept in memory at once', async () => {
    const member = await t.signedIn({ name: 'Leaving' });
    expect((await member.client.get('/api/me')).json().user.id).toBe(member.user.id);
    const cookie = [...member.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    expect((await member.client.post('/logout', {})).statusCode).toBe(200);
    const old = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(old.json().user).toBeNull();

    const other = await t.signedIn({ name: 'Suspended' });
    expect((await other.client.get('/notifications/recent')).statusCode).toBe(200);
    expect(
      (await admin.client.post(`/api/admin/members/${other.user.id}/suspend`, { reason: 'Spam' })).statusCode,
    ).toBe(200);
    expect((await other.client.get('/notifications/recent')).statusCode).toBe(401);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'a write by another connection (another process, psql) shows within moments',
    async () => {
      const url = `/live-chat/get?showId=${showId}`;
      await maya.client.get(url);
      const c = new pg.Client({ connectionString: t.app.deps.database.url! });
      await c.connect();
      try {
        await c.query(`insert into chat_messages (show_id, user_id, body) values ($1, $2, 'from psql')`, [
          showId,
          sam.user.id,
        ]);
      } finally {
        await c.end();
      }
      let bodies: string[] = [];
      await until(
        'the message written by psql in the chat',
        async () => {
          bodies = (await maya.client.get(url)).json().messages.map((m: { body: string }) => m.body);
          return bodies.includes('from psql');
        },
        { seen: () => bodies },
      );
    },
  );

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'when its change feed is cut the cache stands aside, and comes back by itself',
    async () => {
      const cache = t.app.deps.hotCache;
      const url = `/live-chat/get?showId=${showId}`;
      await maya.client.get(url);
      const c = new pg.Client({ connectionString: t.app.deps.database.url! });
      await c.connect();
      try {
        await c.query(
          `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen %'`,
        );
        await until('the cache standing aside', () => !cache.active);
        await c.query(`insert into chat_messages (show_id, user_id, body) values ($1, $2, 'while the feed was down')`, [
          showId,
          sam.user.id,
        ]);
      } finally {
        await c.end();
      }
      expect((await maya.client.get(url)).json().messages.map((m: { body: string }) => m.body)).toContain(
        'while the feed was down',
      );
      await until('the cache back', () => cache.active);
      await maya.client.get(url);
      const queries = await t.countQueries(() => maya.client.get(url));
      expect(queries).toBe(0);
      await t.app.deps.db.insert(chatMessages).values({ showId, userId: sam.user.id, body: 'after' });
      expect((await maya.client.get(url)).json().messages.map((m: { body: string }) => m.body)).toContain('after');
    },
  );
});

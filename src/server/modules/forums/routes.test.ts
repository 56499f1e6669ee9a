/* eslint-disable max-lines -- one suite for this module's HTTP routes: the cases share the app, users and fixtures set up at its top */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { COMMUNITY, COMMUNITY_MESSAGES } from '#shared/community';
import { MESSAGES } from '#shared/constants';
import { FORUM_MESSAGES } from '#shared/forums';
import { forumCategories, forumTopics, posts, topicLikes, topicWatches } from '#server/db/schema/index';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';
import { seedDemo } from '#server/demo/seed';

let t: TestApp;
let member: { user: { id: number; name: string }; client: TestClient };
let admin: { user: { id: number; name: string }; client: TestClient };
let free: { user: { id: number }; client: TestClient };
let visitor: TestClient;
let cats: { id: number; slug: string }[];

beforeAll(async () => {
  t = await createTestApp();
  cats = await t.app.deps.db
    .insert(forumCategories)
    .values([
      { slug: 'general', title: 'General', description: 'Say hello', position: 0 },
      { slug: 'technique', title: 'Technique', description: 'Grip and speed', position: 1 },
      { slug: 'empty', title: 'Empty', description: 'Nothing yet', position: 2 },
    ])
    .returning();
  member = await t.signedIn({ name: 'Maya Member', entitlements: ['membership'] });
  admin = await t.signedIn({ name: 'Alex Admin', role: 'admin' });
  free = await t.signedIn({ name: 'Fran Free' });
  visitor = await t.client();
});
afterAll(async () => t.close());

async function newTopic(client: TestClient, title: string, slug = 'general', body = 'Body of ' + title) {
  const res = await client.post(`/api/forums/${slug}/topics`, { title, body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().topic as { id: number; url: string };
}

describe('access', () => {
  it('visitors get 401, free members 403 with the members-only message, members and mentorship students 200', async () => {
    const topic = await newTopic(member.client, 'Access check');
    const calls: [string, string, Record<string, unknown>?][] = [
      ['GET', '/api/forums'],
      ['GET', '/api/forums/general'],
      ['POST', '/api/forums/general/topics', { title: '', body: '' }],
      ['GET', `/forums/api/topic/${topic.id}`],
      ['POST', '/forums/api/likes/topics/toggle', { model_id: topic.id }],
      ['POST', `/api/forums/topics/${topic.id}/watch`, { watch: true }],
      ['POST', `/api/forums/topics/${topic.id}/pin`, { pinned: true }],
      ['POST', `/api/forums/topics/${topic.id}/lock`, { locked: true }],
      ['POST', `/api/forums/topics/${topic.id}/move`, { category_id: cats[1]!.id }],
    ];
    for (const [method, url, body] of calls) {
      const v = await visitor.request(method as 'GET', url, body);
      expect(v.statusCode, `${method} ${url}`).toBe(401);
      expect(v.json().message).toBe(MESSAGES.unauthenticated);
      const f = await free.client.request(method as 'GET', url, body);
      expect(f.statusCode, `${method} ${url}`).toBe(403);
      expect(f.json().message).toBe(COMMUNITY_MESSAGES.communityMembersOnly);
    }
    const student = await t.signedIn({ entitlements: ['mentorship'] });
    expect((await student.client.get('/api/forums')).statusCode).toBe(200);
    expect((await student.client.get(`/forums/api/topic/${topic.id}`)).statusCode).toBe(200);
  });

  it('pin, lock and move are for admins only (403 for a member, nothing changes)', async () => {
    const topic = await newTopic(member.client, 'Members cannot moderate');
    for (const [path, body] of [
      ['pin', { pinned: true }],
      ['lock', { locked: true }],
      ['move', { category_id: cats[1]!.id }],
    ] as const) {
      const res = await member.client.post(`/api/forums/topics/${topic.id}/${path}`, body);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(MESSAGES.forbidden);
    }
    const [row] = await t.app.deps.db.select().from(forumTopics).where(eq(forumTopics.id, topic.id));
    expect(row).toMatchObject({ pinned: false, locked: false, categoryId: cats[0]!.id });
  });

  it('needs the CSRF token for writes', async () => {
    const res = await member.client.post('/api/forums/general/topics', { title: 'x', body: 'y' }, { csrf: false });
    expect(res.statusCode).toBe(419);
  });
});

describe('starting a topic', () => {
  it('creates the topic and its first post in one go; the author watches it', async () => {
    const res = await member.client.post('/api/forums/technique/topics', {
      title: '  Moeller whip  ',
      body: 'How do you practise it?',
    });
    expect(res.statusCode).toBe(201);
    const { topic } = res.json();
    expect(topic).toEqual({ id: expect.any(Number), url: `/forums/topic/${topic.id}` });
    const [row] = await t.app.deps.db.select().from(forumTopics).where(eq(forumTopics.id, topic.id));
    expect(row).toMatchObject({
      title: 'Moeller whip',
      userId: member.user.id,
      categoryId: cats[1]!.id,
      commentsCount: 0,
      likesCount: 0,
    });
    const [first] = await t.app.deps.db.select().from(posts).where(eq(posts.id, row!.firstPostId!));
    expect(first).toMatchObject({
      type: 'forumtopic',
      resourceId: topic.id,
      parentId: null,
      body: 'How do you practise it?',
      userId: member.user.id,
    });
    const watches = await t.app.deps.db.select().from(topicWatches).where(eq(topicWatches.topicId, topic.id));
    expect(watches.map((w) => w.userId)).toEqual([member.user.id]);
    const answer = (await member.client.get(`/forums/api/topic/${topic.id}`)).json();
    expect(answer.data[0].topic.authWatching).toBe(true);
  });

  it('answers clear 422 messages for a missing or too long title and body', async () => {
    let res = await member.client.post('/api/forums/general/topics', {});
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ title: [FORUM_MESSAGES.titleRequired], body: [FORUM_MESSAGES.bodyRequired] });
    expect(res.json().message).toBe(FORUM_MESSAGES.titleRequired);
    res = await member.client.post('/api/forums/general/topics', { title: '   ', body: '  \n ' });
    expect(res.json().errors).toEqual({ title: [FORUM_MESSAGES.titleRequired], body: [FORUM_MESSAGES.bodyRequired] });
    res = await member.client.post('/api/forums/general/topics', {
      title: 'x'.repeat(COMMUNITY.topicTitleMax + 1),
      body: 'y'.repeat(COMMUNITY.postBodyMax + 1),
    });
    expect(res.json().errors).toEqual({ title: [FORUM_MESSAGES.titleTooLong], body: [FORUM_MESSAGES.bodyTooLong] });
    // form posts work the same
    res = await member.client.post('/api/forums/general/topics', { title: 'Form topic', body: '' }, { form: true });
    expect(res.json().errors).toEqual({ body: [FORUM_MESSAGES.bodyRequired] });
  });

  it('404 for an unknown category', async () => {
    const res = await member.client.post('/api/forums/nope/topics', { title: 'a', body: 'b' });
    expect(res.statusCode).toBe(404);
  });

  it('is rate limited per member (429 with Retry-After)', async () => {
    const busy = await t.signedIn({ entitlements: ['membership'] });
    for (let i = 0; i < 10; i++) await newTopic(busy.client, `Flood ${i}`, 'empty');
    const res = await busy.client.post('/api/forums/empty/topics', { title: 'One too many', body: 'b' });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    await t.app.deps.db.delete(forumTopics).where(eq(forumTopics.categoryId, cats[2]!.id));
  });
});

describe('GET /api/forums and /api/forums/{slug}', () => {
  it('lists categories with topic counts and latest activity (hidden topics only for admins)', async () => {
    const hiddenTopic = await newTopic(member.client, 'Hidden spam', 'technique');
    await t.app.deps.db.update(forumTopics).set({ hiddenAt: new Date() }).where(eq(forumTopics.id, hiddenTopic.id));
    const latest = await newTopic(member.client, 'Newest in technique', 'technique');
    const res = await member.client.get('/api/forums');
    expect(res.statusCode).toBe(200);
    const data = res.json().data as {
      slug: string;
      topicsCount: number;
      lastActivityAt: string | null;
      latestTopic: { id: number } | null;
    }[];
    expect(data.map((c) => c.slug)).toEqual(['general', 'technique', 'empty']);
    const tech = data.find((c) => c.slug === 'technique')!;
    const count = await t.app.deps.db.$count(forumTopics, eq(forumTopics.categoryId, cats[1]!.id));
    expect(tech.topicsCount).toBe(count - 1);
    expect(tech.latestTopic?.id).toBe(latest.id);
    expect(data.find((c) => c.slug === 'empty')).toMatchObject({
      topicsCount: 0,
      lastActivityAt: null,
      latestTopic: null,
    });
    const forAdmin = (await admin.client.get('/api/forums'))
      .json()
      .data.find((c: { slug: string }) => c.slug === 'technique');
    expect(forAdmin.topicsCount).toBe(count);
    // a hidden topic is 404 for members, visible to admins
    expect((await member.client.get(`/forums/api/topic/${hiddenTopic.id}`)).statusCode).toBe(404);
    expect((await member.client.post('/forums/api/likes/topics/toggle', { model_id: hiddenTopic.id })).statusCode).toBe(
      404,
    );
    expect((await admin.client.get(`/forums/api/topic/${hiddenTopic.id}`)).json().data[0].topic.hidden).toBe(true);
    const memberList = (await member.client.get('/api/forums/technique'))
      .json()
      .topics.map((x: { id: number }) => x.id);
    expect(memberList).not.toContain(hiddenTopic.id);
    const adminList = (await admin.client.get('/api/forums/technique')).json().topics.map((x: { id: number }) => x.id);
    expect(adminList).toContain(hiddenTopic.id);
  });

  it('pages topics: pinned first, then newest activity; 404 for an unknown slug', async () => {
    const cat = (
      await t.app.deps.db.insert(forumCategories).values({ slug: 'paging', title: 'Paging' }).returning()
    )[0]!;
    const base = Date.now() - 10_000_000;
    const rows = await t.app.deps.db
      .insert(forumTopics)
      .values(
        Array.from({ length: COMMUNITY.topicsPerPage + 5 }, (_, i) => ({
          categoryId: cat.id,
          userId: i % 2 ? member.user.id : null,
          title: `Topic ${i}`,
          pinned: i === 3,
          locked: i === 10,
          lastActivityAt: new Date(base + i * 60_000),
        })),
      )
      .returning();
    const page1 = (await member.client.get('/api/forums/paging')).json();
    expect(page1).toMatchObject({
      page: 1,
      pages: 2,
      total: COMMUNITY.topicsPerPage + 5,
      category: { slug: 'paging', title: 'Paging' },
    });
    expect(page1.topics).toHaveLength(COMMUNITY.topicsPerPage);
    expect(page1.topics[0]).toMatchObject({ title: 'Topic 3', pinned: true, url: `/forums/topic/${rows[3]!.id}` });
    const rest = page1.topics.slice(1).map((x: { title: string }) => x.title);
    expect(rest.slice(0, 3)).toEqual(['Topic 24', 'Topic 23', 'Topic 22']);
    const times = page1.topics.slice(1).map((x: { lastActivityAt: string }) => Date.parse(x.lastActivityAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(page1.topics.find((x: { title: string }) => x.title === 'Topic 10').locked).toBe(true);
    // the author's name and avatar; a missing author is 'Deleted'
    expect(page1.topics.find((x: { title: string }) => x.title === 'Topic 23').user).toMatchObject({
      name: 'Maya Member',
      avatarUrl: '/images/default-avatar.png',
    });
    expect(page1.topics.find((x: { title: string }) => x.title === 'Topic 24').user).toEqual({
      name: 'Deleted',
      permalink: null,
      avatarUrl: '/images/default-avatar.png',
    });
    const page2 = (await member.client.get('/api/forums/paging?page=2')).json();
    expect(page2.topics.map((x: { title: string }) => x.title)).toEqual([
      'Topic 5',
      'Topic 4',
      'Topic 2',
      'Topic 1',
      'Topic 0',
    ]);
    const all = [...page1.topics, ...page2.topics].map((x: { id: number }) => x.id);
    expect(new Set(all).size).toBe(COMMUNITY.topicsPerPage + 5);
    expect((await member.client.get('/api/forums/paging?page=0')).statusCode).toBe(422);
    expect((await member.client.get('/api/forums/nothing-here')).statusCode).toBe(404);
  });

  it('a page costs the same number of queries whatever its size', async () => {
    const queries = await t.countQueries(() => member.client.get('/api/forums/paging'));
    const fewer = await t.countQueries(() => member.client.get('/api/forums/empty'));
    expect(queries).toBeGreaterThan(0);
    expect(queries).toBe(fewer);
  });
});

describe('GET /forums/api/topic/{id}', () => {
  it('answers data[0] with topic, user and posts (the first post holds the body)', async () => {
    const topic = await newTopic(member.client, 'Spec shape', 'general', 'Check https://youtu.be/dQw4w9WgXcQ out');
    const res = await admin.client.get(`/forums/api/topic/${topic.id}`);
    expect(res.statusCode).toBe(200);
    const [item] = res.json().data;
    expect(item.topic).toMatchObject({
      id: topic.id,
      title: 'Spec shape',
      createdAt: expect.any(String),
      authWatching: false,
      authLiked: false,
      numLikes: 0,
      numComments: 0,
      pinned: false,
      locked: false,
      categorySlug: 'general',
      categoryTitle: 'General',
    });
    expect(item.user).toMatchObject({
      name: 'Maya Member',
      permalink: expect.stringMatching(/^\/profile\//),
      avatarUrl: '/images/default-avatar.png',
    });
    expect(item.posts).toHaveLength(1);
    expect(item.posts[0]).toMatchObject({
      body: 'Check https://youtu.be/dQw4w9WgXcQ out',
      user: 'Maya Member',
      videos: ['dQw4w9WgXcQ'],
      canEdit: true,
      trashed: false,
      children: [],
    });
    // the member who is not the author cannot edit
    const other = await t.signedIn({ entitlements: ['membership'] });
    expect((await other.client.get(`/forums/api/topic/${topic.id}`)).json().data[0].posts[0].canEdit).toBe(false);
  });

  it("shows 'Deleted' when the author is gone, 404 for an unknown topic", async () => {
    const gone = await t.signedIn({ entitlements: ['membership'] });
    const topic = await newTopic(gone.client, 'Orphan');
    await t.app.deps.db.update(forumTopics).set({ userId: null }).where(eq(forumTopics.id, topic.id));
    await t.app.deps.db.update(posts).set({ userId: null }).where(eq(posts.resourceId, topic.id));
    const [item] = (await member.client.get(`/forums/api/topic/${topic.id}`)).json().data;
    expect(item.user).toBeNull();
    expect(item.posts[0]).toMatchObject({
      user: 'Deleted',
      avatarUrl: '/images/default-avatar.png',
      userId: null,
      canEdit: false,
    });
    expect((await member.client.get('/forums/api/topic/999999')).statusCode).toBe(404);
    expect((await member.client.get('/forums/api/topic/abc')).statusCode).toBe(422);
  });
});

describe('topic likes', () => {
  it('toggles: {likes, liked}; authLiked and numLikes follow', async () => {
    const topic = await newTopic(member.client, 'Like me');
    let res = await member.client.post('/forums/api/likes/topics/toggle', { model_id: topic.id });
    expect(res.json()).toEqual({ likes: 1, liked: true });
    res = await admin.client.post('/forums/api/likes/topics/toggle', { model_id: String(topic.id) }, { form: true });
    expect(res.json()).toEqual({ likes: 2, liked: true });
    expect((await member.client.get(`/forums/api/topic/${topic.id}`)).json().data[0].topic).toMatchObject({
      authLiked: true,
      numLikes: 2,
    });
    res = await member.client.post('/forums/api/likes/topics/toggle', { model_id: topic.id });
    expect(res.json()).toEqual({ likes: 1, liked: false });
    expect((await member.client.get(`/forums/api/topic/${topic.id}`)).json().data[0].topic).toMatchObject({
      authLiked: false,
      numLikes: 1,
    });
    expect((await member.client.post('/forums/api/likes/topics/toggle', {})).json().errors.model_id).toBeDefined();
    expect((await member.client.post('/forums/api/likes/topics/toggle', { model_id: 999999 })).statusCode).toBe(404);
  });

  it('is exact under concurrent likes and toggles', async () => {
    const topic = await newTopic(member.client, 'Popular');
    const likers = await Promise.all(Array.from({ length: 12 }, () => t.signedIn({ entitlements: ['membership'] })));
    const answers = await Promise.all(
      likers.map((l) => l.client.post('/forums/api/likes/topics/toggle', { model_id: topic.id })),
    );
    expect(answers.every((a) => a.json().liked === true)).toBe(true);
    expect(Math.max(...answers.map((a) => a.json().likes))).toBe(12);
    let [row] = await t.app.deps.db.select().from(forumTopics).where(eq(forumTopics.id, topic.id));
    expect(row!.likesCount).toBe(12);
    expect(await t.app.deps.db.$count(topicLikes, eq(topicLikes.topicId, topic.id))).toBe(12);
    // one member toggling many times at once: whatever the interleaving, one row at most and the counter matches the rows
    const spam = await Promise.all(
      Array.from({ length: 7 }, () =>
        likers[0]!.client.post('/forums/api/likes/topics/toggle', { model_id: topic.id }),
      ),
    );
    expect(spam.every((a) => a.statusCode === 200 && a.json().likes >= 11 && a.json().likes <= 12)).toBe(true);
    [row] = await t.app.deps.db.select().from(forumTopics).where(eq(forumTopics.id, topic.id));
    const likes = await t.app.deps.db.$count(topicLikes, eq(topicLikes.topicId, topic.id));
    expect([11, 12]).toContain(likes);
    expect(row!.likesCount).toBe(likes);
    // and everyone unliking at once brings it to exactly 0, never below
    const mine = await t.app.deps.db.$count(
      topicLikes,
      and(eq(topicLikes.topicId, topic.id), eq(topicLikes.userId, likers[0]!.user.id)),
    );
    await Promise.all(
      likers.slice(mine ? 0 : 1).map((l) => l.client.post('/forums/api/likes/topics/toggle', { model_id: topic.id })),
    );
    [row] = await t.app.deps.db.select().from(forumTopics).where(eq(forumTopics.id, topic.id));
    expect(row!.likesCount).toBe(0);
    expect(await t.app.deps.db.$count(topicLikes, eq(topicLikes.topicId, topic.id))).toBe(0);
  });
});

describe('watching', () => {
  it('stores the watch and answers {watching}', async () => {
    const topic = await newTopic(admin.client, 'Watch me');
    let res = await member.client.post(`/api/forums/topics/${topic.id}/watch`, { watch: true });
    expect(res.json()).toEqual({ watching: true });
    res = await member.client.post(`/api/forums/topics/${topic.id}/watch`, { watch: true });
    expect(res.json()).toEqual({ watching: true });
    expect((await member.client.get(`/forums/api/topic/${topic.id}`)).json().data[0].topic.authWatching).toBe(true);
    expect(await t.app.deps.services.forums.watcherIds(topic.id)).toEqual(
      expect.arrayContaining([admin.user.id, member.user.id]),
    );
    res = await member.client.post(`/api/forums/topics/${topic.id}/watch`, { watch: false });
    expect(res.json()).toEqual({ watching: false });
    expect((await member.client.get(`/forums/api/topic/${topic.id}`)).json().data[0].topic.authWatching).toBe(false);
    expect((await member.client.post(`/api/forums/topics/${topic.id}/watch`, {})).statusCode).toBe(422);
    expect((await member.client.post('/api/forums/topics/999999/watch', { watch: true })).statusCode).toBe(404);
  });
});

describe('admin moderation', () => {
  it('pins, locks and moves a topic', async () => {
    const topic = await newTopic(member.client, 'Moderate me');
    expect((await admin.client.post(`/api/forums/topics/${topic.id}/pin`, { pinned: true })).json()).toEqual({
      pinned: true,
    });
    expect(
      (await admin.client.post(`/api/forums/topics/${topic.id}/lock`, { locked: '1' }, { form: true })).json(),
    ).toEqual({ locked: true });
    const moved = await admin.client.post(`/api/forums/topics/${topic.id}/move`, { category_id: cats[1]!.id });
    expect(moved.json()).toMatchObject({ category_id: cats[1]!.id, categorySlug: 'technique' });
    const item = (await member.client.get(`/forums/api/topic/${topic.id}`)).json().data[0].topic;
    expect(item).toMatchObject({ pinned: true, locked: true, categorySlug: 'technique' });
    const list = (await member.client.get('/api/forums/technique')).json().topics;
    expect(list[0].id).toBe(topic.id);
    expect((await admin.client.post(`/api/forums/topics/${topic.id}/pin`, { pinned: false })).json()).toEqual({
      pinned: false,
    });
    expect((await admin.client.post(`/api/forums/topics/${topic.id}/lock`, { locked: false })).json()).toEqual({
      locked: false,
    });
  });

  it('validates the move and the flags', async () => {
    const topic = await newTopic(member.client, 'Bad moves');
    let res = await admin.client.post(`/api/forums/topics/${topic.id}/move`, { category_id: 999999 });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ category_id: [FORUM_MESSAGES.categoryInvalid] });
    res = await admin.client.post(`/api/forums/topics/${topic.id}/move`, {});
    expect(res.json().errors).toEqual({ category_id: [FORUM_MESSAGES.categoryRequired] });
    expect((await admin.client.post(`/api/forums/topics/${topic.id}/pin`, {})).statusCode).toBe(422);
    expect((await admin.client.post(`/api/forums/topics/999999/pin`, { pinned: true })).statusCode).toBe(404);
  });
});

describe('demo forums', () => {
  it('seeds topics whose first post holds the body, with exact comment and like counts', async () => {
    const demo = await createTestApp();
    try {
      await seedDemo(demo.app.deps);
      const { db } = demo.app.deps;
      const topics = await db.select().from(forumTopics);
      expect(topics.length).toBeGreaterThanOrEqual(8);
      expect(topics.some((x) => x.pinned)).toBe(true);
      expect(topics.some((x) => x.locked)).toBe(true);
      expect(topics.map((x) => x.title)).toContain('How long should a practice session be?');
      expect(new Set(topics.map((x) => x.categoryId)).size).toBeGreaterThanOrEqual(3);
      let nested = 0;
      for (const topic of topics) {
        const rows = await db
          .select()
          .from(posts)
          .where(and(eq(posts.type, 'forumtopic'), eq(posts.resourceId, topic.id)));
        const first = rows.find((p) => p.id === topic.firstPostId);
        expect(first, topic.title).toMatchObject({ parentId: null, userId: topic.userId });
        const replies = rows.filter((p) => p.id !== topic.firstPostId && !p.trashedAt);
        expect(topic.commentsCount, topic.title).toBe(replies.length);
        expect(replies.some((p) => p.parentId === null)).toBe(true);
        expect(
          replies.every(
            (p) =>
              p.parentId === null ||
              rows.some((q) => q.id === p.parentId && q.parentId === null && q.id !== topic.firstPostId),
          ),
        ).toBe(true);
        nested += replies.filter((p) => p.parentId !== null).length;
        expect(topic.likesCount).toBe(await db.$count(topicLikes, eq(topicLikes.topicId, topic.id)));
        expect(topic.lastActivityAt.getTime()).toBeGreaterThanOrEqual(
          Math.max(...rows.map((p) => p.createdAt.getTime())) - 1000,
        );
      }
      expect(nested).toBeGreaterThan(0);
      expect(await db.$count(topicWatches)).toBeGreaterThan(0);
    } finally {
      await demo.close();
    }
  });
});

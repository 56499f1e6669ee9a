/* eslint-disable max-lines -- one suite for this module's HTTP routes: the cases share the app, users and fixtures set up at its top */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { CATEGORY_MESSAGES, MODERATION_MESSAGES } from '#shared/admin-community';
import { LIVE_MESSAGES } from '#shared/live';
import { showChannel } from '#shared/realtime';
import {
  auditLog,
  chatMessages,
  forumCategories,
  forumTopics,
  liveShows,
  posts,
  reports,
  users,
  wallComments,
} from '#server/db/schema/index';
import { createTestApp, subscribe, type TestApp, type TestClient } from '#test/api-harness';

let t: TestApp;
let admin: TestClient;
let member: { user: { id: number; name: string }; client: TestClient };
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signedIn({ role: 'admin', name: 'Ada Admin' })).client;
  member = await t.signedIn({ entitlements: ['membership'], name: 'Mo Member' });
});
afterAll(async () => t?.close());

const db = () => t.app.deps.db;
let n = 0;
const uniq = () => `${Date.now().toString(36)}${++n}`;
async function newCategory() {
  const slug = `cat-${uniq()}`;
  const [c] = await db()
    .insert(forumCategories)
    .values({ slug, title: `Category ${slug}`, position: 500 + n })
    .returning();
  return c!;
}
async function memberTopic(title = `Topic ${uniq()}`) {
  const cat = await newCategory();
  const res = await member.client.post(`/api/forums/${cat.slug}/topics`, { title, body: `Body of ${title}` });
  expect(res.statusCode, res.body).toBe(201);
  return { cat, id: res.json().topic.id as number, title };
}
const lastAudit = async (action: string) =>
  (await db().select().from(auditLog).where(eq(auditLog.action, action)).orderBy(auditLog.id)).at(-1);
const act = (kind: string, id: number, action: string) => admin.post(`/api/admin/moderation/${kind}/${id}`, { action });

describe('moderation', () => {
  it('refuses members and visitors', async () => {
    expect((await member.client.get('/api/admin/moderation')).statusCode).toBe(403);
    expect((await (await t.client()).get('/api/admin/moderation')).statusCode).toBe(401);
    expect((await member.client.post('/api/admin/moderation/post/1', { action: 'hide' })).statusCode).toBe(403);
  });

  it('hides a topic from the members (category list and page) and restores it, with audit entries', async () => {
    const { cat, id, title } = await memberTopic();
    const topicsFor = async () =>
      (await member.client.get(`/api/forums/${cat.slug}`)).json().topics.map((x: { id: number }) => x.id);
    expect(await topicsFor()).toContain(id);

    const hidden = await act('topic', id, 'hide');
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(hidden.json().data).toEqual({ kind: 'topic', id, state: 'hidden' });
    expect(await topicsFor()).not.toContain(id);
    expect((await member.client.get(`/forums/api/topic/${id}`)).statusCode).toBe(404);
    const entry = await lastAudit('moderation.hide');
    expect(entry).toMatchObject({
      targetType: 'topic',
      targetId: String(id),
      before: { state: 'visible', title },
      after: { state: 'hidden', title },
    });
    // the first post (the topic's text) stays
    const [topic] = await db().select().from(forumTopics).where(eq(forumTopics.id, id));
    const [first] = await db().select().from(posts).where(eq(posts.id, topic!.firstPostId!));
    expect(first!.trashedAt).toBeNull();

    const list = await admin.get(`/api/admin/moderation?kind=topic&state=hidden&q=${encodeURIComponent(title)}`);
    expect(list.json().data).toEqual([
      expect.objectContaining({
        id,
        title,
        state: 'hidden',
        author: { id: member.user.id, name: 'Mo Member' },
        where: { label: `Category: ${cat.title}`, url: `/forums/topic/${id}` },
      }),
    ]);

    expect((await act('topic', id, 'restore')).json().data.state).toBe('visible');
    expect(await topicsFor()).toContain(id);
    expect(await lastAudit('moderation.restore')).toMatchObject({
      before: { state: 'hidden' },
      after: { state: 'visible' },
    });
  });

  it('deletes a topic and its posts for good', async () => {
    const { id } = await memberTopic();
    expect((await act('topic', id, 'delete')).json().data.state).toBe('deleted');
    expect(await db().select().from(forumTopics).where(eq(forumTopics.id, id))).toEqual([]);
    expect(
      await db()
        .select()
        .from(posts)
        .where(and(eq(posts.type, 'forumtopic'), eq(posts.resourceId, id))),
    ).toEqual([]);
    expect((await member.client.get(`/forums/api/topic/${id}`)).statusCode).toBe(404);
    expect(await lastAudit('moderation.delete')).toMatchObject({ targetType: 'topic', after: null });
    expect((await act('topic', id, 'restore')).statusCode).toBe(404);
  });

  it('hides a reply as a deleted placeholder, keeps the reply count right, restores it; a first post is refused', async () => {
    const { id } = await memberTopic();
    const body = `A rude reply ${uniq()}`;
    const [reply] = await db()
      .insert(posts)
      .values({ type: 'forumtopic', resourceId: id, userId: member.user.id, body })
      .returning();
    await db().update(forumTopics).set({ commentsCount: 1 }).where(eq(forumTopics.id, id));
    expect((await act('post', reply!.id, 'hide')).statusCode).toBe(200);
    const thread = await member.client.get(`/posts?type=forumtopic&id=${id}`);
    expect(thread.statusCode).toBe(200);
    expect(thread.body).not.toContain(body);
    expect((await db().select().from(forumTopics).where(eq(forumTopics.id, id)))[0]!.commentsCount).toBe(0);
    await act('post', reply!.id, 'restore');
    expect((await member.client.get(`/posts?type=forumtopic&id=${id}`)).body).toContain(body);
    expect((await db().select().from(forumTopics).where(eq(forumTopics.id, id)))[0]!.commentsCount).toBe(1);

    const [topic] = await db().select().from(forumTopics).where(eq(forumTopics.id, id));
    const refused = await act('post', topic!.firstPostId!, 'hide');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.action).toEqual([MODERATION_MESSAGES.firstPost]);
    // a first post is the topic's row in the list, not a post row
    const postsList = await admin.get(
      `/api/admin/moderation?kind=post&q=${encodeURIComponent(`Body of ${topic!.title}`)}`,
    );
    expect(postsList.json().total).toBe(0);
  });

  it('hides a chat message: gone from /live-chat/get, viewers told at once; its open reports are resolved', async () => {
    const [show] = await db()
      .insert(liveShows)
      .values({ title: 'Groove night', startsAt: new Date(), status: 'live', chatOpen: true })
      .returning();
    const [msg] = await db()
      .insert(chatMessages)
      .values({ showId: show!.id, userId: member.user.id, body: 'buy my stuff' })
      .returning();
    const reporter = await t.createUser();
    await db().insert(reports).values({ kind: 'chat', targetId: msg!.id, reporterId: reporter.id, reason: 'spam' });
    const socket: Socket = await t.socket(member.client);
    expect(await subscribe(socket, showChannel(show!.id))).toEqual({ ok: true });
    const events: Array<{ event: string; payload: unknown }> = [];
    socket.on('event', (m) => events.push(m));

    expect((await act('chat', msg!.id, 'hide')).statusCode).toBe(200);
    const page = await member.client.get(`/live-chat/get?showId=${show!.id}`);
    expect(page.json().messages.map((m: { id: number }) => m.id)).not.toContain(msg!.id);
    await vi.waitFor(() =>
      expect(events).toContainEqual(
        expect.objectContaining({ event: 'MessageHidden', payload: { messageId: msg!.id } }),
      ),
    );
    expect((await db().select().from(reports).where(eq(reports.targetId, msg!.id)))[0]!.status).toBe('resolved');

    await act('chat', msg!.id, 'restore');
    expect(
      (await member.client.get(`/live-chat/get?showId=${show!.id}`)).json().messages.map((m: { id: number }) => m.id),
    ).toContain(msg!.id);
    await act('chat', msg!.id, 'delete');
    expect(await db().select().from(chatMessages).where(eq(chatMessages.id, msg!.id))).toEqual([]);
  });

  it('hides and restores a wall comment on the member side', async () => {
    const [owner] = await db().select().from(users).where(eq(users.id, member.user.id));
    const body = `wall words ${uniq()}`;
    const [c] = await db().insert(wallComments).values({ toId: owner!.id, userId: owner!.id, body }).returning();
    const wall = () => member.client.get(`/profile-comments/${owner!.slug}`);
    expect((await wall()).body).toContain(body);
    await act('wall', c!.id, 'hide');
    expect((await wall()).body).not.toContain(body);
    await act('wall', c!.id, 'restore');
    expect((await wall()).body).toContain(body);
  });

  it('pages, filters by state and searches in the text and the author name, newest first', async () => {
    const tag = uniq();
    const author = await t.createUser({ name: `Searchable ${tag}` });
    const [owner] = await db().select().from(users).where(eq(users.id, member.user.id));
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const [c] = await db()
        .insert(wallComments)
        .values({ toId: owner!.id, userId: author.id, body: `note ${i}`, createdAt: new Date(Date.now() + i * 1000) })
        .returning();
      ids.push(c!.id);
    }
    await db().update(wallComments).set({ hiddenAt: new Date() }).where(eq(wallComments.id, ids[0]!));
    const byName = await admin.get(
      `/api/admin/moderation?kind=wall&q=${encodeURIComponent(`Searchable ${tag}`)}&per_page=2`,
    );
    expect(byName.json()).toMatchObject({ total: 3, pages: 2, page: 1, per_page: 2 });
    expect(byName.json().data.map((r: { id: number }) => r.id)).toEqual([ids[2], ids[1]]);
    const page2 = await admin.get(
      `/api/admin/moderation?kind=wall&q=${encodeURIComponent(`Searchable ${tag}`)}&per_page=2&page=2`,
    );
    expect(page2.json().data.map((r: { id: number }) => r.id)).toEqual([ids[0]]);
    const visible = await admin.get(
      `/api/admin/moderation?kind=wall&state=visible&q=${encodeURIComponent(`Searchable ${tag}`)}`,
    );
    expect(visible.json().total).toBe(2);
    const hidden = await admin.get(
      `/api/admin/moderation?kind=wall&state=hidden&q=${encodeURIComponent(`Searchable ${tag}`)}`,
    );
    expect(hidden.json().data).toEqual([
      expect.objectContaining({
        id: ids[0],
        state: 'hidden',
        where: { label: `${owner!.name}'s wall`, url: `/profile/${owner!.slug}` },
      }),
    ]);
    // % is a literal character in a search
    expect((await admin.get('/api/admin/moderation?kind=wall&q=%25%25%25zz')).json().total).toBe(0);
  });

  it('validates the kind, state and action', async () => {
    const bad = await admin.get('/api/admin/moderation?kind=email&state=gone');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.kind).toBeDefined();
    expect(bad.json().errors.state).toBeDefined();
    const badAction = await admin.post('/api/admin/moderation/wall/1', { action: 'burn' });
    expect(badAction.statusCode).toBe(422);
    expect(badAction.json().errors.action).toEqual(['Choose hide, restore or delete.']);
    expect((await act('wall', 99_999_999, 'hide')).statusCode).toBe(404);
  });
});

describe('reports queue', () => {
  it('writes an audit entry for each action', async () => {
    const reporter = await t.createUser();
    const [c] = await db()
      .insert(wallComments)
      .values({ toId: member.user.id, userId: member.user.id, body: 'reported words' })
      .returning();
    const [r] = await db()
      .insert(reports)
      .values({ kind: 'wall', targetId: c!.id, reporterId: reporter.id, reason: 'rude' })
      .returning();
    expect((await admin.post(`/api/admin/reports/${r!.id}`, { action: 'hide' })).statusCode).toBe(200);
    expect(await lastAudit('report.hide')).toMatchObject({
      targetType: 'report',
      targetId: String(r!.id),
      before: { status: 'open', target_hidden: false },
      after: { status: 'resolved', target_hidden: true },
    });
  });
});

describe('forum categories', () => {
  it('creates with field messages, a unique slug, and shows it to members', async () => {
    const empty = await admin.post('/api/admin/categories', { title: ' ', slug: 'Bad Slug!' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toMatchObject({
      title: [CATEGORY_MESSAGES.titleRequired],
      slug: [CATEGORY_MESSAGES.slugFormat],
    });
    const slug = `grooves-${uniq()}`;
    const created = await admin.post('/api/admin/categories', {
      title: 'Grooves',
      slug,
      description: 'All about grooves',
    });
    expect(created.statusCode, created.body).toBe(201);
    const cat = created.json().data;
    expect(cat).toMatchObject({ slug, title: 'Grooves', topics: 0, url: `/forums/${slug}` });
    expect(await lastAudit('category.create')).toMatchObject({
      targetId: String(cat.id),
      before: null,
      after: { slug },
    });
    const forums = (await member.client.get('/api/forums')).json().data;
    expect(forums.map((c: { slug: string }) => c.slug)).toContain(slug);
    // last in order by default
    expect(forums.at(-1).slug).toBe(slug);

    const dup = await admin.post('/api/admin/categories', { title: 'Again', slug });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors.slug).toEqual([CATEGORY_MESSAGES.slugTaken]);
    const other = await newCategory();
    const clash = await admin.post(`/api/admin/categories/${other.id}`, { title: 'x', slug });
    expect(clash.json().errors.slug).toEqual([CATEGORY_MESSAGES.slugTaken]);
    const edit = await admin.post(`/api/admin/categories/${cat.id}`, {
      title: 'Grooves & fills',
      slug,
      description: '',
    });
    expect(edit.json().data.title).toBe('Grooves & fills');
    expect(await lastAudit('category.update')).toMatchObject({
      before: { title: 'Grooves' },
      after: { title: 'Grooves & fills' },
    });
  });

  it('moves up and down, in the member list order too', async () => {
    const a = await newCategory();
    const b = await newCategory();
    const order = async () => (await member.client.get('/api/forums')).json().data.map((c: { id: number }) => c.id);
    const before = await order();
    expect(before.indexOf(a.id)).toBeLessThan(before.indexOf(b.id));
    expect((await admin.post(`/api/admin/categories/${b.id}/move`, { direction: 'up' })).statusCode).toBe(200);
    const after = await order();
    expect(after.indexOf(b.id)).toBe(after.indexOf(a.id) - 1);
    expect(await lastAudit('category.move')).toMatchObject({ targetId: String(b.id) });
    await admin.post(`/api/admin/categories/${b.id}/move`, { direction: 'down' });
    const back = await order();
    expect(back.indexOf(a.id)).toBe(back.indexOf(b.id) - 1);
    const list = await admin.get('/api/admin/categories?per_page=100');
    expect(list.json().data.map((c: { id: number }) => c.id)).toEqual(back);
  });

  it('deletes only an empty category (422 with a clear message), hidden topics counted', async () => {
    const { cat, id } = await memberTopic();
    await memberTopic().then(async (other) => {
      const moved = await admin.post(`/api/forums/topics/${other.id}/move`, { category_id: cat.id });
      expect(moved.statusCode).toBe(200);
    });
    expect((await act('topic', id, 'hide')).statusCode).toBe(200);
    expect((await admin.get(`/api/admin/categories/${cat.id}`)).json().data.topics).toBe(2);
    const refused = await admin.request('DELETE', `/api/admin/categories/${cat.id}`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(CATEGORY_MESSAGES.notEmpty(2));
    const empty = await newCategory();
    expect((await admin.request('DELETE', `/api/admin/categories/${empty.id}`)).statusCode).toBe(200);
    expect((await member.client.get(`/api/forums/${empty.slug}`)).statusCode).toBe(404);
    expect(await lastAudit('category.delete')).toMatchObject({ targetId: String(empty.id), after: null });
  });
});

describe('live shows', () => {
  const body = (over: Record<string, unknown> = {}) => ({
    title: `Show ${uniq()}`,
    description: 'Fills',
    starts_at: new Date(Date.now() + 86_400_000).toISOString(),
    video_url: 'https://youtu.be/dQw4w9WgXcQ',
    ...over,
  });

  it('schedules with field messages and shows it to members', async () => {
    const bad = await admin.post(
      '/api/admin/live-shows',
      body({ title: '', video_url: 'http://example.com/x', starts_at: 'soon' }),
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toMatchObject({
      title: [LIVE_MESSAGES.titleRequired],
      starts_at: [LIVE_MESSAGES.startsAtInvalid],
    });
    expect(bad.json().errors.video_url).toBeDefined();
    const notVideo = await admin.post('/api/admin/live-shows', body({ video_url: 'https://example.com/video' }));
    expect(notVideo.json().errors.video_url).toEqual([LIVE_MESSAGES.videoUrlInvalid]);
    const b = body();
    const res = await admin.post('/api/admin/live-shows', b);
    expect(res.statusCode, res.body).toBe(201);
    const show = res.json().data;
    expect(show).toMatchObject({
      title: b.title,
      status: 'scheduled',
      chat_open: false,
      video_url: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
    });
    expect(await lastAudit('live_show.create')).toMatchObject({ targetId: String(show.id) });
    const upcoming = (await member.client.get('/api/live/shows')).json().upcoming;
    expect(upcoming.map((s: { id: number }) => s.id)).toContain(show.id);
  });

  it('opens the chat, sets the topic, goes live and ends, telling viewers; lists and deletes', async () => {
    const show = (await admin.post('/api/admin/live-shows', body())).json().data;
    const socket = await t.socket(member.client);
    expect(await subscribe(socket, showChannel(show.id))).toEqual({ ok: true });
    const events: Array<{ event: string; payload: unknown }> = [];
    socket.on('event', (m) => events.push(m));

    expect((await admin.post(`/api/admin/live-shows/${show.id}/chat`, { open: true })).json().data.chat_open).toBe(
      true,
    );
    expect(await lastAudit('live_show.chat_open')).toMatchObject({
      before: { chat_open: false },
      after: { chat_open: true },
    });
    expect((await member.client.post('/live-chat/messages', { showId: show.id, body: 'hello' })).statusCode).toBe(200);
    expect(
      (await admin.post(`/api/admin/live-shows/${show.id}/topic`, { topic: 'Ghost notes' })).json().data.topic,
    ).toBe('Ghost notes');
    expect((await member.client.get(`/live-chat/get?showId=${show.id}`)).json().topic).toBe('Ghost notes');
    await vi.waitFor(() => {
      expect(events).toContainEqual(expect.objectContaining({ event: 'NewTopic', payload: { topic: 'Ghost notes' } }));
      expect(events).toContainEqual(expect.objectContaining({ event: 'ShowUpdated' }));
    });
    expect((await admin.post(`/api/admin/live-shows/${show.id}/topic`, { topic: '' })).json().data.topic).toBeNull();
    expect((await admin.post(`/api/admin/live-shows/${show.id}/status`, { status: 'live' })).json().data).toMatchObject(
      { status: 'live', chat_open: true },
    );
    expect((await member.client.get(`/api/live/shows/${show.id}`)).json().data.status).toBe('live');
    expect(
      (await admin.post(`/api/admin/live-shows/${show.id}/status`, { status: 'ended' })).json().data,
    ).toMatchObject({ status: 'ended', chat_open: false });

    const edited = await admin.post(`/api/admin/live-shows/${show.id}`, body({ title: 'Renamed show', video_url: '' }));
    expect(edited.json().data).toMatchObject({ title: 'Renamed show', video_url: null, messages: 1 });

    const listed = await admin.get('/api/admin/live-shows?status=ended&q=Renamed');
    expect(listed.json().data.map((s: { id: number }) => s.id)).toContain(show.id);
    expect((await admin.get('/api/admin/live-shows?status=nope')).statusCode).toBe(422);

    expect((await admin.request('DELETE', `/api/admin/live-shows/${show.id}`)).statusCode).toBe(200);
    expect((await member.client.get(`/api/live/shows/${show.id}`)).statusCode).toBe(404);
    expect(await lastAudit('live_show.delete')).toMatchObject({ targetId: String(show.id), after: null });
  });

  it('lists live and upcoming first (soonest first), then ended', async () => {
    const tag = uniq();
    const at = (h: number) => new Date(Date.now() + h * 3_600_000);
    const [ended] = await db()
      .insert(liveShows)
      .values({ title: `Order ${tag} ended`, startsAt: at(-5), status: 'ended' })
      .returning();
    const [later] = await db()
      .insert(liveShows)
      .values({ title: `Order ${tag} later`, startsAt: at(48) })
      .returning();
    const [soon] = await db()
      .insert(liveShows)
      .values({ title: `Order ${tag} soon`, startsAt: at(2) })
      .returning();
    const [now] = await db()
      .insert(liveShows)
      .values({ title: `Order ${tag} now`, startsAt: at(-1), status: 'live' })
      .returning();
    const list = await admin.get(`/api/admin/live-shows?q=${encodeURIComponent(`Order ${tag}`)}`);
    expect(list.json().data.map((s: { id: number }) => s.id)).toEqual([now!.id, soon!.id, later!.id, ended!.id]);
  });
});

describe('a member’s community history', () => {
  it('answers their latest content, counts, and reports against them', async () => {
    const who = await t.signedIn({ entitlements: ['membership'] });
    const cat = await newCategory();
    await who.client.post(`/api/forums/${cat.slug}/topics`, { title: 'My first topic', body: 'Hello all' });
    const [c] = await db()
      .insert(wallComments)
      .values({ toId: who.user.id, userId: who.user.id, body: 'my wall' })
      .returning();
    const reporter = await t.createUser();
    await db().insert(reports).values({ kind: 'wall', targetId: c!.id, reporterId: reporter.id, reason: 'mean' });
    const res = await admin.get(`/api/admin/members/${who.user.id}/community`);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.counts).toEqual({ posts: 0, topics: 1, chat: 0, wall: 1, reports_against: 1 });
    expect(data.topics[0]).toMatchObject({ title: 'My first topic', excerpt: 'Hello all' });
    expect(data.reports_against[0]).toMatchObject({ kind: 'wall', target_id: c!.id, reason: 'mean' });
    expect((await admin.get('/api/admin/members/99999999/community')).statusCode).toBe(404);
  });
});

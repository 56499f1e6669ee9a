import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { COMMUNITY, COMMUNITY_MESSAGES } from '#shared/community';
import { chatMessages, liveShows, posts, reports, wallComments } from '#server/db/schema/index';
import { createTestApp, type TestApp } from '#test/api-harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const db = () => t.app.deps.db;
async function wallComment(body = 'rude words') {
  const owner = await t.createUser();
  const [row] = await db().insert(wallComments).values({ toId: owner.id, userId: owner.id, body }).returning();
  return row!;
}
async function forumPost(body = 'bad post') {
  const author = await t.createUser();
  const [row] = await db()
    .insert(posts)
    .values({ type: 'forumtopic', resourceId: 7, userId: author.id, body })
    .returning();
  return row!;
}
async function chatMessage(body = 'spam spam') {
  const author = await t.createUser();
  const [show] = await db().insert(liveShows).values({ title: 'Show', startsAt: new Date() }).returning();
  const [row] = await db().insert(chatMessages).values({ showId: show!.id, userId: author.id, body }).returning();
  return row!;
}

describe('POST /api/reports', () => {
  it('answers 401 to a visitor, even with a bad body', async () => {
    const visitor = await t.client();
    expect((await visitor.post('/api/reports', { kind: 'wall', id: 1, reason: 'x' })).statusCode).toBe(401);
    expect((await visitor.post('/api/reports', {})).statusCode).toBe(401);
  });

  it('stores a report once: a second report of the same thing answers the first (200)', async () => {
    const c = await wallComment();
    const { user, client } = await t.signedIn();
    const first = await client.post('/api/reports', { kind: 'wall', id: c.id, reason: '  spam  ' });
    expect(first.statusCode).toBe(201);
    expect(first.json().data).toMatchObject({ kind: 'wall', target_id: c.id, reason: 'spam', status: 'open' });
    const again = await client.post('/api/reports', { kind: 'wall', id: c.id, reason: 'other words' });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.id).toBe(first.json().data.id);
    const rows = await db().select().from(reports).where(eq(reports.reporterId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.reason).toBe('spam');
  });

  it('validates the reason and kind with the product messages', async () => {
    const c = await wallComment();
    const { client } = await t.signedIn();
    const empty = await client.post('/api/reports', { kind: 'wall', id: c.id, reason: '   ' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.reason).toEqual([COMMUNITY_MESSAGES.reportReasonRequired]);
    expect((await client.post('/api/reports', { kind: 'wall', id: c.id })).json().errors.reason).toEqual([
      COMMUNITY_MESSAGES.reportReasonRequired,
    ]);
    const long = await client.post('/api/reports', {
      kind: 'wall',
      id: c.id,
      reason: 'x'.repeat(COMMUNITY.reportReasonMax + 1),
    });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors.reason).toBeDefined();
    expect(
      (await client.post('/api/reports', { kind: 'email', id: c.id, reason: 'x' })).json().errors.kind,
    ).toBeDefined();
  });

  it('answers 404 for a missing, trashed or hidden target', async () => {
    const { client } = await t.signedIn({ entitlements: ['membership'] });
    expect((await client.post('/api/reports', { kind: 'wall', id: 999999, reason: 'x' })).statusCode).toBe(404);
    expect((await client.post('/api/reports', { kind: 'post', id: 999999, reason: 'x' })).statusCode).toBe(404);
    expect((await client.post('/api/reports', { kind: 'chat', id: 999999, reason: 'x' })).statusCode).toBe(404);
    const p = await forumPost();
    await db().update(posts).set({ trashedAt: new Date() }).where(eq(posts.id, p.id));
    expect((await client.post('/api/reports', { kind: 'post', id: p.id, reason: 'x' })).statusCode).toBe(404);
    const w = await wallComment();
    await db().update(wallComments).set({ hiddenAt: new Date() }).where(eq(wallComments.id, w.id));
    expect((await client.post('/api/reports', { kind: 'wall', id: w.id, reason: 'x' })).statusCode).toBe(404);
  });

  it('keeps forum posts and chat to community members (403 with the members message)', async () => {
    const p = await forumPost();
    const m = await chatMessage();
    const free = await t.signedIn();
    for (const body of [
      { kind: 'post', id: p.id, reason: 'x' },
      { kind: 'chat', id: m.id, reason: 'x' },
    ]) {
      const res = await free.client.post('/api/reports', body);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(COMMUNITY_MESSAGES.communityMembersOnly);
    }
    const paying = await t.signedIn({ entitlements: ['membership'] });
    expect((await paying.client.post('/api/reports', { kind: 'post', id: p.id, reason: 'x' })).statusCode).toBe(201);
    expect((await paying.client.post('/api/reports', { kind: 'chat', id: m.id, reason: 'x' })).statusCode).toBe(201);
  });

  it('rate-limits a member with 429 (repeats do not count)', async () => {
    const { client } = await t.signedIn();
    const targets = await Promise.all(Array.from({ length: 21 }, () => wallComment()));
    for (let i = 0; i < 20; i++)
      expect((await client.post('/api/reports', { kind: 'wall', id: targets[i]!.id, reason: 'x' })).statusCode).toBe(
        201,
      );
    expect((await client.post('/api/reports', { kind: 'wall', id: targets[0]!.id, reason: 'x' })).statusCode).toBe(200);
    expect((await client.post('/api/reports', { kind: 'wall', id: targets[20]!.id, reason: 'x' })).statusCode).toBe(
      429,
    );
  });
});

describe('the admin queue', () => {
  it('is for admins only', async () => {
    const visitor = await t.client();
    expect((await visitor.get('/api/admin/reports')).statusCode).toBe(401);
    expect((await visitor.post('/api/admin/reports/1', { action: 'resolve' })).statusCode).toBe(401);
    const { client } = await t.signedIn({ entitlements: ['membership'] });
    expect((await client.get('/api/admin/reports')).statusCode).toBe(403);
    expect((await client.post('/api/admin/reports/1', { action: 'resolve' })).statusCode).toBe(403);
    const admin = await t.signedIn({ role: 'admin' });
    expect((await admin.client.post('/api/admin/reports/999999', { action: 'resolve' })).statusCode).toBe(404);
    expect((await admin.client.post('/api/admin/reports/1', { action: 'burn' })).statusCode).toBe(422);
    expect((await admin.client.get('/api/admin/reports?status=weird')).statusCode).toBe(422);
  });

  it('lists open reports with reporter, target text, author and link; resolve and dismiss move them', async () => {
    const admin = await t.signedIn({ role: 'admin' });
    const reporter = await t.signedIn({ name: 'Reporter Rita', entitlements: ['membership'] });
    const w = await wallComment('wall text here');
    const p = await forumPost('post text here');
    const m = await chatMessage('chat text here');
    const ids: Record<string, number> = {};
    for (const [kind, id] of [
      ['wall', w.id],
      ['post', p.id],
      ['chat', m.id],
    ] as const)
      ids[kind] = (await reporter.client.post('/api/reports', { kind, id, reason: `about ${kind}` })).json().data.id;

    const res = await admin.client.get('/api/admin/reports?status=open');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const mine = body.data.filter((r: { id: number }) => Object.values(ids).includes(r.id));
    const byKind = Object.fromEntries(mine.map((r: { kind: string }) => [r.kind, r]));
    expect(byKind.wall).toMatchObject({
      reason: 'about wall',
      reporter: { name: 'Reporter Rita' },
      target: { text: 'wall text here', exists: true },
    });
    expect(byKind.wall.target.link).toMatch(/^\/profile\//);
    expect(byKind.post.target).toMatchObject({ text: 'post text here', link: `/forums/topic/7#${p.id}` });
    expect(byKind.chat.target).toMatchObject({ text: 'chat text here', link: `/live/${m.showId}` });
    expect(byKind.chat.target.author.url).toMatch(/^\/profile\//);

    expect((await admin.client.post(`/api/admin/reports/${ids.wall}`, { action: 'resolve' })).json().data.status).toBe(
      'resolved',
    );
    expect((await admin.client.post(`/api/admin/reports/${ids.post}`, { action: 'dismiss' })).json().data.status).toBe(
      'dismissed',
    );
    const open = (await admin.client.get('/api/admin/reports')).json().data.map((r: { id: number }) => r.id);
    expect(open).toContain(ids.chat);
    expect(open).not.toContain(ids.wall);
    expect(
      (await admin.client.get('/api/admin/reports?status=resolved')).json().data.map((r: { id: number }) => r.id),
    ).toContain(ids.wall);
    expect(
      (await admin.client.get('/api/admin/reports?status=dismissed')).json().data.map((r: { id: number }) => r.id),
    ).toContain(ids.post);
    // nothing was hidden by resolve / dismiss
    expect((await db().select().from(wallComments).where(eq(wallComments.id, w.id)))[0]!.hiddenAt).toBeNull();
  });

  it('"hide" hides the target and resolves every open report on it', async () => {
    const admin = await t.signedIn({ role: 'admin' });
    const a = await t.signedIn({ entitlements: ['membership'] });
    const b = await t.signedIn({ entitlements: ['membership'] });
    const w = await wallComment('hide me');
    const owner = (await t.app.deps.services.users.findById(w.toId))!;
    const ra = (await a.client.post('/api/reports', { kind: 'wall', id: w.id, reason: 'x' })).json().data.id;
    const rb = (await b.client.post('/api/reports', { kind: 'wall', id: w.id, reason: 'y' })).json().data.id;
    expect((await a.client.get(`/profile-comments/${owner.slug}`)).json()).toHaveLength(1);
    const res = await admin.client.post(`/api/admin/reports/${ra}`, { action: 'hide' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBe('resolved');
    const rows = await db().select().from(reports).where(eq(reports.targetId, w.id));
    expect(
      rows
        .filter((r) => r.kind === 'wall')
        .map((r) => [r.id, r.status])
        .sort(),
    ).toEqual([
      [ra, 'resolved'],
      [rb, 'resolved'],
    ]);
    expect((await a.client.get(`/profile-comments/${owner.slug}`)).json()).toEqual([]);
    expect((await a.client.post('/api/reports', { kind: 'wall', id: w.id, reason: 'x' })).statusCode).toBe(200);

    const p = await forumPost();
    const m = await chatMessage();
    const rp = (await a.client.post('/api/reports', { kind: 'post', id: p.id, reason: 'x' })).json().data.id;
    const rm = (await a.client.post('/api/reports', { kind: 'chat', id: m.id, reason: 'x' })).json().data.id;
    await admin.client.post(`/api/admin/reports/${rp}`, { action: 'hide' });
    await admin.client.post(`/api/admin/reports/${rm}`, { action: 'hide' });
    expect((await db().select().from(posts).where(eq(posts.id, p.id)))[0]!.trashedAt).not.toBeNull();
    expect((await db().select().from(chatMessages).where(eq(chatMessages.id, m.id)))[0]!.hiddenAt).not.toBeNull();
    const resolved = (await admin.client.get('/api/admin/reports?status=resolved')).json();
    expect(resolved.data.find((r: { id: number }) => r.id === rp).target.hidden).toBe(true);
  });
});

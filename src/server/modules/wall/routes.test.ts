import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { COMMUNITY, COMMUNITY_MESSAGES } from '#shared/community';
import { WALL_TEXT, type WallCommentDto } from '#shared/wall';
import { notifications, users, wallComments } from '#server/db/schema/index';
import { createTestApp, type TestApp } from '#test/api-harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const slugOf = async (id: number) => (await t.app.deps.services.users.findById(id))!.slug;
async function member(opts: Parameters<TestApp['signedIn']>[0] = {}) {
  const { user, client } = await t.signedIn(opts);
  return { user, client, slug: await slugOf(user.id) };
}
const write = (
  client: Awaited<ReturnType<typeof member>>['client'],
  to_id: number,
  body: string,
  parent_id: number | null = null,
) => client.post('/profile-comments', { body, to_id, parent_id });

describe('profile walls: visitors', () => {
  it('answers 401 to every call', async () => {
    const owner = await member();
    const visitor = await t.client();
    expect((await visitor.get(`/profile-comments/${owner.slug}`)).statusCode).toBe(401);
    expect((await visitor.post('/profile-comments', { body: 'hi', to_id: owner.user.id })).statusCode).toBe(401);
    expect((await visitor.post('/profile-comments', {})).statusCode).toBe(401);
    const c = (await write(owner.client, owner.user.id, 'mine')).json()[0] as WallCommentDto;
    expect((await visitor.post(`/profile-comments/${c.id}`, { _method: 'delete' })).statusCode).toBe(401);
    expect((await visitor.request('DELETE', `/profile-comments/${c.id}`)).statusCode).toBe(401);
  });
});

describe('GET /profile-comments/{slug}', () => {
  it('answers an empty list for an empty wall and 404 for an unknown member', async () => {
    const owner = await member();
    const res = await owner.client.get(`/profile-comments/${owner.slug}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(res.headers['x-has-more']).toBe('0');
    expect((await owner.client.get('/profile-comments/nobody-at-all-here')).statusCode).toBe(404);
  });

  it('lists newest first with replies oldest first, in the spec shape, paged with X-Has-More', async () => {
    const owner = await member();
    const other = await member({ name: 'Wall Writer' });
    const ids: number[] = [];
    for (let i = 0; i < COMMUNITY.wallCommentsPerPage + 2; i++) {
      const [row] = await t.app.deps.db
        .insert(wallComments)
        .values({ toId: owner.user.id, userId: other.user.id, body: `c${i}` })
        .returning();
      ids.push(row!.id);
    }
    const newest = ids.at(-1)!;
    await t.app.deps.db.insert(wallComments).values([
      { toId: owner.user.id, userId: owner.user.id, parentId: newest, body: 'r1' },
      { toId: owner.user.id, userId: other.user.id, parentId: newest, body: 'r2' },
    ]);
    const res = await owner.client.get(`/profile-comments/${owner.slug}`);
    const list = res.json() as WallCommentDto[];
    expect(res.headers['x-has-more']).toBe('1');
    expect(list).toHaveLength(COMMUNITY.wallCommentsPerPage);
    expect(list[0]!.body).toBe(`c${COMMUNITY.wallCommentsPerPage + 1}`);
    expect(list[0]!.children.map((c) => c.body)).toEqual(['r1', 'r2']);
    expect(Object.keys(list[0]!).sort()).toEqual(
      [
        'admin',
        'author',
        'avatar_url',
        'can_delete',
        'children',
        'created_at',
        'id',
        'body',
        'parent_id',
        'permalink',
        'to_id',
        'user_id',
      ].sort(),
    );
    expect(list[0]!).toMatchObject({
      author: 'Wall Writer',
      permalink: `/profile/${other.slug}`,
      user_id: other.user.id,
      to_id: owner.user.id,
      admin: false,
      can_delete: true,
    });
    const page2 = await owner.client.get(`/profile-comments/${owner.slug}?page=2`);
    expect(page2.json().map((c: WallCommentDto) => c.body)).toEqual(['c1', 'c0']);
    expect(page2.headers['x-has-more']).toBe('0');
    // focus on one thread, by the parent or by a reply
    const focus = await owner.client.get(`/profile-comments/${owner.slug}?id=${list[0]!.children[1]!.id}`);
    expect(focus.json().map((c: WallCommentDto) => c.id)).toEqual([newest]);
    expect((await owner.client.get(`/profile-comments/${owner.slug}?id=999999`)).statusCode).toBe(404);
    // a third member may delete none of them
    const third = await member();
    const seen = (await third.client.get(`/profile-comments/${owner.slug}`)).json() as WallCommentDto[];
    expect(seen[0]!.can_delete).toBe(false);
    expect(seen[0]!.children[0]!.can_delete).toBe(false);
  });

  it('leaves out comments an admin hid, with their replies', async () => {
    const owner = await member();
    const [shown] = await t.app.deps.db
      .insert(wallComments)
      .values({ toId: owner.user.id, userId: owner.user.id, body: 'shown' })
      .returning();
    const [hidden] = await t.app.deps.db
      .insert(wallComments)
      .values({ toId: owner.user.id, userId: owner.user.id, body: 'hidden', hiddenAt: new Date() })
      .returning();
    await t.app.deps.db.insert(wallComments).values([
      { toId: owner.user.id, userId: owner.user.id, parentId: hidden!.id, body: 'under hidden' },
      { toId: owner.user.id, userId: owner.user.id, parentId: shown!.id, body: 'hidden reply', hiddenAt: new Date() },
    ]);
    const list = (await owner.client.get(`/profile-comments/${owner.slug}`)).json() as WallCommentDto[];
    expect(list.map((c) => c.body)).toEqual(['shown']);
    expect(list[0]!.children).toEqual([]);
  });
});

describe('POST /profile-comments', () => {
  it('answers the list with the new comment first, trimmed, and notifies the owner (escaped)', async () => {
    const owner = await member();
    const writer = await member({ name: '<b>Evil</b>' });
    await write(writer.client, owner.user.id, 'older');
    const res = await write(writer.client, owner.user.id, '  hello <script>x</script>  ');
    expect(res.statusCode).toBe(201);
    const list = res.json() as WallCommentDto[];
    expect(list.map((c) => c.body)).toEqual(['hello <script>x</script>', 'older']);
    expect(list[0]!.can_delete).toBe(true);
    const notes = await t.app.deps.db.select().from(notifications).where(eq(notifications.userId, owner.user.id));
    expect(notes).toHaveLength(2);
    expect(notes[0]!.body).toContain('&lt;b&gt;Evil&lt;/b&gt;');
    expect(notes[0]!.url).toBe(`/profile/${owner.slug}`);
  });

  it('puts a reply into its parent (oldest first) and the parent first; notifies the parent author', async () => {
    const owner = await member();
    const a = await member();
    const b = await member();
    const parent = (await write(a.client, owner.user.id, 'parent')).json()[0] as WallCommentDto;
    await write(a.client, owner.user.id, 'newer top');
    await write(owner.client, owner.user.id, 'first reply', parent.id);
    const res = await write(b.client, owner.user.id, 'second reply', parent.id);
    expect(res.statusCode).toBe(201);
    const list = res.json() as WallCommentDto[];
    expect(list.map((c) => c.body)).toEqual(['parent', 'newer top']);
    expect(list[0]!.children.map((c) => c.body)).toEqual(['first reply', 'second reply']);
    expect(list[0]!.children[1]!.parent_id).toBe(parent.id);
    const toA = await t.app.deps.db.select().from(notifications).where(eq(notifications.userId, a.user.id));
    // one per reply (by the owner, then by b)
    expect(toA.length).toBe(2);
    expect(toA.every((n) => n.body.includes('replied to your comment'))).toBe(true);
  });

  it('refuses a reply to a reply, to another wall, or to a missing comment', async () => {
    const owner = await member();
    const otherWall = await member();
    const parent = (await write(owner.client, owner.user.id, 'p')).json()[0] as WallCommentDto;
    const reply = (await write(owner.client, owner.user.id, 'r', parent.id)).json()[0].children[0] as WallCommentDto;
    for (const [to, pid] of [
      [owner.user.id, reply.id],
      [otherWall.user.id, parent.id],
      [owner.user.id, 999999],
    ] as const) {
      const res = await write(owner.client, to, 'nope', pid);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.parent_id).toEqual([WALL_TEXT.parentInvalid]);
    }
  });

  it('validates body and to_id with the product messages', async () => {
    const owner = await member();
    const empty = await write(owner.client, owner.user.id, '   ');
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.body).toEqual([COMMUNITY_MESSAGES.bodyRequired]);
    const missing = await owner.client.post('/profile-comments', { to_id: owner.user.id });
    expect(missing.json().errors.body).toEqual([COMMUNITY_MESSAGES.bodyRequired]);
    const long = await write(owner.client, owner.user.id, 'x'.repeat(COMMUNITY.wallBodyMax + 1));
    expect(long.statusCode).toBe(422);
    expect(long.json().message).toBe(COMMUNITY_MESSAGES.bodyTooLong(COMMUNITY.wallBodyMax));
    expect((await write(owner.client, owner.user.id, 'x'.repeat(COMMUNITY.wallBodyMax))).statusCode).toBe(201);
    const noWall = await write(owner.client, 999999, 'hi');
    expect(noWall.statusCode).toBe(422);
    expect(noWall.json().errors.to_id).toEqual([WALL_TEXT.toIdInvalid]);
    const suspended = await member();
    await t.app.deps.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.user.id));
    expect((await write(owner.client, suspended.user.id, 'hi')).json().errors.to_id).toEqual([WALL_TEXT.toIdInvalid]);
  });

  it('rate-limits a member with 429', async () => {
    const owner = await member();
    const flood = await member();
    for (let i = 0; i < 10; i++) expect((await write(flood.client, owner.user.id, `m${i}`)).statusCode).toBe(201);
    const res = await write(flood.client, owner.user.id, 'one too many');
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
    // someone else is not held back
    expect((await write(owner.client, owner.user.id, 'still fine')).statusCode).toBe(201);
  });
});

describe('POST /profile-comments/{id} with _method delete', () => {
  async function setup() {
    const owner = await member();
    const author = await member();
    const parent = (await write(author.client, owner.user.id, 'to delete')).json()[0] as WallCommentDto;
    await write(owner.client, owner.user.id, 'a reply', parent.id);
    return { owner, author, parent };
  }
  const count = async (toId: number) =>
    (await t.app.deps.db.select().from(wallComments).where(eq(wallComments.toId, toId))).length;

  it('lets the author delete, with the replies', async () => {
    const { owner, author, parent } = await setup();
    const res = await author.client.post(`/profile-comments/${parent.id}`, { _method: 'delete' });
    expect(res.statusCode).toBe(200);
    expect(res.json().deleted).toBe(2);
    expect(await count(owner.user.id)).toBe(0);
  });

  it('lets the wall owner delete (DELETE works too)', async () => {
    const { owner, parent } = await setup();
    expect((await owner.client.request('DELETE', `/profile-comments/${parent.id}`)).statusCode).toBe(200);
    expect(await count(owner.user.id)).toBe(0);
  });

  it('lets an admin delete', async () => {
    const { owner, parent } = await setup();
    const admin = await member({ role: 'admin' });
    expect((await admin.client.post(`/profile-comments/${parent.id}`, { _method: 'delete' })).statusCode).toBe(200);
    expect(await count(owner.user.id)).toBe(0);
  });

  it('refuses another member (403), a missing comment (404) and a reply author cannot delete the parent', async () => {
    const { owner, parent } = await setup();
    const other = await member();
    expect((await other.client.post(`/profile-comments/${parent.id}`, { _method: 'delete' })).statusCode).toBe(403);
    expect((await other.client.post('/profile-comments/999999', { _method: 'delete' })).statusCode).toBe(404);
    expect((await other.client.post('/profile-comments/abc', { _method: 'delete' })).statusCode).toBe(404);
    expect(await count(owner.user.id)).toBe(2);
    // a reply can be deleted on its own by its author
    const replier = await member();
    const reply = (await write(replier.client, owner.user.id, 'mine', parent.id))
      .json()[0]
      .children.at(-1) as WallCommentDto;
    expect((await replier.client.post(`/profile-comments/${parent.id}`, { _method: 'delete' })).statusCode).toBe(403);
    expect((await replier.client.post(`/profile-comments/${reply.id}`, { _method: 'delete' })).statusCode).toBe(200);
    expect(await count(owner.user.id)).toBe(2);
  });
});

/* eslint-disable max-lines -- one suite for this module's HTTP routes: the cases share the app, users and fixtures set up at its top */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { COMMUNITY, COMMUNITY_MESSAGES, type PostDto } from '#shared/community';
import { DEFAULT_AVATAR_URL, MESSAGES } from '#shared/constants';
import { LEARNING } from '#shared/learning';
import {
  courses,
  forumCategories,
  forumTopics,
  lessons,
  notifications,
  postAttachments,
  posts,
  topicWatches,
} from '#server/db/schema/index';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';

let t: TestApp;
let png: Buffer;
let topicId: number;
let topicBodyId: number;
let freeLessonId: number;
let paidLessonId: number;
let member: Awaited<ReturnType<TestApp['signedIn']>>;
let other: Awaited<ReturnType<TestApp['signedIn']>>;
let admin: Awaited<ReturnType<TestApp['signedIn']>>;
let free: Awaited<ReturnType<TestApp['signedIn']>>;
let visitor: TestClient;

async function newTopic(opts: { locked?: boolean; hidden?: boolean } = {}) {
  const db = t.app.deps.db;
  const [cat] = await db.select().from(forumCategories).limit(1);
  const [topic] = await db
    .insert(forumTopics)
    .values({
      categoryId: cat!.id,
      userId: member.user.id,
      title: 'Ghost <notes> & dynamics',
      locked: opts.locked ?? false,
      hiddenAt: opts.hidden ? new Date() : null,
    })
    .returning();
  const [first] = await db
    .insert(posts)
    .values({ type: 'forumtopic', resourceId: topic!.id, userId: member.user.id, body: 'The topic body' })
    .returning();
  await db.update(forumTopics).set({ firstPostId: first!.id }).where(eq(forumTopics.id, topic!.id));
  return { topicId: topic!.id, firstId: first!.id };
}

beforeAll(async () => {
  t = await createTestApp();
  png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#ea580c' } })
    .png()
    .toBuffer();
  member = await t.signedIn({ name: 'Maya <b>Chen</b>', entitlements: ['membership'] });
  other = await t.signedIn({ name: 'Other Member', entitlements: ['mentorship'] });
  admin = await t.signedIn({ name: 'Alex Admin', role: 'admin' });
  free = await t.signedIn({ name: 'Free Member' });
  visitor = await t.client();
  const db = t.app.deps.db;
  await db.insert(forumCategories).values({ slug: 'general', title: 'General' });
  ({ topicId, firstId: topicBodyId } = await newTopic());
  const [course] = await db.insert(courses).values({ slug: 'c1', title: 'Course' }).returning();
  const [l1] = await db
    .insert(lessons)
    .values({ courseId: course!.id, slug: 'free', title: 'Free lesson', membersOnly: false })
    .returning();
  const [l2] = await db
    .insert(lessons)
    .values({ courseId: course!.id, slug: 'paid', title: 'Paid lesson', membersOnly: true })
    .returning();
  freeLessonId = l1!.id;
  paidLessonId = l2!.id;
});
afterAll(async () => t.close());

async function reply(client: TestClient, body: Record<string, unknown>) {
  const res = await client.post('/posts', { type: 'forumtopic', resource_id: topicId, parent_id: null, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().post as PostDto;
}

describe('POST /posts and GET /posts', () => {
  it('a member replies; the thread lists parents newest first with replies oldest first, without the topic body', async () => {
    const a = await reply(member.client, { body: '  First parent https://youtu.be/dQw4w9WgXcQ  ' });
    expect(a.body).toBe('First parent https://youtu.be/dQw4w9WgXcQ');
    expect(a.videos).toEqual(['dQw4w9WgXcQ']);
    expect(a.permalink).toBe(`/forums/topic/${topicId}`);
    expect(a.mentorshipPermalink).toBe(`/mentorship/forums/topic/${topicId}`);
    expect(a.canEdit).toBe(true);
    expect(a.parentId).toBeNull();
    const b = await reply(other.client, { body: 'Second parent' });
    const r1 = await reply(other.client, { body: 'Reply one', parent_id: a.id, replying_to: a.id });
    expect(r1.parentId).toBe(a.id);
    expect(r1.replyingTo).toBe('Maya <b>Chen</b>');
    expect(r1.replyingToPermalink).toBe(`/forums/topic/${topicId}#${a.id}`);
    // a reply to a reply stays under the same parent and names the author replied to
    const r2 = await reply(member.client, { body: 'Reply two', parent_id: r1.id, replying_to: r1.id });
    expect(r2.parentId).toBe(a.id);
    expect(r2.replyingTo).toBe('Other Member');
    // replying to the topic body is a top-level post
    const top = await reply(member.client, { body: 'On the body', parent_id: topicBodyId });
    expect(top.parentId).toBeNull();

    const res = await other.client.get(`/posts?id=${topicId}&type=forumtopic`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { posts: PostDto[]; more: boolean; from: number | null };
    expect(body.posts.map((p) => p.id)).toEqual([top.id, b.id, a.id]);
    expect(body.posts.some((p) => p.id === topicBodyId)).toBe(false);
    expect(body.posts[2]!.children.map((c) => c.id)).toEqual([r1.id, r2.id]);
    expect(body.posts[2]!.canEdit).toBe(false);
    expect(body.posts[1]!.canEdit).toBe(true);
    expect(body.more).toBe(false);

    const [topic] = await t.app.deps.db.select().from(forumTopics).where(eq(forumTopics.id, topicId));
    expect(topic!.commentsCount).toBe(5);
  });

  it('pages parents by keyset cursor and caps replies with moreChildren; /posts/thread gives all of them', async () => {
    const { topicId: tid } = await newTopic();
    const ids: number[] = [];
    for (let i = 0; i < COMMUNITY.parentsPerPage + 2; i++) {
      const res = await t.app.deps.db
        .insert(posts)
        .values({ type: 'forumtopic', resourceId: tid, userId: other.user.id, body: `p${i}` })
        .returning();
      ids.push(res[0]!.id);
    }
    const parent = ids[ids.length - 1]!;
    for (let i = 0; i < COMMUNITY.repliesShown + 4; i++)
      await t.app.deps.db.insert(posts).values({
        type: 'forumtopic',
        resourceId: tid,
        userId: member.user.id,
        parentId: parent,
        replyingToId: parent,
        body: `r${i}`,
      });
    const page1 = (await member.client.get(`/posts?id=${tid}&type=forumtopic`)).json();
    expect(page1.posts).toHaveLength(COMMUNITY.parentsPerPage);
    expect(page1.more).toBe(true);
    expect(page1.posts[0].children).toHaveLength(COMMUNITY.repliesShown);
    expect(page1.posts[0].children[0].body).toBe('r0');
    expect(page1.posts[0].moreChildren).toBe(4);
    const page2 = (await member.client.get(`/posts?id=${tid}&type=forumtopic&from=${page1.from}`)).json();
    expect(page2.posts.map((p: PostDto) => p.id)).toEqual([ids[1], ids[0]]);
    expect(page2.more).toBe(false);

    const child = page1.posts[0].children[1] as PostDto;
    const thread = (await member.client.get(`/posts/thread?id=${tid}&type=forumtopic&post_id=${child.id}`)).json();
    expect(thread.posts).toHaveLength(1);
    expect(thread.posts[0].id).toBe(parent);
    expect(thread.posts[0].children).toHaveLength(COMMUNITY.repliesShown + 4);
    expect(thread.posts[0].moreChildren).toBe(0);
    // another resource's post is not part of this thread
    expect(
      (await member.client.get(`/posts/thread?id=${topicId}&type=forumtopic&post_id=${child.id}`)).statusCode,
    ).toBe(404);
  });

  it('permissions: visitor 401, free member 403 on the forum, hidden topic 404, locked topic 403 except for admins', async () => {
    expect((await visitor.post('/posts', { type: 'forumtopic', resource_id: topicId, body: 'x' })).statusCode).toBe(
      401,
    );
    const freeRead = await free.client.get(`/posts?id=${topicId}&type=forumtopic`);
    expect(freeRead.statusCode).toBe(403);
    expect(freeRead.json().message).toBe(COMMUNITY_MESSAGES.communityMembersOnly);
    const freePost = await free.client.post('/posts', { type: 'forumtopic', resource_id: topicId, body: 'x' });
    expect(freePost.statusCode).toBe(403);
    expect(freePost.json().message).toBe(COMMUNITY_MESSAGES.communityMembersOnly);
    expect((await visitor.get(`/posts?id=${topicId}&type=forumtopic`)).statusCode).toBe(401);
    expect((await visitor.get(`/inline-posts?type=lesson&id=${freeLessonId}`)).statusCode).toBe(401);
    expect((await visitor.get(`/posts/thread?id=${topicId}&type=forumtopic&post_id=${topicBodyId}`)).statusCode).toBe(
      401,
    );
    expect((await visitor.get(`/api/posts/${topicBodyId}`)).statusCode).toBe(401);

    const hidden = await newTopic({ hidden: true });
    expect((await member.client.get(`/posts?id=${hidden.topicId}&type=forumtopic`)).statusCode).toBe(404);
    expect((await admin.client.get(`/posts?id=${hidden.topicId}&type=forumtopic`)).statusCode).toBe(200);
    expect((await member.client.get(`/posts?id=999999&type=forumtopic`)).statusCode).toBe(404);

    const locked = await newTopic({ locked: true });
    const refused = await member.client.post('/posts', { type: 'forumtopic', resource_id: locked.topicId, body: 'x' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(COMMUNITY_MESSAGES.topicLocked);
    expect(
      (await admin.client.post('/posts', { type: 'forumtopic', resource_id: locked.topicId, body: 'Admin note' }))
        .statusCode,
    ).toBe(201);
  });

  it('validates body, type and parent', async () => {
    const empty = await member.client.post('/posts', { type: 'forumtopic', resource_id: topicId, body: '   ' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.body[0]).toBe(COMMUNITY_MESSAGES.bodyRequired);
    const long = await member.client.post('/posts', {
      type: 'forumtopic',
      resource_id: topicId,
      body: 'x'.repeat(COMMUNITY.postBodyMax + 1),
    });
    expect(long.json().errors.body[0]).toBe(COMMUNITY_MESSAGES.bodyTooLong(COMMUNITY.postBodyMax));
    const badType = await member.client.post('/posts', { type: 'wall', resource_id: topicId, body: 'x' });
    expect(badType.statusCode).toBe(422);
    const lessonPost = await member.client.post('/posts', {
      type: 'lesson',
      resource_id: freeLessonId,
      body: 'on a lesson',
    });
    const foreign = await member.client.post('/posts', {
      type: 'forumtopic',
      resource_id: topicId,
      parent_id: lessonPost.json().post.id,
      body: 'x',
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors.parent_id).toBeDefined();
  });

  it('notifies topic watchers and the author replied to once each, never the writer, with escaped HTML', async () => {
    const db = t.app.deps.db;
    const { topicId: tid } = await newTopic();
    const watcher = await t.createUser({ name: 'Watcher', entitlements: ['membership'] });
    await db.insert(topicWatches).values([
      { topicId: tid, userId: watcher.id },
      { topicId: tid, userId: other.user.id },
      { topicId: tid, userId: member.user.id },
    ]);
    const parent = (await other.client.post('/posts', { type: 'forumtopic', resource_id: tid, body: 'parent' })).json()
      .post as PostDto;
    const before = await db.select().from(notifications).where(eq(notifications.userId, other.user.id));
    const memberBefore = await db.select().from(notifications).where(eq(notifications.userId, member.user.id));
    await member.client.post('/posts', {
      type: 'forumtopic',
      resource_id: tid,
      parent_id: parent.id,
      replying_to: parent.id,
      body: 'hi',
    });
    const otherN = await db.select().from(notifications).where(eq(notifications.userId, other.user.id));
    expect(otherN.length - before.length).toBe(1);
    const latest = otherN[otherN.length - 1]!;
    expect(latest.body).toContain('Maya &lt;b&gt;Chen&lt;/b&gt;');
    expect(latest.body).toContain('Ghost &lt;notes&gt; &amp; dynamics');
    expect(latest.url).toMatch(new RegExp(`^/forums/topic/${tid}#\\d+$`));
    expect((await db.select().from(notifications).where(eq(notifications.userId, watcher.id))).length).toBe(2);
    expect((await db.select().from(notifications).where(eq(notifications.userId, member.user.id))).length).toBe(
      memberBefore.length,
    );
  });
});

describe('PATCH, revisions and DELETE /posts/{id}', () => {
  it('the author edits (revision kept, edited label); another member 403; admin may; anyone who reads sees revisions', async () => {
    const p = await reply(member.client, { body: 'Original text' });
    const edited = await member.client.request('PATCH', `/posts/${p.id}`, { body: 'Edited text' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().body).toBe('Edited text');
    expect(edited.json().editedAt).not.toBeNull();
    const refused = await other.client.request('PATCH', `/posts/${p.id}`, { body: 'Hijack' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(MESSAGES.forbidden);
    // _method override, as the product's other calls use it
    const byAdmin = await admin.client.post(`/posts/${p.id}`, { _method: 'patch', body: 'Moderated' });
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json().body).toBe('Moderated');
    const revs = await other.client.get(`/api/posts/${p.id}/revisions`);
    expect(revs.statusCode).toBe(200);
    expect(revs.json().data.map((r: { body: string }) => r.body)).toEqual(['Edited text', 'Original text']);
    expect((await free.client.get(`/api/posts/${p.id}/revisions`)).statusCode).toBe(403);
    expect((await visitor.request('PATCH', `/posts/${p.id}`, { body: 'x' })).statusCode).toBe(401);
    const empty = await member.client.request('PATCH', `/posts/${p.id}`, { body: '' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.body[0]).toBe(COMMUNITY_MESSAGES.bodyRequired);
  });

  it('delete: other member 403, author trashes it, replies stay, it renders as Deleted; trashed is 404 for edit, delete and like', async () => {
    const p = await reply(member.client, { body: 'To be removed' });
    const child = await reply(other.client, { body: 'A reply that stays', parent_id: p.id, replying_to: p.id });
    expect((await other.client.request('DELETE', `/posts/${p.id}`)).statusCode).toBe(403);
    expect((await visitor.request('DELETE', `/posts/${p.id}`)).statusCode).toBe(401);
    const del = await member.client.request('DELETE', `/posts/${p.id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ ok: true });
    const thread = (await other.client.get(`/posts/thread?id=${topicId}&type=forumtopic&post_id=${p.id}`)).json();
    const shown = thread.posts[0] as PostDto;
    expect(shown).toMatchObject({
      user: 'Deleted',
      avatarUrl: DEFAULT_AVATAR_URL,
      body: '',
      attachments: [],
      canEdit: false,
      trashed: true,
      userId: null,
    });
    expect(shown.children.map((c) => c.id)).toEqual([child.id]);
    expect(shown.children[0]!.replyingTo).toBe('Deleted');
    expect((await member.client.request('PATCH', `/posts/${p.id}`, { body: 'again' })).statusCode).toBe(404);
    expect((await member.client.request('DELETE', `/posts/${p.id}`)).statusCode).toBe(404);
    expect((await member.client.post('/toggle-like', { type: 'post', resource_id: p.id })).statusCode).toBe(404);
    // admins delete anyone's post (with _method too)
    expect((await admin.client.post(`/posts/${child.id}`, { _method: 'delete' })).json()).toEqual({ ok: true });
  });

  it('a post whose author is gone shows as Deleted', async () => {
    const gone = await t.signedIn({ name: 'Leaving', entitlements: ['membership'] });
    const p = await reply(gone.client, { body: 'bye' });
    await t.app.deps.db.update(posts).set({ userId: null }).where(eq(posts.id, p.id));
    const shown = (await member.client.get(`/api/posts/${p.id}`)).json().post as PostDto;
    expect(shown).toMatchObject({ user: 'Deleted', body: '', canEdit: false, avatarUrl: DEFAULT_AVATAR_URL });
  });
});

describe('POST /toggle-like', () => {
  it('likes and unlikes a post; visitor 401; free member 403 on a forum post', async () => {
    const p = await reply(other.client, { body: 'Like me' });
    expect((await member.client.post('/toggle-like', { type: 'post', resource_id: p.id })).json()).toEqual({
      liked: true,
      likes: 1,
    });
    const list = (await member.client.get(`/posts?id=${topicId}&type=forumtopic`)).json().posts as PostDto[];
    expect(list.find((x) => x.id === p.id)).toMatchObject({ numLikes: 1, authLiked: true });
    expect((await member.client.post('/toggle-like', { type: 'post', resource_id: p.id })).json()).toEqual({
      liked: false,
      likes: 0,
    });
    expect((await visitor.post('/toggle-like', { type: 'post', resource_id: p.id })).statusCode).toBe(401);
    expect((await free.client.post('/toggle-like', { type: 'post', resource_id: p.id })).statusCode).toBe(403);
    expect((await member.client.post('/toggle-like', { type: 'post', resource_id: 99999999 })).statusCode).toBe(404);
  });

  it('20 members liking at once give exactly 20; racing like/unlike never goes below 0', async () => {
    const p = await reply(other.client, { body: 'Popular' });
    const likers = await Promise.all(Array.from({ length: 20 }, () => t.signedIn({ entitlements: ['membership'] })));
    const answers = await Promise.all(
      likers.map((l) => l.client.post('/toggle-like', { type: 'post', resource_id: p.id })),
    );
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const [row] = await t.app.deps.db.select().from(posts).where(eq(posts.id, p.id));
    expect(row!.likesCount).toBe(20);
    // each of ten members toggles 3 times at once: an odd number of toggles, so each flips (liked → unliked)
    await Promise.all(
      likers
        .slice(0, 10)
        .flatMap((l) => [0, 1, 2].map(() => l.client.post('/toggle-like', { type: 'post', resource_id: p.id }))),
    );
    const [after] = await t.app.deps.db.select().from(posts).where(eq(posts.id, p.id));
    const { postLikes } = await import('#server/db/schema/index');
    const rows = await t.app.deps.db.select().from(postLikes).where(eq(postLikes.postId, p.id));
    expect(after!.likesCount).toBe(rows.length);
    // three flips each, in turn (the post's row is locked first): those ten end unliked
    expect(rows.length).toBe(10);
  });

  it('type forumtopic (the default) toggles the topic like, exactly', async () => {
    const { topicId: tid } = await newTopic();
    expect((await member.client.post('/toggle-like', { resource_id: tid })).json()).toEqual({ liked: true, likes: 1 });
    expect((await other.client.post('/toggle-like', { type: 'forumtopic', resource_id: tid })).json()).toEqual({
      liked: true,
      likes: 2,
    });
    expect((await member.client.post('/toggle-like', { resource_id: tid })).json()).toEqual({ liked: false, likes: 1 });
    expect((await free.client.post('/toggle-like', { resource_id: tid })).statusCode).toBe(403);
    expect(
      await t.app.deps.services.posts.toggleTopicLike(
        await t.app.deps.services.users.toAuthUser((await t.app.deps.services.users.findById(admin.user.id))!),
        tid,
      ),
    ).toEqual({ liked: true, likes: 2 });
  });
});

describe('attachments', () => {
  it('stores a real image, posts it once, and shows it on the post', async () => {
    const up = await member.client.upload('/attachments', 'file', 'kit.png', png);
    expect(up.statusCode, up.body).toBe(200);
    const filename = up.json().filename as string;
    expect(filename).toMatch(/^attachments\/[\w-]+\.png$/);
    expect(existsSync(path.join(t.config.dataDir, 'uploads', filename))).toBe(true);
    const p = await reply(member.client, { body: 'My kit', attachment: filename });
    expect(p.attachments).toEqual([filename]);
    // a posted file cannot be posted again nor deleted
    const again = await member.client.post('/posts', {
      type: 'forumtopic',
      resource_id: topicId,
      body: 'again',
      attachment: filename,
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.attachment[0]).toBe(COMMUNITY_MESSAGES.attachmentMissing);
    expect((await member.client.post('/attachments/delete', { filename })).statusCode).toBe(404);
    expect(existsSync(path.join(t.config.dataDir, 'uploads', filename))).toBe(true);
  });

  it('refuses a script named .png and a file too big, with the first message under errors.file', async () => {
    const script = await member.client.upload(
      '/attachments',
      'file',
      'evil.png',
      Buffer.from('<script>alert(1)</script>'),
    );
    expect(script.statusCode).toBe(422);
    expect(script.json()).toMatchObject({
      message: COMMUNITY_MESSAGES.attachmentInvalid,
      errors: { file: [COMMUNITY_MESSAGES.attachmentInvalid] },
    });
    const big = await member.client.upload(
      '/attachments',
      'file',
      'big.png',
      Buffer.concat([png, Buffer.alloc(COMMUNITY.attachmentMaxBytes)]),
    );
    expect(big.statusCode).toBe(422);
    expect(big.json().errors.file[0]).toBe(COMMUNITY_MESSAGES.attachmentTooBig);
    const none = await member.client.post('/attachments', {});
    expect(none.statusCode).toBe(422);
    expect((await visitor.upload('/attachments', 'file', 'a.png', png)).statusCode).toBe(401);
  });

  it("delete: only the requester's own unposted file, which really leaves the disk", async () => {
    const up = (await member.client.upload('/attachments', 'file', 'kit.png', png)).json();
    const file = path.join(t.config.dataDir, 'uploads', up.filename);
    expect((await other.client.post('/attachments/delete', { filename: up.filename })).statusCode).toBe(404);
    expect(existsSync(file)).toBe(true);
    expect((await visitor.post('/attachments/delete', { filename: up.filename })).statusCode).toBe(401);
    const ok = await member.client.post('/attachments/delete', { filename: up.filename });
    expect(ok.statusCode).toBe(200);
    expect(existsSync(file)).toBe(false);
    expect(
      await t.app.deps.db
        .select()
        .from(postAttachments)
        .where(and(eq(postAttachments.filename, up.filename))),
    ).toHaveLength(0);
    expect((await member.client.post('/attachments/delete', { filename: '../../etc/passwd' })).statusCode).toBe(404);
  });
});

describe('lesson discussion: GET /inline-posts', () => {
  it('a free lesson: any signed-in member; sorted upvoted/newest/oldest, paged, and the to focus mode', async () => {
    const db = t.app.deps.db;
    const [course] = await db.select().from(courses).limit(1);
    const [lesson] = await db
      .insert(lessons)
      .values({ courseId: course!.id, slug: 'free-2', title: 'Another free lesson', membersOnly: false })
      .returning();
    const freeLessonId = lesson!.id;
    const made: PostDto[] = [];
    for (let i = 0; i < COMMUNITY.inlinePostsPerPage + 1; i++) {
      const res = await free.client.post('/posts', {
        type: 'lesson',
        resource_id: freeLessonId,
        body: `lesson post ${i}`,
      });
      expect(res.statusCode).toBe(201);
      made.push(res.json().post);
    }
    expect(made[0]!.permalink).toBe(`/lessons/${freeLessonId}`);
    const favourite = made[3]!;
    await member.client.post('/toggle-like', { type: 'post', resource_id: favourite.id });
    const child = (
      await member.client.post('/posts', {
        type: 'lesson',
        resource_id: freeLessonId,
        parent_id: favourite.id,
        replying_to: favourite.id,
        body: 'a reply',
      })
    ).json().post;

    const upvoted = (await free.client.get(`/inline-posts?type=lesson&id=${freeLessonId}`)).json();
    expect(upvoted.page).toBe(1);
    expect(upvoted.pages).toBe(2);
    expect(upvoted.posts.data[0].id).toBe(favourite.id);
    expect(upvoted.posts.data[0].children[0].id).toBe(child.id);
    const newest = (await free.client.get(`/inline-posts?type=lesson&id=${freeLessonId}&sort=newest`)).json();
    expect(newest.posts.data[0].id).toBe(made[made.length - 1]!.id);
    const oldest = (await free.client.get(`/inline-posts?type=lesson&id=${freeLessonId}&sort=oldest&page=2`)).json();
    expect(oldest.page).toBe(2);
    expect(oldest.posts.data.map((p: PostDto) => p.id)).toEqual([made[made.length - 1]!.id]);
    const focus = (await free.client.get(`/inline-posts?type=lesson&id=${freeLessonId}&to=${child.id}`)).json();
    expect(focus.posts.data).toHaveLength(1);
    expect(focus.posts.data[0].id).toBe(favourite.id);
    expect(focus.pages).toBe(1);
    expect((await free.client.get(`/inline-posts?type=lesson&id=${freeLessonId}&to=99999999`)).statusCode).toBe(404);
  });

  it('a members-only lesson: 403 for a free member with the lesson message; 401-free reading rules for visitors', async () => {
    const res = await free.client.get(`/inline-posts?type=lesson&id=${paidLessonId}`);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(LEARNING.membersOnly);
    expect(
      (await free.client.post('/posts', { type: 'lesson', resource_id: paidLessonId, body: 'x' })).statusCode,
    ).toBe(403);
    expect(
      (await member.client.post('/posts', { type: 'lesson', resource_id: paidLessonId, body: 'members talk' }))
        .statusCode,
    ).toBe(201);
    expect((await visitor.post('/posts', { type: 'lesson', resource_id: freeLessonId, body: 'x' })).statusCode).toBe(
      401,
    );
    expect((await member.client.get(`/inline-posts?type=lesson&id=99999999`)).statusCode).toBe(404);
  });

  it('a member who bought the course on its own (course:{id}) reads and writes its lesson discussions', async () => {
    const [lesson] = await t.app.deps.db
      .select({ courseId: lessons.courseId })
      .from(lessons)
      .where(eq(lessons.id, paidLessonId));
    const buyer = await t.signedIn({ name: 'Course Buyer', entitlements: [`course:${lesson!.courseId}`] });
    expect((await buyer.client.get(`/inline-posts?type=lesson&id=${paidLessonId}`)).statusCode).toBe(200);
    expect(
      (await buyer.client.post('/posts', { type: 'lesson', resource_id: paidLessonId, body: 'bought it' })).statusCode,
    ).toBe(201);
    const otherCourse = await t.signedIn({
      name: 'Other Course Buyer',
      entitlements: [`course:${lesson!.courseId + 1000}`],
    });
    expect((await otherCourse.client.get(`/inline-posts?type=lesson&id=${paidLessonId}`)).statusCode).toBe(403);
  });
});

describe('GET /api/posts/{id}', () => {
  it('answers one post and where it lives', async () => {
    const p = await reply(member.client, { body: 'Show me' });
    const res = (await other.client.get(`/api/posts/${p.id}`)).json();
    expect(res).toMatchObject({
      type: 'forumtopic',
      resource_id: topicId,
      thread_parent_id: p.id,
      is_topic_body: false,
    });
    expect(res.post.id).toBe(p.id);
    expect((await free.client.get(`/api/posts/${p.id}`)).statusCode).toBe(403);
    expect((await member.client.get(`/api/posts/${topicBodyId}`)).json().is_topic_body).toBe(true);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect } from 'socket.io-client';
import type { AddressInfo } from 'node:net';
import { LEARNING } from '#shared/learning';
import { createTestApp, subscribe, type TestApp } from '#test/api-harness';
import { until } from '#test/until';
import { seedDemo } from '#server/demo/seed';

let t: TestApp;
let freeLessonId: number;
let memberLessonId: number;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.app.deps);
  const anon = await t.client();
  const welcome = (await anon.get('/api/courses/welcome-to-backbeat')).json().data;
  const groove = (await anon.get('/api/courses/groove-foundations')).json().data;
  freeLessonId = welcome.lessons[0].id;
  memberLessonId = groove.lessons[0].id;
});
afterAll(async () => t.close());

const subscriber = () => t.signedIn({ entitlements: ['membership'] });

describe('courses and lessons', () => {
  it('lists courses; members-only ones are locked without the membership', async () => {
    const free = await t.signedIn();
    const list = (await free.client.get('/api/courses')).json().data;
    expect(list.find((c: { slug: string }) => c.slug === 'welcome-to-backbeat')).toMatchObject({
      locked: false,
      is_welcome: true,
    });
    expect(list.find((c: { slug: string }) => c.slug === 'groove-foundations')).toMatchObject({ locked: true });
    const { client } = await subscriber();
    expect((await client.get('/api/courses')).json().data.every((c: { locked: boolean }) => !c.locked)).toBe(true);
  });

  it('a free member sees a members-only lesson without its video or paths', async () => {
    const { client } = await t.signedIn();
    const lesson = (await client.get(`/api/lessons/${memberLessonId}`)).json().data;
    expect(lesson).toMatchObject({ locked: true, video_url: null, paths: [] });
    const subscriberLesson = (await (await subscriber()).client.get(`/api/lessons/${memberLessonId}`)).json().data;
    expect(subscriberLesson.locked).toBe(false);
    expect(subscriberLesson.video_url).toMatch(/^https:\/\/www\.youtube-nocookie\.com\/embed\//);
    expect(subscriberLesson.paths.length).toBe(2);
    expect(subscriberLesson.next_lesson).toMatchObject({ title: 'Ghost Notes' });
  });

  it('unknown lessons and courses are 404', async () => {
    const c = await t.client();
    expect((await c.get('/api/lessons/999999')).statusCode).toBe(404);
    expect((await c.get('/api/courses/nope')).statusCode).toBe(404);
  });
});

describe('POST /lesson-completions', () => {
  it('needs sign-in, and the membership for a members-only lesson', async () => {
    const anon = await t.client();
    expect((await anon.post('/lesson-completions', { lesson_id: freeLessonId, complete: true })).statusCode).toBe(401);
    const free = await t.signedIn();
    const res = await free.client.post('/lesson-completions', { lesson_id: memberLessonId, complete: true });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(LEARNING.membersOnly);
  });

  it('course progress follows completions, for this member only', async () => {
    const { client } = await subscriber();
    const other = await subscriber();
    const done = (await client.post('/lesson-completions', { lesson_id: memberLessonId, complete: true })).json();
    expect(done).toMatchObject({ complete: true, progress: { completed: 1, total: 4, percent: 25 } });
    // twice is the same as once
    expect(
      (await client.post('/lesson-completions', { lesson_id: memberLessonId, complete: '1' }, { form: true })).json()
        .progress.completed,
    ).toBe(1);
    expect((await client.get('/api/courses/groove-foundations')).json().data.progress).toEqual({
      completed: 1,
      total: 4,
      percent: 25,
    });
    expect((await other.client.get('/api/courses/groove-foundations')).json().data.progress.completed).toBe(0);
    expect(
      (await client.post('/lesson-completions', { lesson_id: memberLessonId, complete: false })).json().progress
        .completed,
    ).toBe(0);
  });

  it("tells the member's other open tabs, with the course's progress", async () => {
    const { user, client } = await subscriber();
    const otherTab = await t.socket(client);
    expect(await subscribe(otherTab, `user.${user.id}`)).toEqual({ ok: true });
    const got = new Promise<{ event: string; payload: unknown }>((r) =>
      otherTab.on('event', (m: { event: string; payload: unknown }) => m.event === 'LessonStatus' && r(m)),
    );
    expect((await client.post('/lesson-completions', { lesson_id: memberLessonId, complete: true })).statusCode).toBe(
      200,
    );
    expect((await got).payload).toEqual({
      lesson_id: memberLessonId,
      complete: true,
      progress: { completed: 1, total: 4, percent: 25 },
    });
    otherTab.disconnect();
  });

  it('validates its body', async () => {
    const { client } = await subscriber();
    const res = await client.post('/lesson-completions', { lesson_id: 'abc', complete: true });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.lesson_id).toBeDefined();
  });
});

describe('POST /soundslice-path-completions', () => {
  it("stores the path's completion and tells the member's other tabs, not the sender's", async () => {
    const { user, client } = await subscriber();
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const open = async () => {
      const s = connect(base, { transports: ['websocket'], extraHeaders: { cookie }, forceNew: true });
      await new Promise<void>((r) => s.once('connect', () => r()));
      await new Promise((r) => s.emit('subscribe', `user.${user.id}`, r));
      return s;
    };
    const sender = await open();
    const otherTab = await open();
    const heard: unknown[] = [];
    sender.on('event', (m: { payload: unknown }) => heard.push(m.payload));
    const got = new Promise<{ payload: unknown }>((r) => otherTab.once('event', r));
    const lesson = (await client.get(`/api/lessons/${memberLessonId}`)).json().data;
    const res = await client.post(
      '/soundslice-path-completions',
      { soundslice_path_id: lesson.paths[0].id, complete: true },
      { headers: { 'x-socket-id': sender.id! } },
    );
    expect(res.json()).toEqual({ complete: true });
    expect((await got).payload).toEqual({ soundslice_path_id: lesson.paths[0].id, complete: true });
    expect((await client.get(`/api/lessons/${memberLessonId}`)).json().data.paths[0].complete).toBe(true);
    // a socket receives its events in the order they were sent: had the first change reached the
    // sending tab, it would have come before this one (made without a socket id, so every tab hears it)
    await client.post('/soundslice-path-completions', { soundslice_path_id: lesson.paths[0].id, complete: false });
    await until('the second change on the sending tab', () => heard.length > 0);
    expect(heard).toEqual([{ soundslice_path_id: lesson.paths[0].id, complete: false }]);
    sender.disconnect();
    otherTab.disconnect();
  });

  it('needs the membership for a members-only path', async () => {
    const sub = await subscriber();
    const pathId = (await sub.client.get(`/api/lessons/${memberLessonId}`)).json().data.paths[0].id;
    const free = await t.signedIn();
    expect(
      (await free.client.post('/soundslice-path-completions', { soundslice_path_id: pathId, complete: true }))
        .statusCode,
    ).toBe(403);
  });
});

describe('bookmarks', () => {
  it('saves to My Practice and removes again', async () => {
    const { client } = await t.signedIn();
    expect((await client.post('/lesson-bookmarks', { lesson_id: freeLessonId, bookmarked: true })).json()).toEqual({
      bookmarked: true,
    });
    expect((await client.get(`/api/lessons/${freeLessonId}`)).json().data.bookmarked).toBe(true);
    const list = (await client.get('/api/my-practice')).json().data;
    expect(list.map((l: { id: number }) => l.id)).toEqual([freeLessonId]);
    await client.post('/lesson-bookmarks', { lesson_id: freeLessonId, bookmarked: false });
    expect((await client.get('/api/my-practice')).json().data).toEqual([]);
    expect((await client.post('/lesson-bookmarks', { lesson_id: 999999, bookmarked: true })).statusCode).toBe(404);
  });
});

describe('stages and placement', () => {
  it('ticks checklist steps by the hash of their text, per member', async () => {
    const a = await t.signedIn();
    const b = await t.signedIn();
    const stage = (await a.client.get('/api/stages/1')).json().data;
    expect(stage.title).toBe('Basics Builder');
    const step = stage.steps[0];
    expect(step.hash_id).toMatch(/^[a-f0-9]{16}$/);
    expect(
      (await a.client.post('/stages/toggle-checkmark', { stage_id: 1, hash_id: step.hash_id, completed: true })).json(),
    ).toEqual({ completed: true });
    expect((await a.client.get('/api/stages/1')).json().data.steps[0].completed).toBe(true);
    expect((await b.client.get('/api/stages/1')).json().data.steps[0].completed).toBe(false);
    expect((await a.client.get('/api/stages')).json().data[0]).toMatchObject({ steps_done: 1, steps_total: 4 });
    const wrong = await a.client.post('/stages/toggle-checkmark', {
      stage_id: 2,
      hash_id: step.hash_id,
      completed: true,
    });
    expect(wrong.statusCode).toBe(422);
  });

  it('stores the placement stage', async () => {
    const { client } = await t.signedIn();
    expect((await client.post('/placement/set-stage', { stage: 3 })).json()).toEqual({
      stage: 3,
      title: 'Intermediate Icon',
    });
    expect((await client.get('/api/stages')).json().data.find((s: { current: boolean }) => s.current).id).toBe(3);
    expect((await client.post('/placement/set-stage', { stage: 6 })).json().message).toBe(
      'The stage must be between 1 and 5.',
    );
  });
});

describe('status and time zone', () => {
  it("sets only the signed-in member's own status", async () => {
    const { user, client } = await t.signedIn();
    const res = (
      await client.post(
        '/status',
        { status: 'Working on my left foot', _token: client.csrfToken },
        { form: true, csrf: false },
      )
    ).json();
    expect(res.status).toBe('Working on my left foot');
    const row = await t.app.deps.services.users.findById(user.id);
    expect(row!.status).toBe('Working on my left foot');
    expect((await (await t.client()).post('/status', { status: 'x' })).statusCode).toBe(401);
  });

  it('accepts a real IANA time zone only', async () => {
    const { client } = await t.signedIn();
    expect((await client.post('/dashboard/update-timezone', { timezone: 'Europe/Lisbon' })).json()).toEqual({
      timezone: 'Europe/Lisbon',
    });
    expect((await client.post('/dashboard/update-timezone', { timezone: 'Mars/Olympus' })).statusCode).toBe(422);
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { io as connect } from 'socket.io-client';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '#test/api-harness';
import { until } from '#test/until';
import { seedDemo } from '#server/demo/seed';

let t: TestApp;
let quizLessonId: number;
let freeQuizLessonId: number;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.app.deps);
  await t.app.deps.services.rewards.ensureDefaults();
  const anon = await t.client();
  quizLessonId = (await anon.get('/api/courses/groove-foundations')).json().data.lessons[0].id;
  freeQuizLessonId = (await anon.get('/api/courses/welcome-to-backbeat')).json().data.lessons[0].id;
});
afterAll(async () => t.close());

const points = async (client: Awaited<ReturnType<TestApp['signedIn']>>['client']) =>
  (await client.get('/api/achievements')).json().points as number;

describe('quiz', () => {
  it('the lesson shows questions and options but never the correct answers', async () => {
    const { client } = await t.signedIn({ entitlements: ['membership'] });
    const lesson = (await client.get(`/api/lessons/${quizLessonId}`)).json().data;
    expect(lesson.quiz.questions).toHaveLength(3);
    expect(JSON.stringify(lesson.quiz)).not.toContain('correct');
  });

  it('the server scores the answers (the sent score is ignored), pays points once', async () => {
    const { client } = await t.signedIn({ entitlements: ['membership'] });
    const failed = (await client.post('/lessons/quiz', { id: quizLessonId, score: 100, answers: [1, 1, 0] })).json();
    expect(failed).toMatchObject({ score: 33, passed: false, correct: 1, total: 3 });
    expect(await points(client)).toBe(0);
    const passed = (await client.post('/lessons/quiz', { id: quizLessonId, score: 0, answers: [1, 0, 1] })).json();
    expect(passed).toMatchObject({ score: 100, passed: true });
    expect(passed.next_lesson_url).toMatch(/^\/lessons\/\d+$/);
    await client.post('/lessons/quiz', { id: quizLessonId, answers: [1, 0, 1] });
    expect(await points(client)).toBe(20);
    const quizWhiz = (await client.get('/api/achievements'))
      .json()
      .data.find((a: { slug: string }) => a.slug === 'quiz-whiz');
    expect(quizWhiz.unlocked_at).not.toBeNull();
  });

  it('refuses incomplete answers, and members-only quizzes for free members', async () => {
    const sub = await t.signedIn({ entitlements: ['membership'] });
    expect((await sub.client.post('/lessons/quiz', { id: quizLessonId, answers: [1] })).statusCode).toBe(422);
    const free = await t.signedIn();
    expect((await free.client.post('/lessons/quiz', { id: quizLessonId, answers: [1, 0, 1] })).statusCode).toBe(403);
    expect((await free.client.post('/lessons/quiz', { id: freeQuizLessonId, answers: [1, 0, 1] })).json().passed).toBe(
      true,
    );
  });
});

describe('points and achievements', () => {
  it('completing a lesson pays once, however often it is toggled', async () => {
    const { client } = await t.signedIn();
    for (const complete of [true, false, true])
      await client.post('/lesson-completions', { lesson_id: freeQuizLessonId, complete });
    expect(await points(client)).toBe(10);
    const first = (await client.get('/api/achievements'))
      .json()
      .data.find((a: { slug: string }) => a.slug === 'first-lesson');
    expect(first).toMatchObject({ progress: 1, threshold: 1 });
    expect(first.unlocked_at).not.toBeNull();
  });

  it('PointsAdded and UnlockedAchievement arrive on the private channel', async () => {
    const { user, client } = await t.signedIn();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const s = connect(base, { transports: ['websocket'], extraHeaders: { cookie }, forceNew: true });
    await new Promise<void>((r) => s.once('connect', () => r()));
    await new Promise((r) => s.emit('subscribe', `user.${user.id}`, r));
    const events: Array<{ event: string; payload: Record<string, unknown> }> = [];
    s.on('event', (m) => events.push(m));
    await client.post('/journal/log-time-practiced', { minutes_practiced: 60 });
    await until(
      'PointsAdded and UnlockedAchievement',
      () => ['PointsAdded', 'UnlockedAchievement'].every((name) => events.some((e) => e.event === name)),
      { seen: () => events },
    );
    s.disconnect();
    expect(events.find((e) => e.event === 'PointsAdded')?.payload).toMatchObject({
      point: { points: 5, description: 'Practice time logged' },
      message: 'Earned 5 point(s) - Practice time logged',
    });
    expect(events.find((e) => e.event === 'UnlockedAchievement')?.payload).toEqual({
      imageUrl: '/images/achievements/first-hour.svg',
      progress: { details: { name: 'Woodshedder' } },
    });
    // a second session the same day pays nothing more
    await client.post('/journal/log-time-practiced', { minutes_practiced: 10 });
    expect(await points(client)).toBe(5);
  });
});

describe('the popup after a quiz', () => {
  it("announces the quiz's own achievement first, before one reached earlier that had not been announced", async () => {
    const { lessonCompletions } = await import('#server/db/schema/index');
    const { user, client } = await t.signedIn({ entitlements: ['membership'] });
    // a lesson completed without an award to unlock its achievement (First Steps is reached, not yet announced)
    await t.app.deps.db.insert(lessonCompletions).values({ userId: user.id, lessonId: freeQuizLessonId });
    const publish = vi.spyOn(t.app.deps.realtime, 'publish');
    try {
      expect((await client.post('/lessons/quiz', { id: quizLessonId, answers: [1, 0, 1] })).json().passed).toBe(true);
      const unlocked = publish.mock.calls
        .filter(([channel, event]) => channel === `user.${user.id}` && event === 'UnlockedAchievement')
        .map(([, , payload]) => (payload as { progress: { details: { name: string } } }).progress.details.name);
      expect(unlocked).toEqual(['Quiz Whiz', 'First Steps']);
    } finally {
      publish.mockRestore();
    }
  });
});

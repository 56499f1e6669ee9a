import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#test/api-harness';
import { localDay } from './service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ practicedToday: `Exercise ${i}`, startingTempo: '80', endingTempo: '90' }));

it('saves an entry from the hidden exercises field and lists only my own', async () => {
  const me = await t.signedIn();
  const other = await t.signedIn();
  const res = await me.client.post(
    '/journal',
    { exercises: JSON.stringify(rows(2)), notes: 'Felt good', _token: me.client.csrfToken },
    { form: true, csrf: false },
  );
  expect(res.statusCode).toBe(201);
  expect(res.json().data.exercises).toEqual(rows(2));
  expect((await me.client.get('/api/journal')).json().data).toHaveLength(1);
  expect((await other.client.get('/api/journal')).json().data).toHaveLength(0);
  expect((await (await t.client()).get('/api/journal')).statusCode).toBe(401);
});

it('refuses more than 10 exercises and changes nothing', async () => {
  const me = await t.signedIn();
  const res = await me.client.post('/journal', { exercises: JSON.stringify(rows(11)) });
  expect(res.statusCode).toBe(422);
  expect(res.json().message).toBe('A journal entry has at most 10 exercises.');
  expect((await me.client.get('/api/journal')).json().data).toHaveLength(0);
});

it('logs timer minutes and answers the redirect to follow', async () => {
  const me = await t.signedIn();
  const res = (await me.client.post('/journal/log-time-practiced', { minutes_practiced: 3 })).json();
  expect(res).toEqual({ minutes_practiced: 3, redirect: '/journal?logged=3' });
  await me.client.post('/journal/log-time-practiced', { minutes_practiced: '2' }, { form: true });
  const summary = (await me.client.get('/api/practice/summary')).json().data;
  expect(summary).toMatchObject({ today: 5, week: 5 });
  expect((await me.client.post('/journal/log-time-practiced', { minutes_practiced: 0 })).json().message).toBe(
    'The minutes practiced must be at least 1.',
  );
});

it('days follow the member time zone', () => {
  const lateUtc = new Date('2026-11-22T23:30:00Z');
  expect(localDay(lateUtc, 'UTC')).toBe('2026-11-22');
  expect(localDay(lateUtc, 'Asia/Tokyo')).toBe('2026-11-23');
  expect(localDay(lateUtc, 'America/Los_Angeles')).toBe('2026-11-22');
});

it('stats: minutes per day, streak, weekly goal and tempos over time, for me only', async () => {
  const me = await t.signedIn();
  const other = await t.signedIn();
  await me.client.post('/journal/log-time-practiced', { minutes_practiced: 25 });
  await me.client.post('/journal', {
    exercises: JSON.stringify([{ practicedToday: 'Paradiddles', startingTempo: '80', endingTempo: '96' }]),
  });
  const stats = (await me.client.get('/api/practice/stats')).json().data;
  expect(stats.days).toHaveLength(28);
  expect(stats.days.at(-1)).toEqual({ day: stats.today, minutes: 25 });
  expect(stats.streak).toEqual({ current: 1, longest: 1 });
  expect(stats.practiced_today).toBe(true);
  expect(stats.goal).toEqual({ days_per_week: 4, minutes_per_day: 20, days_met_this_week: 1 });
  expect(stats.tempos).toEqual([{ exercise: 'Paradiddles', points: [{ day: stats.today, tempo: 96 }] }]);
  expect((await other.client.get('/api/practice/stats')).json().data.streak).toEqual({ current: 0, longest: 0 });

  expect((await me.client.post('/api/practice/goal', { days_per_week: 5, minutes_per_day: 30 })).json()).toEqual({
    days_per_week: 5,
    minutes_per_day: 30,
  });
  expect((await me.client.get('/api/practice/stats')).json().data.goal.days_met_this_week).toBe(0);
  const bad = await me.client.post('/api/practice/goal', { days_per_week: 8, minutes_per_day: 30 });
  expect(bad.json().errors.days_per_week[0]).toBe('Choose 1 to 7 days a week.');
});

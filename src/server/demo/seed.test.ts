import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, count, eq, isNotNull, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import {
  chatMessages,
  courses,
  entitlements,
  forumTopics,
  lessons,
  liveShows,
  notifications,
  posts,
  soundslicePaths,
  stageSteps,
  stages,
  users,
  wallComments,
} from '#server/db/schema/index';
import { createTestApp, type TestApp } from '#test/api-harness';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from './seed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const total = async (table: PgTable, where?: SQL) => {
  const [row] = await t.app.deps.db.select({ n: count() }).from(table).where(where);
  return Number(row!.n);
};

it('loads the demo content once, in one go', async () => {
  expect(await seedDemo(t.app.deps)).toBe(true);
  expect(await seedDemo(t.app.deps)).toBe(false);
  expect(await total(users)).toBe(4);
  expect(await total(courses)).toBeGreaterThanOrEqual(3);
  expect(await total(lessons)).toBeGreaterThanOrEqual(10);
  expect(await total(lessons, isNotNull(lessons.videoUrl))).toBe(await total(lessons));
  expect(await total(soundslicePaths)).toBeGreaterThan(0);
  expect(await total(stages)).toBe(5);
  expect(await total(stageSteps)).toBeGreaterThanOrEqual(15);
  expect(await total(forumTopics)).toBeGreaterThanOrEqual(3);
  expect(await total(posts, isNotNull(posts.parentId))).toBeGreaterThan(0);
  // a show on air with its chat open, so the live page has something to show
  expect(await total(liveShows, and(eq(liveShows.status, 'live'), eq(liveShows.chatOpen, true)))).toBe(1);
  expect(await total(chatMessages)).toBeGreaterThan(0);
  expect(await total(wallComments, isNotNull(wallComments.parentId))).toBeGreaterThan(0);
  expect(await total(notifications)).toBeGreaterThan(0);
});

it('the four demo accounts sign in with the demo password and hold their roles', async () => {
  const expected = { admin: ['membership'], member: ['membership'], student: ['mentorship'], free: [] } as const;
  for (const [key, account] of Object.entries(DEMO_ACCOUNTS) as [keyof typeof DEMO_ACCOUNTS, { email: string }][]) {
    const c = await t.client();
    await c.signIn(account.email, DEMO_PASSWORD);
    const me = (await c.get('/api/me')).json().user;
    expect(me.isAdmin).toBe(key === 'admin');
    expect(me.entitlements).toEqual(expected[key]);
    if (key === 'admin') expect(me.isMentor).toBe(true);
  }
  expect(await total(entitlements)).toBe(3);
});

it('the member and the student paid through the sandbox, so the billing page shows a real purchase', async () => {
  const member = await t.client();
  await member.signIn(DEMO_ACCOUNTS.member.email, DEMO_PASSWORD);
  const m = (await member.get('/api/billing')).json();
  expect(m.memberships).toEqual([
    expect.objectContaining({
      source: 'subscription',
      title: 'Monthly membership',
      status: 'active',
      paymentMethod: 'Visa ending 4242',
    }),
  ]);
  expect(m.memberships[0].actions).toContain('cancel');
  expect(m.invoices).toHaveLength(1);
  const student = await t.client();
  await student.signIn(DEMO_ACCOUNTS.student.email, DEMO_PASSWORD);
  const s = (await student.get('/api/billing')).json();
  expect(s.mentorships).toEqual([
    expect.objectContaining({
      mentor: DEMO_ACCOUNTS.admin.name,
      status: 'active',
      schedule: expect.objectContaining({ paid: 1, total: 6 }),
    }),
  ]);
  expect(s.memberships).toEqual([]);
});

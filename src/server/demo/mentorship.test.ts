import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { courses, lessons } from '#server/db/schema/index';
import { createTestApp, type TestApp } from '#test/api-harness';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from './seed.ts';
import { MENTORSHIP_DEMO_COURSE } from './mentorship.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.app.deps);
});
afterAll(async () => t.close());

const as = async (key: keyof typeof DEMO_ACCOUNTS) => {
  const c = await t.client();
  await c.signIn(DEMO_ACCOUNTS[key].email, DEMO_PASSWORD);
  return c;
};

it('the demo student has the admin as mentor (assigned by their purchase: 6 card payments, the first made), three links and the four mentorship lessons', async () => {
  const student = await as('student');
  const overview = (await student.get('/api/mentorship/overview')).json();
  expect(overview).toMatchObject({
    role: 'student',
    mentor: { name: DEMO_ACCOUNTS.admin.name },
    status: 'active',
    links: 3,
    payment: { kind: 'instalments', paid: 1, total: 6, amountCents: 650_00, status: 'active' },
  });
  const { courses: list } = (await student.get('/api/mentorship/lessons')).json();
  expect(list.map((c: { title: string }) => c.title)).toEqual([MENTORSHIP_DEMO_COURSE.title]);
  expect(list[0].lessons).toHaveLength(4);
  const [course] = await t.app.deps.db.select().from(courses).where(eq(courses.slug, MENTORSHIP_DEMO_COURSE.slug));
  const rows = await t.app.deps.db.select().from(lessons).where(eq(lessons.courseId, course!.id));
  expect(rows.every((l) => l.videoUrl?.startsWith('https://www.youtube-nocookie.com/embed/'))).toBe(true);
});

it('the admin mentors the demo student; the academy lists no mentorship course', async () => {
  const admin = await as('admin');
  const mine = (await admin.get('/api/mentorship/students?mine=1')).json();
  expect(mine.students.map((s: { name: string }) => s.name)).toEqual([DEMO_ACCOUNTS.student.name]);
  const academy = (await admin.get('/api/courses')).json().data as Array<{ slug: string }>;
  expect(academy.some((c) => c.slug === MENTORSHIP_DEMO_COURSE.slug)).toBe(false);
});

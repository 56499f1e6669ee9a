/* eslint-disable max-lines -- one suite for this module's HTTP routes: the cases share the app, users and fixtures set up at its top */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  ACCOUNTABILITY_LIMITS,
  ACCOUNTABILITY_MESSAGES,
  MENTORSHIP_AREA_TEXT,
  MENTORSHIP_MESSAGES,
  MENTORSHIP_STUDENTS_PER_PAGE,
  accountabilityLinksAnswerSchema,
  mentorshipLessonAnswerSchema,
  mentorshipLessonsAnswerSchema,
  mentorshipOverviewSchema,
  mentorshipStudentDetailSchema,
  mentorshipStudentsAnswerSchema,
  mentorsAnswerSchema,
  type AccountabilityLink,
  type PracticePlanPhases,
} from '#shared/mentorship';
import {
  accountabilityLinks,
  courses,
  instalmentPlans,
  lessonCompletions,
  lessons,
  mentorships,
  notifications,
  practicePlans,
  users,
  videoSubmissions,
} from '#server/db/schema/index';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';

let t: TestApp;
let mCourse: { id: number; slug: string };
let mLessons: number[];
let mainLesson: number;
let mainCourseSlug: string;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.deps.db;
  const [main] = await db
    .insert(courses)
    .values({ slug: 'main-course', title: 'Main Course', membersOnly: false, position: 0 })
    .returning();
  const [ml] = await db
    .insert(lessons)
    .values({
      courseId: main!.id,
      slug: 'main-lesson',
      title: 'Main Lesson',
      membersOnly: false,
      position: 0,
      videoUrl: 'https://www.youtube-nocookie.com/embed/main0000001',
    })
    .returning();
  mainLesson = ml!.id;
  mainCourseSlug = main!.slug;
  const [mc] = await db
    .insert(courses)
    .values({ slug: 'mentorship-foundations', title: 'Mentorship Foundations', area: 'mentorship', position: 1 })
    .returning();
  mCourse = mc!;
  const rows = await db
    .insert(lessons)
    .values(
      [0, 1, 2].map((i) => ({
        courseId: mc!.id,
        slug: `m-${i}`,
        title: `Mentor Lesson ${i + 1}`,
        description: `About ${i + 1}`,
        position: i,
        videoUrl: `https://www.youtube-nocookie.com/embed/mentor0000${i}`,
      })),
    )
    .returning();
  mLessons = rows.map((r) => r.id);
});
afterAll(async () => t.close());

const student = (name?: string) => t.signedIn({ entitlements: ['mentorship'], ...(name ? { name } : {}) });
const admin = (name?: string) => t.signedIn({ role: 'admin', ...(name ? { name } : {}) });
const free = () => t.signedIn();
const member = () => t.signedIn({ entitlements: ['membership'] });
const addLink = (c: TestClient, student_id: number, url = 'https://www.youtube.com/watch?v=abc', label = 'Week 1') =>
  c.post('/mentorship/accountability/links', { student_id, url, label });
const linksOf = async (studentId: number) =>
  t.app.deps.db.select().from(accountabilityLinks).where(eq(accountabilityLinks.studentId, studentId));

describe('permissions: visitors 401, members without the mentorship 403', () => {
  it('answers every call so, before looking at the body', async () => {
    const visitor = await t.client();
    const { client: freeClient } = await free();
    const { client: memberClient } = await member();
    const { user: s } = await student();
    const calls: Array<[string, string, Record<string, unknown>?]> = [
      ['GET', '/api/mentorship/overview'],
      ['GET', '/api/mentorship/lessons'],
      ['GET', `/api/mentorship/lessons/${mLessons[0]}`],
      ['POST', '/mentorship/lesson-completions', { lesson_id: mLessons[0], complete: true }],
      ['POST', '/mentorship/lesson-completions', {}],
      ['GET', `/mentorship/accountability?student_id=${s.id}`],
      ['POST', '/mentorship/accountability/links', { student_id: s.id, url: 'https://x.test', label: '' }],
      ['POST', '/mentorship/accountability/links', {}],
      ['POST', '/mentorship/accountability/links/1', { _method: 'delete' }],
      ['DELETE', '/mentorship/accountability/links/1'],
      ['POST', '/mentorship/accountability/save-label', { student_id: s.id, links: [] }],
    ];
    for (const [method, url, body] of calls) {
      const asVisitor = await visitor.request(method as 'GET', url, body);
      expect(asVisitor.statusCode, `${method} ${url}`).toBe(401);
      for (const c of [freeClient, memberClient]) {
        const res = await c.request(method as 'GET', url, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().message).toBe(MENTORSHIP_MESSAGES.mentorshipOnly);
      }
    }
  });

  it('keeps the mentors’ calls to admins: a student is 403 too', async () => {
    const visitor = await t.client();
    const { client: freeClient } = await free();
    const { user: s, client: studentClient } = await student();
    const calls: Array<[string, string, Record<string, unknown>?]> = [
      ['GET', '/api/mentorship/students'],
      ['GET', '/api/mentorship/students?mine=1'],
      ['GET', `/api/mentorship/students/${s.id}`],
      ['POST', `/api/mentorship/students/${s.id}/mentor`, { mentor_id: 1 }],
      ['GET', '/api/mentorship/mentors'],
    ];
    for (const [method, url, body] of calls) {
      expect((await visitor.request(method as 'GET', url, body)).statusCode, url).toBe(401);
      expect((await freeClient.request(method as 'GET', url, body)).statusCode, url).toBe(403);
      expect((await studentClient.request(method as 'GET', url, body)).statusCode, url).toBe(403);
    }
  });

  it('refuses a state change without the CSRF token', async () => {
    const { user, client } = await student();
    const res = await client.post(
      '/mentorship/accountability/links',
      { student_id: user.id, url: 'https://x.test', label: '' },
      { csrf: false },
    );
    expect(res.statusCode).toBe(419);
    expect(await linksOf(user.id)).toHaveLength(0);
  });
});

describe('mentorship lessons', () => {
  it('lists only mentorship courses with the viewer’s completion flags', async () => {
    const { user, client } = await student();
    await t.app.deps.db.insert(lessonCompletions).values({ userId: user.id, lessonId: mLessons[1]! });
    const res = await client.get('/api/mentorship/lessons');
    expect(res.statusCode).toBe(200);
    const { courses: list } = mentorshipLessonsAnswerSchema.parse(res.json());
    expect(list.map((c) => c.slug)).toEqual(['mentorship-foundations']);
    expect(list[0]!.lessons.map((l) => [l.title, l.complete])).toEqual([
      ['Mentor Lesson 1', false],
      ['Mentor Lesson 2', true],
      ['Mentor Lesson 3', false],
    ]);
    expect(list[0]!.progress).toEqual({ complete: 1, total: 3 });
  });

  it('answers a lesson with its video, course, previous and next; another area’s lesson is 404', async () => {
    const { client } = await student();
    const res = await client.get(`/api/mentorship/lessons/${mLessons[1]}`);
    expect(res.statusCode).toBe(200);
    const { lesson } = mentorshipLessonAnswerSchema.parse(res.json());
    expect(lesson).toMatchObject({
      id: mLessons[1],
      title: 'Mentor Lesson 2',
      video_url: 'https://www.youtube-nocookie.com/embed/mentor00001',
      course: { id: mCourse.id, title: 'Mentorship Foundations' },
      number: 2,
      count: 3,
      previous: { id: mLessons[0], title: 'Mentor Lesson 1' },
      next: { id: mLessons[2], title: 'Mentor Lesson 3' },
      complete: false,
    });
    const first = mentorshipLessonAnswerSchema.parse(
      (await client.get(`/api/mentorship/lessons/${mLessons[0]}`)).json(),
    ).lesson;
    expect(first.previous).toBeNull();
    expect('quiz' in first).toBe(false);
    expect((await client.get(`/api/mentorship/lessons/${mainLesson}`)).statusCode).toBe(404);
    expect((await client.get('/api/mentorship/lessons/99999')).statusCode).toBe(404);
  });

  it('POST /mentorship/lesson-completions completes and un-completes, only mentorship lessons', async () => {
    const { user, client } = await student();
    const done = await client.post('/mentorship/lesson-completions', { lesson_id: mLessons[2], complete: true });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ lesson_id: mLessons[2], complete: true });
    // twice is fine
    expect(
      (await client.post('/mentorship/lesson-completions', { lesson_id: mLessons[2], complete: '1' }, { form: true }))
        .statusCode,
    ).toBe(200);
    expect(
      mentorshipLessonAnswerSchema.parse((await client.get(`/api/mentorship/lessons/${mLessons[2]}`)).json()).lesson
        .complete,
    ).toBe(true);
    const undone = await client.post('/mentorship/lesson-completions', { lesson_id: mLessons[2], complete: false });
    expect(undone.json()).toEqual({ lesson_id: mLessons[2], complete: false });
    expect(
      await t.app.deps.db.select().from(lessonCompletions).where(eq(lessonCompletions.userId, user.id)),
    ).toHaveLength(0);
    // a main-area lesson: 404, nothing stored
    const other = await client.post('/mentorship/lesson-completions', { lesson_id: mainLesson, complete: true });
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe(MENTORSHIP_AREA_TEXT.lessonNotFound);
    expect(
      await t.app.deps.db.select().from(lessonCompletions).where(eq(lessonCompletions.userId, user.id)),
    ).toHaveLength(0);
    expect((await client.post('/mentorship/lesson-completions', { lesson_id: 'x', complete: true })).statusCode).toBe(
      422,
    );
  });

  it('a mentorship lesson pays no points and does not count towards the academy’s lesson achievements', async () => {
    const { user, client } = await student();
    expect(
      (await client.post('/mentorship/lesson-completions', { lesson_id: mLessons[1], complete: true })).statusCode,
    ).toBe(200);
    // the next reward of any kind evaluates the achievements (a journal entry here)
    expect(
      (
        await client.post('/journal', {
          exercises: JSON.stringify([{ practicedToday: 'Singles', startingTempo: '', endingTempo: '' }]),
        })
      ).statusCode,
    ).toBe(201);
    const first = (await client.get('/api/achievements'))
      .json()
      .data.find((a: { slug: string }) => a.slug === 'first-lesson');
    expect(first).toMatchObject({ progress: 0, unlocked_at: null });
    await client.post('/mentorship/lesson-completions', { lesson_id: mLessons[1], complete: false });
    expect(
      await t.app.deps.db.select().from(lessonCompletions).where(eq(lessonCompletions.userId, user.id)),
    ).toHaveLength(0);
  });

  it('admins open and complete mentorship lessons too', async () => {
    const { client } = await admin();
    expect((await client.get('/api/mentorship/lessons')).statusCode).toBe(200);
    expect(
      (await client.post('/mentorship/lesson-completions', { lesson_id: mLessons[0], complete: true })).json(),
    ).toEqual({ lesson_id: mLessons[0], complete: true });
  });
});

describe('the learning area never shows mentorship courses', () => {
  it('lists, opens, completes, bookmarks and continues main courses only', async () => {
    const { client } = await t.signedIn({ entitlements: ['membership', 'mentorship'] });
    const list = (await client.get('/api/courses')).json().data as Array<{ slug: string }>;
    expect(list.map((c) => c.slug)).toEqual([mainCourseSlug]);
    expect((await client.get(`/api/courses/${mCourse.slug}`)).statusCode).toBe(404);
    expect((await client.get(`/api/courses/${mainCourseSlug}`)).statusCode).toBe(200);
    expect((await client.get(`/api/lessons/${mLessons[0]}`)).statusCode).toBe(404);
    expect((await client.get(`/api/lessons/${mainLesson}`)).statusCode).toBe(200);
    expect((await client.post('/lesson-completions', { lesson_id: mLessons[0], complete: true })).statusCode).toBe(404);
    expect((await client.post('/lesson-bookmarks', { lesson_id: mLessons[0], bookmarked: true })).statusCode).toBe(404);
    // "continue" skips the mentorship lessons even when the main ones are all done
    await client.post('/lesson-completions', { lesson_id: mainLesson, complete: true });
    expect((await client.get('/api/continue')).json().data).toBeNull();
    const guest = await t.client();
    expect(((await guest.get('/api/courses')).json().data as Array<{ slug: string }>).map((c) => c.slug)).toEqual([
      mainCourseSlug,
    ]);
  });
});

describe('accountability links', () => {
  it('a student adds, lists, relabels and deletes their own links', async () => {
    const { user, client } = await student();
    const empty = await client.get('/mentorship/accountability');
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ links: [] });
    const added = await addLink(
      client,
      user.id,
      '  https://www.youtube.com/watch?v=abcdefghijklmnopqrstuvwxyz0123456789  ',
      '  Week 1  ',
    );
    expect(added.statusCode).toBe(201);
    const first = accountabilityLinksAnswerSchema.parse(added.json()).links[0]!;
    expect(first).toMatchObject({
      url: 'https://www.youtube.com/watch?v=abcdefghijklmnopqrstuvwxyz0123456789',
      label: 'Week 1',
    });
    expect(Date.parse(first.created_at)).not.toBeNaN();
    await addLink(client, user.id, 'http://example.com/two', '');
    const listed = accountabilityLinksAnswerSchema.parse(
      (await client.get(`/mentorship/accountability?student_id=${user.id}`)).json(),
    ).links;
    expect(listed.map((l) => l.url)).toEqual(['http://example.com/two', first.url]);

    const saved = await client.post('/mentorship/accountability/save-label', {
      student_id: user.id,
      links: listed.map((l, i) => ({ id: l.id, label: `label ${i} ` })),
    });
    expect(saved.statusCode).toBe(200);
    expect(accountabilityLinksAnswerSchema.parse(saved.json()).links.map((l) => l.label)).toEqual([
      'label 0 ',
      'label 1 ',
    ]);

    const del = await client.post(`/mentorship/accountability/links/${first.id}`, { _method: 'delete' });
    expect(del.statusCode).toBe(200);
    expect(accountabilityLinksAnswerSchema.parse(del.json()).links.map((l) => l.id)).toEqual([listed[0]!.id]);
    expect((await client.request('DELETE', `/mentorship/accountability/links/${listed[0]!.id}`)).json()).toEqual({
      links: [],
    });
    expect((await client.post(`/mentorship/accountability/links/${first.id}`, { _method: 'delete' })).statusCode).toBe(
      404,
    );
  });

  it('the page shares the address: a browser navigation gets HTML, a call gets JSON', async () => {
    const { client } = await student();
    const page = await client.page('/mentorship/accountability');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const call = await client.get('/mentorship/accountability');
    expect(call.headers['content-type']).toContain('application/json');
    expect(call.headers['cache-control']).toBe('no-store');
    const visitor = await t.client();
    const redirected = await visitor.page('/mentorship/accountability');
    expect(redirected.statusCode).toBe(302);
    expect(redirected.headers.location).toBe(`/login?to=${encodeURIComponent('/mentorship/accountability')}`);
  });

  it('checks the address, the label and the per-student limit with field messages', async () => {
    const { user, client } = await student();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ student_id: user.id, url: '', label: '' }, 'url', ACCOUNTABILITY_MESSAGES.urlRequired],
      [{ student_id: user.id, label: '' }, 'url', ACCOUNTABILITY_MESSAGES.urlRequired],
      [{ student_id: user.id, url: 'javascript:alert(1)', label: '' }, 'url', ACCOUNTABILITY_MESSAGES.urlInvalid],
      [{ student_id: user.id, url: 'ftp://files.test/a', label: '' }, 'url', ACCOUNTABILITY_MESSAGES.urlInvalid],
      [{ student_id: user.id, url: 'youtube.com/watch', label: '' }, 'url', ACCOUNTABILITY_MESSAGES.urlInvalid],
      [
        { student_id: user.id, url: `https://x.test/${'a'.repeat(ACCOUNTABILITY_LIMITS.url)}`, label: '' },
        'url',
        ACCOUNTABILITY_MESSAGES.urlTooLong,
      ],
      [
        { student_id: user.id, url: 'https://x.test', label: 'x'.repeat(ACCOUNTABILITY_LIMITS.label + 1) },
        'label',
        ACCOUNTABILITY_MESSAGES.labelTooLong,
      ],
    ];
    for (const [body, field, message] of cases) {
      const res = await client.post('/mentorship/accountability/links', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.json().errors[field][0]).toBe(message);
    }
    expect(await linksOf(user.id)).toHaveLength(0);
    const tooLong = await client.post('/mentorship/accountability/save-label', {
      student_id: user.id,
      links: [{ id: 1, label: 'x'.repeat(ACCOUNTABILITY_LIMITS.label + 1) }],
    });
    expect(tooLong.statusCode).toBe(422);

    await t.app.deps.db.insert(accountabilityLinks).values(
      Array.from({ length: ACCOUNTABILITY_LIMITS.linksPerStudent }, (_, i) => ({
        studentId: user.id,
        url: `https://x.test/${i}`,
      })),
    );
    const full = await addLink(client, user.id);
    expect(full.statusCode).toBe(422);
    expect(full.json().errors.url[0]).toBe(ACCOUNTABILITY_MESSAGES.tooMany);
    expect(await linksOf(user.id)).toHaveLength(ACCOUNTABILITY_LIMITS.linksPerStudent);
  });

  it('another student’s links are 403 on read, add, delete and save-label, and stay untouched', async () => {
    const a = await student();
    const b = await student();
    const bLink = accountabilityLinksAnswerSchema.parse(
      (await addLink(b.client, b.user.id, 'https://b.test/1', 'B label')).json(),
    ).links[0]!;
    const read = await a.client.get(`/mentorship/accountability?student_id=${b.user.id}`);
    expect(read.statusCode).toBe(403);
    expect(read.json().message).toBe(MENTORSHIP_MESSAGES.notYourStudent);
    expect((await addLink(a.client, b.user.id, 'https://a.test/sneaky')).statusCode).toBe(403);
    expect(
      (await a.client.post(`/mentorship/accountability/links/${bLink.id}`, { _method: 'delete' })).statusCode,
    ).toBe(403);
    expect((await a.client.request('DELETE', `/mentorship/accountability/links/${bLink.id}`)).statusCode).toBe(403);
    expect(
      (
        await a.client.post('/mentorship/accountability/save-label', {
          student_id: b.user.id,
          links: [{ id: bLink.id, label: 'hacked' }],
        })
      ).statusCode,
    ).toBe(403);
    const rows = await linksOf(b.user.id);
    expect(rows.map((r) => [r.url, r.label])).toEqual([['https://b.test/1', 'B label']]);
  });

  it('save-label changes only labels of the named student’s links: other students’ ids are ignored', async () => {
    const a = await student();
    const b = await student();
    const aLink = accountabilityLinksAnswerSchema.parse(
      (await addLink(a.client, a.user.id, 'https://a.test/1', 'mine')).json(),
    ).links[0]!;
    const bLink = accountabilityLinksAnswerSchema.parse(
      (await addLink(b.client, b.user.id, 'https://b.test/1', 'theirs')).json(),
    ).links[0]!;
    const res = await a.client.post('/mentorship/accountability/save-label', {
      student_id: a.user.id,
      links: [
        { id: aLink.id, label: 'renamed', url: 'https://evil.test' },
        { id: bLink.id, label: 'hacked' },
        { id: 99999, label: 'nobody' },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(accountabilityLinksAnswerSchema.parse(res.json()).links).toEqual([{ ...aLink, label: 'renamed' }]);
    const [bRow] = await linksOf(b.user.id);
    expect(bRow).toMatchObject({ label: 'theirs', url: 'https://b.test/1', studentId: b.user.id });
    // an admin's save-label for student A cannot reach B's link either
    const { client: adminClient } = await admin();
    await adminClient.post('/mentorship/accountability/save-label', {
      student_id: a.user.id,
      links: [{ id: bLink.id, label: 'admin hack' }],
    });
    expect((await linksOf(b.user.id))[0]!.label).toBe('theirs');
  });

  it('an admin manages any student’s links; the student sees them and is notified', async () => {
    const s = await student('Lina Student');
    const { user: adminUser, client } = await admin('Mentor Max');
    const added = await addLink(client, s.user.id, 'https://mentor.test/video', 'From your mentor');
    expect(added.statusCode).toBe(201);
    const link = accountabilityLinksAnswerSchema.parse(added.json()).links[0]!;
    expect((await linksOf(s.user.id))[0]).toMatchObject({ createdBy: adminUser.id, studentId: s.user.id });
    const seen = accountabilityLinksAnswerSchema.parse((await s.client.get('/mentorship/accountability')).json()).links;
    expect(seen.map((l) => l.url)).toEqual(['https://mentor.test/video']);
    const [note] = await t.app.deps.db.select().from(notifications).where(eq(notifications.userId, s.user.id));
    expect(note).toMatchObject({ area: 'mentorship', url: '/mentorship/accountability' });
    expect(note!.body).toContain('Mentor Max');

    expect((await client.get(`/mentorship/accountability?student_id=${s.user.id}`)).json().links).toHaveLength(1);
    const relabelled = await client.post('/mentorship/accountability/save-label', {
      student_id: s.user.id,
      links: [{ id: link.id, label: 'Watch this' }],
    });
    expect(relabelled.json().links[0].label).toBe('Watch this');
    expect((await client.post(`/mentorship/accountability/links/${link.id}`, { _method: 'delete' })).json()).toEqual({
      links: [],
    });
    // the student's own deletes work on links the admin added
    const again = accountabilityLinksAnswerSchema.parse((await addLink(client, s.user.id)).json()).links[0]!;
    expect(
      (await s.client.post(`/mentorship/accountability/links/${again.id}`, { _method: 'delete' })).statusCode,
    ).toBe(200);
  });

  it('an admin naming someone who is not a mentorship student gets 404', async () => {
    const { client } = await admin();
    const { user: freeUser } = await free();
    const { user: otherAdmin } = await admin();
    for (const id of [freeUser.id, otherAdmin.id, 999999]) {
      expect((await client.get(`/mentorship/accountability?student_id=${id}`)).statusCode).toBe(404);
      expect((await addLink(client, id)).statusCode).toBe(404);
      expect(
        (await client.post('/mentorship/accountability/save-label', { student_id: id, links: [] })).statusCode,
      ).toBe(404);
    }
    expect(await linksOf(freeUser.id)).toHaveLength(0);
  });

  it('a student’s new link tells their mentor', async () => {
    const { user: mentor } = await admin();
    const s = await student('Noah Notify');
    await t.app.deps.db.insert(mentorships).values({ studentId: s.user.id, mentorId: mentor.id, option: 'onetime' });
    await addLink(s.client, s.user.id);
    const [note] = await t.app.deps.db.select().from(notifications).where(eq(notifications.userId, mentor.id));
    expect(note).toMatchObject({ area: 'mentorship', url: `/mentorship/students/${s.user.id}` });
    expect(note!.body).toContain('Noah Notify');
  });

  it('limits how fast links are added (429 with Retry-After); labels are not limited', async () => {
    const { user, client } = await student();
    await t.app.deps.limiters.consume('accountabilityLinksPerUser', String(user.id), 30);
    const res = await addLink(client, user.id);
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await linksOf(user.id)).toHaveLength(0);
    expect(
      (await client.post('/mentorship/accountability/save-label', { student_id: user.id, links: [] })).statusCode,
    ).toBe(200);
  });
});

const phases = (days: boolean[][]): PracticePlanPhases => ({
  phase1: days.map((week, w) =>
    week.map((complete, d) => ({ id: `d${w}-${d}`, title: 'Day', complete, exercises: [] })),
  ),
  phase2: [],
  phase3: [],
});

describe('GET /api/mentorship/overview', () => {
  it('a student sees their mentor, plan progress, links, videos, lessons and payment', async () => {
    const { user: mentor } = await admin('Alex Mentor');
    const s = await student();
    const db = t.app.deps.db;
    await db.insert(mentorships).values({ studentId: s.user.id, mentorId: mentor.id, option: 'onetime' });
    await db.insert(practicePlans).values({
      studentId: s.user.id,
      phases: phases([
        [true, true],
        [true, false, false],
      ]),
    });
    await db.insert(videoSubmissions).values([
      {
        studentId: s.user.id,
        title: 'v1',
        path: 'x/1.mp4',
        originalName: '1.mp4',
        mimeType: 'video/mp4',
        size: 10,
        feedback: 'Nice',
      },
      { studentId: s.user.id, title: 'v2', path: 'x/2.mp4', originalName: '2.mp4', mimeType: 'video/mp4', size: 10 },
    ]);
    await db.insert(lessonCompletions).values({ userId: s.user.id, lessonId: mLessons[0]! });
    await addLink(s.client, s.user.id);
    const res = await s.client.get('/api/mentorship/overview');
    expect(res.statusCode).toBe(200);
    const o = mentorshipOverviewSchema.parse(res.json());
    expect(o).toMatchObject({
      role: 'student',
      mentor: { id: mentor.id, name: 'Alex Mentor' },
      status: 'active',
      plan: { daysComplete: 3, daysTotal: 5, currentWeek: { phase: 1, week: 2, daysComplete: 1, daysTotal: 3 } },
      links: 1,
      videos: { total: 2, awaitingFeedback: 1 },
      lessons: { complete: 1, total: 3 },
      payment: { kind: 'paid_in_full', option: 'onetime' },
      pastDue: false,
    });
  });

  it('shows an instalment plan, and a past-due one raises pastDue', async () => {
    const s = await student();
    const db = t.app.deps.db;
    await db.insert(mentorships).values({ studentId: s.user.id, option: '3', status: 'past_due' });
    const due = new Date(Date.now() + 86_400_000);
    await db.insert(instalmentPlans).values({
      userId: s.user.id,
      option: '3',
      provider: 'sandbox',
      providerRef: `sub_${s.user.id}`,
      amountCents: 120000,
      instalmentsTotal: 3,
      instalmentsPaid: 1,
      status: 'past_due',
      nextDueAt: due,
    });
    const o = mentorshipOverviewSchema.parse((await s.client.get('/api/mentorship/overview')).json());
    expect(o).toMatchObject({
      role: 'student',
      mentor: null,
      status: 'past_due',
      pastDue: true,
      plan: { daysComplete: 0, daysTotal: 0, currentWeek: null },
    });
    expect(o.role === 'student' && o.payment).toEqual({
      kind: 'instalments',
      paid: 1,
      total: 3,
      amountCents: 120000,
      status: 'past_due',
      nextDueAt: due.toISOString(),
    });
    // a student with the entitlement only (no enrolment row): no mentor, no payment
    const bare = await student();
    expect(mentorshipOverviewSchema.parse((await bare.client.get('/api/mentorship/overview')).json())).toMatchObject({
      status: null,
      payment: { kind: 'none' },
      pastDue: false,
    });
  });

  it('an admin sees their students, all students and videos awaiting feedback', async () => {
    const { user: me, client } = await admin();
    const before = mentorshipOverviewSchema.parse((await client.get('/api/mentorship/overview')).json());
    expect(before).toMatchObject({ role: 'admin', myStudents: 0, myVideosAwaitingFeedback: 0 });
    const s = await student();
    await t.app.deps.db.insert(mentorships).values({ studentId: s.user.id, mentorId: me.id, option: 'onetime' });
    await t.app.deps.db.insert(videoSubmissions).values({
      studentId: s.user.id,
      title: 'v',
      path: 'x/3.mp4',
      originalName: '3.mp4',
      mimeType: 'video/mp4',
      size: 10,
    });
    const after = mentorshipOverviewSchema.parse((await client.get('/api/mentorship/overview')).json());
    if (after.role !== 'admin' || before.role !== 'admin') throw new Error('expected the admin overview');
    expect(after.myStudents).toBe(1);
    expect(after.allStudents).toBe(before.allStudents + 1);
    expect(after.videosAwaitingFeedback).toBe(before.videosAwaitingFeedback + 1);
    expect(after.myVideosAwaitingFeedback).toBe(1);
  });
});

describe('mentors’ student views (admins)', () => {
  it('lists students (not admins or free members), mine or all, searchable and paged', async () => {
    const { user: me, client } = await admin('Searching Mentor');
    const { user: otherMentor } = await admin();
    const tag = `zq${Date.now().toString(36)}`;
    const mine = await student(`${tag} Mine`);
    const theirs = await student(`${tag} Theirs`);
    const loose = await student(`${tag} Loose`); // entitlement only, no enrolment row
    await t.signedIn({ name: `${tag} Free` });
    await t.app.deps.db.insert(mentorships).values([
      { studentId: mine.user.id, mentorId: me.id, option: 'onetime' },
      { studentId: theirs.user.id, mentorId: otherMentor.id, option: '3', status: 'past_due' },
    ]);
    await t.app.deps.db
      .insert(practicePlans)
      .values({ studentId: mine.user.id, phases: phases([[true, false]]), updatedBy: mine.user.id });
    await t.app.deps.db.insert(videoSubmissions).values({
      studentId: mine.user.id,
      title: 'v',
      path: 'x/4.mp4',
      originalName: '4.mp4',
      mimeType: 'video/mp4',
      size: 10,
    });

    const all = mentorshipStudentsAnswerSchema.parse((await client.get(`/api/mentorship/students?q=${tag}`)).json());
    expect(all.students.map((s) => s.name)).toEqual([`${tag} Loose`, `${tag} Mine`, `${tag} Theirs`]);
    expect(all.more).toBe(false);
    const m = all.students.find((s) => s.id === mine.user.id)!;
    expect(m).toMatchObject({
      mentor: { id: me.id, name: 'Searching Mentor' },
      status: 'active',
      planProgress: { daysComplete: 1, daysTotal: 2 },
      videosAwaitingFeedback: 1,
    });
    expect(m.lastActivity).not.toBeNull();
    expect(all.students.find((s) => s.id === loose.user.id)).toMatchObject({
      mentor: null,
      status: null,
      lastActivity: null,
      videosAwaitingFeedback: 0,
    });
    expect(all.students.find((s) => s.id === theirs.user.id)!.status).toBe('past_due');

    const onlyMine = mentorshipStudentsAnswerSchema.parse((await client.get('/api/mentorship/students?mine=1')).json());
    expect(onlyMine.students.map((s) => s.id)).toEqual([mine.user.id]);
    // search by e-mail, and LIKE wildcards are taken literally
    expect(
      mentorshipStudentsAnswerSchema
        .parse((await client.get(`/api/mentorship/students?q=${encodeURIComponent(theirs.user.email)}`)).json())
        .students.map((s) => s.id),
    ).toEqual([theirs.user.id]);
    expect(
      mentorshipStudentsAnswerSchema.parse((await client.get('/api/mentorship/students?q=%25%25')).json()).students,
    ).toEqual([]);
    expect((await client.get('/api/mentorship/students?page=0')).statusCode).toBe(422);
  });

  it('pages by MENTORSHIP_STUDENTS_PER_PAGE with `more`', async () => {
    const { client } = await admin();
    const tag = `pg${Date.now().toString(36)}`;
    for (let i = 0; i < MENTORSHIP_STUDENTS_PER_PAGE + 1; i++)
      await t.createUser({ name: `${tag} ${String(i).padStart(2, '0')}`, entitlements: ['mentorship'] });
    const p1 = mentorshipStudentsAnswerSchema.parse((await client.get(`/api/mentorship/students?q=${tag}`)).json());
    expect(p1.students).toHaveLength(MENTORSHIP_STUDENTS_PER_PAGE);
    expect(p1.more).toBe(true);
    const p2 = mentorshipStudentsAnswerSchema.parse(
      (await client.get(`/api/mentorship/students?q=${tag}&page=2`)).json(),
    );
    expect(p2.students.map((s) => s.name)).toEqual([`${tag} ${MENTORSHIP_STUDENTS_PER_PAGE}`]);
    expect(p2.more).toBe(false);
  });

  it('answers one student’s detail; 404 for someone who is not a mentorship student', async () => {
    const { user: me, client } = await admin('Detail Mentor');
    const s = await student('Dana Detail');
    await t.app.deps.db.insert(mentorships).values({ studentId: s.user.id, mentorId: me.id, option: 'onetime' });
    await addLink(s.client, s.user.id, 'https://dana.test/1', 'one');
    await t.app.deps.db.insert(videoSubmissions).values([
      {
        studentId: s.user.id,
        title: 'first',
        path: 'x/5.mp4',
        originalName: '5.mp4',
        mimeType: 'video/mp4',
        size: 10,
        feedback: 'Good',
      },
      {
        studentId: s.user.id,
        title: 'second',
        path: 'x/6.mp4',
        originalName: '6.mp4',
        mimeType: 'video/mp4',
        size: 10,
      },
    ]);
    const res = await client.get(`/api/mentorship/students/${s.user.id}`);
    expect(res.statusCode).toBe(200);
    const d = mentorshipStudentDetailSchema.parse(res.json());
    expect(d).toMatchObject({
      student: { id: s.user.id, name: 'Dana Detail', email: s.user.email },
      mentor: { id: me.id, name: 'Detail Mentor' },
      status: 'active',
      option: 'onetime',
      payment: { kind: 'paid_in_full' },
      videos: { total: 2, awaitingFeedback: 1 },
      lessons: { complete: 0, total: 3 },
    });
    expect(d.links.map((l: AccountabilityLink) => l.url)).toEqual(['https://dana.test/1']);
    expect(d.recentVideos.map((v) => [v.title, v.hasFeedback])).toEqual([
      ['second', false],
      ['first', true],
    ]);
    const { user: freeUser } = await free();
    const { user: otherAdmin } = await admin();
    for (const id of [freeUser.id, otherAdmin.id, 999999]) {
      const r = await client.get(`/api/mentorship/students/${id}`);
      expect(r.statusCode).toBe(404);
      expect(r.json().message).toBe(MENTORSHIP_AREA_TEXT.notAStudent);
    }
  });

  it('lists admins as mentors, marked ones first', async () => {
    const { client } = await admin();
    const marked = await t.createUser({ role: 'admin', name: 'Zed Marked' });
    await t.app.deps.db.update(users).set({ isMentor: true }).where(eq(users.id, marked.id));
    const { mentors } = mentorsAnswerSchema.parse((await client.get('/api/mentorship/mentors')).json());
    expect(mentors[0]).toMatchObject({ id: marked.id, isMentor: true });
    expect(mentors.every((m) => m.id !== undefined)).toBe(true);
    const { user: freeUser } = await free();
    expect(mentors.some((m) => m.id === freeUser.id)).toBe(false);
  });

  it('assigns a mentor (an admin only), creates the enrolment row when missing, notifies, and unassigns', async () => {
    const { user: me, client } = await admin('Assigning Admin');
    const { user: mentor } = await admin('New Mentor');
    const s = await student('Rio Assign');
    const res = await client.post(`/api/mentorship/students/${s.user.id}/mentor`, { mentor_id: mentor.id });
    expect(res.statusCode).toBe(200);
    expect(res.json().mentor).toMatchObject({ id: mentor.id, name: 'New Mentor' });
    const [row] = await t.app.deps.db.select().from(mentorships).where(eq(mentorships.studentId, s.user.id));
    expect(row).toMatchObject({ mentorId: mentor.id, option: 'manual', status: 'active' });
    expect(mentorshipOverviewSchema.parse((await s.client.get('/api/mentorship/overview')).json())).toMatchObject({
      mentor: { id: mentor.id },
    });
    const toStudent = await t.app.deps.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, s.user.id), eq(notifications.area, 'mentorship')));
    expect(toStudent.map((n) => n.body)).toEqual(['<strong>New Mentor</strong> is now your mentor.']);
    const toMentor = await t.app.deps.db.select().from(notifications).where(eq(notifications.userId, mentor.id));
    expect(toMentor[0]!.body).toContain('Rio Assign');

    // a member who is not an admin cannot mentor; the row keeps its mentor
    const { user: freeUser } = await free();
    for (const bad of [freeUser.id, s.user.id, 999999]) {
      const r = await client.post(`/api/mentorship/students/${s.user.id}/mentor`, { mentor_id: bad });
      expect(r.statusCode).toBe(422);
      expect(r.json().errors.mentor_id[0]).toBe(MENTORSHIP_AREA_TEXT.mentorMustBeAdmin);
    }
    expect(
      (await t.app.deps.db.select().from(mentorships).where(eq(mentorships.studentId, s.user.id)))[0]!.mentorId,
    ).toBe(mentor.id);
    // self, then nobody
    expect(
      (await client.post(`/api/mentorship/students/${s.user.id}/mentor`, { mentor_id: me.id })).json().mentor.id,
    ).toBe(me.id);
    expect(
      (await client.post(`/api/mentorship/students/${s.user.id}/mentor`, { mentor_id: '' }, { form: true })).json(),
    ).toEqual({ mentor: null });
    expect(
      (await t.app.deps.db.select().from(mentorships).where(eq(mentorships.studentId, s.user.id)))[0]!.mentorId,
    ).toBeNull();
    // not a student: 404
    expect((await client.post(`/api/mentorship/students/${freeUser.id}/mentor`, { mentor_id: me.id })).statusCode).toBe(
      404,
    );
  });
});

/* eslint-disable max-lines -- one suite for this module's HTTP routes: the cases share the app, users and fixtures set up at its top */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT, PLAN_KEYS } from '#shared/admin-content';
import { DEFAULT_PLAN_LINKS } from '#shared/diagnostic';
import { PLACEMENT_QUESTIONS } from '#shared/placement';
import { auditLog, courses } from '#server/db/schema/index';
import { seedDemo } from '#server/demo/seed';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';

let t: TestApp;
let admin: TestClient;
let seq = 0;
const slug = (name: string) => `${name}-${++seq}`;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.app.deps);
  admin = (await t.signedIn({ role: 'admin', name: 'Ada Admin' })).client;
});
afterAll(async () => t.close());

const courseBody = (over: Record<string, unknown> = {}) => ({
  title: 'Test course',
  slug: slug('test-course'),
  description: 'About it',
  members_only: true,
  area: 'main',
  is_welcome: false,
  position: 50,
  ...over,
});
const lessonBody = (over: Record<string, unknown> = {}) => ({
  title: 'Test lesson',
  slug: slug('lesson'),
  description: '',
  video_url: 'https://www.youtube-nocookie.com/embed/xyz',
  members_only: true,
  position: 0,
  ...over,
});
async function newCourse(over: Record<string, unknown> = {}) {
  const res = await admin.post('/api/admin/courses', courseBody(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; slug: string };
}
async function newLesson(courseId: number, over: Record<string, unknown> = {}) {
  const res = await admin.post(`/api/admin/courses/${courseId}/lessons`, lessonBody(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number };
}
const audits = (targetType: string, targetId: number | string) =>
  t.app.deps.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetType, targetType), eq(auditLog.targetId, String(targetId))))
    .orderBy(auditLog.id);

describe('courses', () => {
  it('creates, edits and deletes a course, each with an audit entry (before and after)', async () => {
    const c = await newCourse({ title: 'Odd Meters' });
    const put = await admin.request(
      'PUT',
      `/api/admin/courses/${c.id}`,
      courseBody({ title: 'Odd Meters II', slug: c.slug, members_only: false }),
    );
    expect(put.statusCode).toBe(200);
    expect(put.json().data).toMatchObject({ title: 'Odd Meters II', members_only: false, lessons: [] });
    const entries = await audits('course', c.id);
    expect(entries.map((e) => e.action)).toEqual(['course.create', 'course.update']);
    expect(entries[1]).toMatchObject({
      actorName: 'Ada Admin',
      before: expect.objectContaining({ title: 'Odd Meters', members_only: true }),
      after: expect.objectContaining({ title: 'Odd Meters II', members_only: false }),
    });
    expect((await admin.request('DELETE', `/api/admin/courses/${c.id}`)).statusCode).toBe(200);
    expect((await admin.get(`/api/admin/courses/${c.id}`)).statusCode).toBe(404);
    expect((await audits('course', c.id)).at(-1)).toMatchObject({ action: 'course.delete', after: null });
  });

  it('answers each field error by name', async () => {
    const res = await admin.post('/api/admin/courses', {
      title: '',
      slug: 'Not A Slug',
      image_url: 'http://insecure.test/x.png',
      area: 'side',
      position: -1,
    });
    expect(res.statusCode).toBe(422);
    const errors = res.json().errors;
    expect(errors.title).toEqual(['The title field is required.']);
    expect(errors.slug).toEqual(['The slug may only contain lower-case letters, numbers and dashes.']);
    expect(errors.image_url).toEqual(['The image must be an https:// address or a path on this site.']);
    expect(errors.area).toEqual(['The area must be main or mentorship.']);
    expect(errors.position).toEqual(['The position must be at least 0.']);
    const taken = await admin.post('/api/admin/courses', courseBody({ slug: 'groove-foundations' }));
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.slug).toEqual([CONTENT.slugTaken]);
  });

  it('pages, sorts, searches and filters the list on the server', async () => {
    for (const n of ['Zulu', 'Yankee', 'Xray']) await newCourse({ title: `Paging ${n}`, area: 'mentorship' });
    const page1 = (await admin.get('/api/admin/courses?q=paging&sort=title&dir=asc&per_page=2')).json();
    expect(page1).toMatchObject({ total: 3, pages: 2, page: 1, sort: 'title', dir: 'asc' });
    expect(page1.data.map((c: { title: string }) => c.title)).toEqual(['Paging Xray', 'Paging Yankee']);
    const page2 = (await admin.get('/api/admin/courses?q=paging&sort=title&dir=asc&per_page=2&page=2')).json();
    expect(page2.data.map((c: { title: string }) => c.title)).toEqual(['Paging Zulu']);
    expect((await admin.get('/api/admin/courses?q=paging&area=main')).json().total).toBe(0);
    const bySlug = (await admin.get('/api/admin/courses?q=groove-foundations')).json();
    expect(bySlug.data[0]).toMatchObject({ slug: 'groove-foundations', area: 'main' });
    const demo = (await (await t.client()).get('/api/courses/groove-foundations')).json().data;
    expect(bySlug.data[0].lessons).toBe(demo.lessons.length);
    expect((await admin.get('/api/admin/courses?q=100%25')).json().total).toBe(0);
  });

  it('keeps one welcome course: setting one clears the other', async () => {
    const c = await newCourse({ is_welcome: true, members_only: false });
    const welcome = await t.app.deps.db.select({ slug: courses.slug }).from(courses).where(eq(courses.isWelcome, true));
    expect(welcome).toEqual([{ slug: c.slug }]);
    const list = (await (await t.signedIn()).client.get('/api/courses')).json().data;
    expect(list.find((x: { slug: string }) => x.slug === 'welcome-to-backbeat').is_welcome).toBe(false);
    // put the demo welcome course back
    const demo = (await admin.get('/api/admin/courses?q=welcome-to-backbeat')).json().data[0];
    const full = (await admin.get(`/api/admin/courses/${demo.id}`)).json().data;
    const back = await admin.request('PUT', `/api/admin/courses/${demo.id}`, { ...full, is_welcome: true });
    expect(back.statusCode, back.body).toBe(200);
    expect(await t.app.deps.db.select({ slug: courses.slug }).from(courses).where(eq(courses.isWelcome, true))).toEqual(
      [{ slug: 'welcome-to-backbeat' }],
    );
  });

  it('refuses members and visitors', async () => {
    const member = (await t.signedIn({ entitlements: ['membership'] })).client;
    expect((await member.get('/api/admin/courses')).statusCode).toBe(403);
    expect((await member.post('/api/admin/courses', courseBody())).statusCode).toBe(403);
    expect((await (await t.client()).get('/api/admin/courses')).statusCode).toBe(401);
  });
});

describe('lessons', () => {
  it('a free lesson is readable by a free member; members-only stays locked', async () => {
    const c = await newCourse({ members_only: true });
    const free = await newLesson(c.id, { members_only: false, title: 'Free one' });
    const paid = await newLesson(c.id, { members_only: true, title: 'Paid one' });
    const member = (await t.signedIn()).client;
    expect((await member.get(`/api/lessons/${free.id}`)).json().data).toMatchObject({
      locked: false,
      video_url: 'https://www.youtube-nocookie.com/embed/xyz',
    });
    expect((await member.get(`/api/lessons/${paid.id}`)).json().data).toMatchObject({ locked: true, video_url: null });
    // made free by an admin
    const full = (await admin.get(`/api/admin/lessons/${paid.id}`)).json().data;
    await admin.request('PUT', `/api/admin/lessons/${paid.id}`, { ...full, members_only: false });
    expect((await member.get(`/api/lessons/${paid.id}`)).json().data.locked).toBe(false);
  });

  it('checks the video address, the slug and the next lesson', async () => {
    const c = await newCourse();
    const l = await newLesson(c.id);
    const bad = await admin.post(
      `/api/admin/courses/${c.id}/lessons`,
      lessonBody({ video_url: 'javascript:alert(1)', title: '' }),
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toMatchObject({
      video_url: ['The video embed address must be an https:// address or a path on this site.'],
      title: ['The title field is required.'],
    });
    const self = await admin.request('PUT', `/api/admin/lessons/${l.id}`, lessonBody({ next_lesson_id: l.id }));
    expect(self.json().errors).toEqual({ next_lesson_id: [CONTENT.nextLessonOther] });
    const unknown = await admin.request('PUT', `/api/admin/lessons/${l.id}`, lessonBody({ next_lesson_id: 9_999_999 }));
    expect(unknown.json().errors).toEqual({ next_lesson_id: [CONTENT.nextLessonUnknown] });
    const full = (await admin.get(`/api/admin/lessons/${l.id}`)).json().data;
    const dup = await admin.post(`/api/admin/courses/${c.id}/lessons`, lessonBody({ slug: full.slug }));
    expect(dup.json().errors).toEqual({ slug: [CONTENT.slugTaken] });
  });

  it('moves lessons up and down; the order shows on the course page', async () => {
    const c = await newCourse();
    const a = await newLesson(c.id, { title: 'A' });
    await newLesson(c.id, { title: 'B' });
    await newLesson(c.id, { title: 'C' });
    const moved = await admin.post(`/api/admin/lessons/${a.id}/move`, { direction: 'down' });
    expect(moved.json().data.lessons.map((l: { title: string }) => l.title)).toEqual(['B', 'A', 'C']);
    const page = (
      await (await t.signedIn({ entitlements: ['membership'] })).client.get(`/api/courses/${c.slug}`)
    ).json().data;
    expect(page.lessons.map((l: { title: string }) => l.title)).toEqual(['B', 'A', 'C']);
    expect(
      (await admin.post(`/api/admin/lessons/${a.id}/move`, { direction: 'sideways' })).json().errors.direction,
    ).toEqual(['The direction must be up or down.']);
    expect((await audits('lesson', a.id)).at(-1)).toMatchObject({
      action: 'lesson.move',
      before: { position: 0 },
      after: { position: 1 },
    });
  });

  it('saves notation paths in order; an unchanged path keeps its ticks', async () => {
    const c = await newCourse({ members_only: false });
    const l = await newLesson(c.id, { members_only: false });
    const first = await admin.request('PUT', `/api/admin/lessons/${l.id}/paths`, {
      paths: [
        { title: 'One', url: 'https://www.soundslice.com/slices/one/' },
        { title: 'Two', url: 'https://www.soundslice.com/slices/two/' },
      ],
    });
    expect(first.statusCode).toBe(200);
    const [one] = first.json().data.paths;
    const member = (await t.signedIn()).client;
    await member.post('/soundslice-path-completions', { soundslice_path_id: one.id, complete: true });
    const again = await admin.request('PUT', `/api/admin/lessons/${l.id}/paths`, {
      paths: [
        { title: 'Two', url: 'https://www.soundslice.com/slices/two/' },
        { title: 'One (renamed)', url: 'https://www.soundslice.com/slices/one/' },
      ],
    });
    expect(again.json().data.paths.map((p: { title: string }) => p.title)).toEqual(['Two', 'One (renamed)']);
    const seen = (await member.get(`/api/lessons/${l.id}`)).json().data.paths;
    expect(seen).toEqual([
      expect.objectContaining({ title: 'Two', complete: false }),
      expect.objectContaining({ id: one.id, title: 'One (renamed)', complete: true }),
    ]);
    const bad = await admin.request('PUT', `/api/admin/lessons/${l.id}/paths`, {
      paths: [{ title: '', url: 'ftp://x' }],
    });
    expect(bad.json().errors).toMatchObject({
      'paths.0.title': ['The title field is required.'],
      'paths.0.url': ['The address must be an https:// address or a path on this site.'],
    });
    expect((await audits('lesson', l.id)).filter((e) => e.action === 'lesson.paths')).toHaveLength(2);
  });

  it('saves a quiz (text and image options); the next-lesson override is used after the quiz', async () => {
    const c = await newCourse({ members_only: false });
    const l = await newLesson(c.id, { members_only: false, title: 'Quizzed' });
    await newLesson(c.id, { members_only: false, title: 'In order next' });
    const target = await newLesson(c.id, { members_only: false, title: 'Chosen next' });
    const quiz = {
      questions: [
        { title: 'Which note?', imageUrl: '', options: ['Quarter', 'https://cdn.test/eighth.png'], correct: 1 },
      ],
    };
    const saved = await admin.request('PUT', `/api/admin/lessons/${l.id}/quiz`, quiz);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.quiz).toEqual([
      { title: 'Which note?', imageUrl: null, options: ['Quarter', 'https://cdn.test/eighth.png'], correct: 1 },
    ]);
    const member = (await t.signedIn()).client;
    let result = (await member.post('/lessons/quiz', { id: l.id, answers: [1] })).json();
    expect(result).toMatchObject({ passed: true, answers: [true] });
    expect((await member.post('/lessons/quiz', { id: l.id, answers: [0] })).json()).toMatchObject({
      passed: false,
      correct: 0,
      answers: [false],
    });
    expect((await member.get(`/api/lessons/${l.id}`)).json().data.next_lesson.title).toBe('In order next');
    const full = (await admin.get(`/api/admin/lessons/${l.id}`)).json().data;
    await admin.request('PUT', `/api/admin/lessons/${l.id}`, { ...full, next_lesson_id: target.id });
    result = (await member.post('/lessons/quiz', { id: l.id, answers: [1] })).json();
    expect(result.next_lesson_url).toBe(`/lessons/${target.id}`);
    expect((await member.get(`/api/lessons/${l.id}`)).json().data.next_lesson).toEqual({
      id: target.id,
      title: 'Chosen next',
    });
    // deleting the chosen lesson falls back to the order
    await admin.request('DELETE', `/api/admin/lessons/${target.id}`);
    expect((await admin.get(`/api/admin/lessons/${l.id}`)).json().data.next_lesson_id).toBeNull();
  });

  it('answers quiz field errors by question and option', async () => {
    const c = await newCourse();
    const l = await newLesson(c.id);
    const res = await admin.request('PUT', `/api/admin/lessons/${l.id}/quiz`, {
      questions: [
        { title: '', options: ['only one'], correct: 3 },
        { title: 'Q', options: ['A', 'https://cdn.test/x.pdf'], correct: 0 },
      ],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toMatchObject({
      'questions.0.title': ['The question field is required.'],
      'questions.0.options': ['A question needs at least 2 options.'],
      'questions.1.options.1': ['An image option must be an address ending in gif, jpg, jpeg or png.'],
    });
    const empty = await admin.request('PUT', `/api/admin/lessons/${l.id}/quiz`, { questions: [] });
    expect(empty.json().data.quiz).toEqual([]);
  });

  it('a course with members\u2019 progress says so, and deleting it removes their progress', async () => {
    const c = await newCourse({ members_only: false });
    const l = await newLesson(c.id, { members_only: false });
    const member = (await t.signedIn()).client;
    await member.post('/lesson-completions', { lesson_id: l.id, complete: true });
    expect((await admin.get(`/api/admin/courses/${c.id}`)).json().data.members_with_progress).toBe(1);
    expect((await admin.get(`/api/admin/lessons/${l.id}`)).json().data.members_with_progress).toBe(1);
    expect((await admin.request('DELETE', `/api/admin/courses/${c.id}`)).statusCode).toBe(200);
    expect((await member.get(`/api/lessons/${l.id}`)).statusCode).toBe(404);
  });
});

describe('stages', () => {
  it('creates a stage with the next id, edits its checklist (a reworded step loses its ticks), deletes it', async () => {
    const created = await admin.post('/api/admin/stages', {
      title: 'Stage Six',
      description: 'Beyond',
      image_url: null,
      steps: ['Keep', 'Reword me'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const stage = created.json().data;
    expect(stage.id).toBe(6);
    const member = (await t.signedIn()).client;
    const steps = (await member.get(`/api/stages/${stage.id}`)).json().data.steps;
    for (const s of steps)
      await member.post('/stages/toggle-checkmark', { stage_id: stage.id, hash_id: s.hash_id, completed: true });
    const put = await admin.request('PUT', `/api/admin/stages/${stage.id}`, {
      title: 'Stage Six',
      description: 'Beyond',
      steps: ['Reworded', 'Keep', 'New'],
    });
    expect(put.json().data.steps).toEqual(['Reworded', 'Keep', 'New']);
    const after = (await member.get(`/api/stages/${stage.id}`)).json().data.steps;
    expect(after.map((s: { text: string; completed: boolean }) => [s.text, s.completed])).toEqual([
      ['Reworded', false],
      ['Keep', true],
      ['New', false],
    ]);
    expect((await member.get('/api/stages')).json().data.find((s: { id: number }) => s.id === stage.id)).toMatchObject({
      steps_done: 1,
      steps_total: 3,
    });
    const bad = await admin.request('PUT', `/api/admin/stages/${stage.id}`, { title: '', steps: ['ok', ''] });
    expect(bad.json().errors).toMatchObject({
      title: ['The title field is required.'],
      'steps.1': ['A step may not be empty.'],
    });
    const list = (await admin.get('/api/admin/stages?sort=id&dir=desc&per_page=1')).json();
    expect(list).toMatchObject({ total: 6, pages: 6 });
    expect(list.data[0]).toMatchObject({ id: 6, steps: 3 });
    expect((await audits('stage', stage.id)).map((e) => e.action)).toEqual(['stage.create', 'stage.update']);
    expect((await admin.request('DELETE', `/api/admin/stages/${stage.id}`)).statusCode).toBe(200);
    expect((await member.get(`/api/stages/${stage.id}`)).statusCode).toBe(404);
  });
});

describe('achievements', () => {
  it('creates, edits and deletes; the rewards service unlocks by the edited rule and threshold', async () => {
    const bad = await admin.post('/api/admin/achievements', {
      name: '',
      slug: 'x',
      image_url: '',
      rule: 'logins',
      threshold: 0,
    });
    expect(bad.json().errors).toMatchObject({
      name: ['The name field is required.'],
      image_url: ['The image field is required.'],
      rule: ['Choose what the achievement counts.'],
      threshold: ['The threshold must be at least 1.'],
    });
    const created = await admin.post('/api/admin/achievements', {
      name: 'Two Journals',
      slug: 'two-journals',
      description: 'Write 2 entries.',
      image_url: '/images/achievements/journal-keeper.svg',
      rule: 'journal_entries',
      threshold: 2,
      position: 90,
    });
    expect(created.statusCode, created.body).toBe(201);
    const a = created.json().data;
    const taken = await admin.post('/api/admin/achievements', { ...a, slug: 'two-journals' });
    expect(taken.json().errors.slug).toEqual([CONTENT.slugTaken]);
    const put = await admin.request('PUT', `/api/admin/achievements/${a.id}`, { ...a, threshold: 1 });
    expect(put.json().data.threshold).toBe(1);
    const member = (await t.signedIn()).client;
    await member.post('/journal', {
      exercises: JSON.stringify([{ practicedToday: 'Singles', startingTempo: '60', endingTempo: '80' }]),
    });
    await expect
      .poll(
        async () =>
          (await member.get('/api/achievements')).json().data.find((x: { slug: string }) => x.slug === 'two-journals')
            ?.unlocked_at ?? null,
      )
      .not.toBeNull();
    const list = (await admin.get('/api/admin/achievements?q=journal&sort=threshold&dir=asc')).json();
    expect(list.data.map((x: { slug: string }) => x.slug)).toEqual(['two-journals', 'journal-keeper']);
    expect(list.data[0].unlocked_by).toBe(1);
    expect((await audits('achievement', a.id)).map((e) => e.action)).toEqual([
      'achievement.create',
      'achievement.update',
    ]);
    expect((await admin.request('DELETE', `/api/admin/achievements/${a.id}`)).statusCode).toBe(200);
    expect(
      (await member.get('/api/achievements')).json().data.some((x: { slug: string }) => x.slug === 'two-journals'),
    ).toBe(false);
  });
});

describe('settings: placement questions and foot-speed plans', () => {
  it('placement uses the edited points; the question count stays fixed', async () => {
    expect((await admin.get('/api/admin/placement')).json().data.questions).toEqual(PLACEMENT_QUESTIONS);
    const edited = PLACEMENT_QUESTIONS.map((q, i) =>
      i === 0 ? { title: 'How long have you played?', options: q.options.map((o, j) => ({ ...o, points: j * 2 })) } : q,
    );
    const res = await admin.request('PUT', '/api/admin/placement', { questions: edited });
    expect(res.statusCode, res.body).toBe(200);
    const member = (await t.signedIn()).client;
    const seen = (await member.get('/api/placement/questions')).json().data;
    expect(seen[0]).toEqual(edited[0]);
    const [entry] = (await audits('setting', 'placement_questions')).slice(-1);
    expect(entry).toMatchObject({ action: 'setting.update' });
    expect((entry!.before as typeof PLACEMENT_QUESTIONS)[0]!.title).toBe(PLACEMENT_QUESTIONS[0]!.title);
    const short = await admin.request('PUT', '/api/admin/placement', { questions: edited.slice(0, 9) });
    expect(short.json().errors.questions).toEqual(['The placement quiz has exactly 10 questions.']);
    const bad = await admin.request('PUT', '/api/admin/placement', {
      questions: edited.map((q, i) => (i === 2 ? { ...q, options: [{ text: '', points: 11 }] } : q)),
    });
    expect(bad.json().errors).toMatchObject({
      'questions.2.options': ['A question needs at least 2 options.'],
      'questions.2.options.0.text': ['The option field is required.'],
      'questions.2.options.0.points': ['The points may not be greater than 10.'],
    });
    await admin.request('PUT', '/api/admin/placement', { questions: PLACEMENT_QUESTIONS });
  });

  it('the foot-speed result uses the edited link', async () => {
    expect((await admin.get('/api/admin/foot-speed')).json().data.links).toEqual(DEFAULT_PLAN_LINKS);
    const links = { ...DEFAULT_PLAN_LINKS, 'Intermediate|Double Pedal': 'https://plans.example.test/double' };
    expect((await admin.request('PUT', '/api/admin/foot-speed', { links })).statusCode).toBe(200);
    const res = await (
      await t.client()
    ).post('/placement/foot-speed/save', {
      name: 'Terry',
      email: 'terry@x.test',
      answers: [2, 0, '150', 1, 1, 2, 1, 2],
    });
    expect(res.json().link).toBe('https://plans.example.test/double');
    const bad = await admin.request('PUT', '/api/admin/foot-speed', {
      links: { ...links, [PLAN_KEYS[0]!.key]: 'http://insecure.test', [PLAN_KEYS[1]!.key]: '' },
    });
    expect(bad.json().errors).toMatchObject({
      [`links.${PLAN_KEYS[0]!.key}`]: ['The plan address must be an https:// address or a path on this site.'],
      [`links.${PLAN_KEYS[1]!.key}`]: ['The plan address is required.'],
    });
    expect((await audits('setting', 'diagnostic_plan_links')).at(-1)).toMatchObject({
      before: DEFAULT_PLAN_LINKS,
      after: links,
    });
  });
});

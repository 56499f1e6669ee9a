/* eslint-disable max-lines -- one suite for this module's HTTP routes: the cases share the app, users and fixtures set up at its top */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Socket } from 'socket.io-client';
import {
  PRACTICE_PLAN_MESSAGES,
  MENTORSHIP_MESSAGES,
  type PracticePlan,
  type PracticePlanAnswer,
} from '#shared/mentorship';
import { practicePlanChannel } from '#shared/realtime';
import { createTestApp, subscribe, type TestApp, type TestClient } from '#test/api-harness';
import { CHOOSE_STUDENT, DUPLICATE_IDS, NOT_A_STUDENT } from './service.ts';
import { clone, exercise, practiceDay as day, practicePlan as plan } from '#test/fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const student = () => t.signedIn({ entitlements: ['mentorship'] });
const admin = () => t.signedIn({ role: 'admin' });
const free = () => t.signedIn();

async function open(client: TestClient, studentId?: number) {
  const res = await client.get(`/mentorship/practice-plan${studentId ? `?student_id=${studentId}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as PracticePlanAnswer;
}
const save = (
  client: TestClient,
  a: { id: number; admin_version?: number; student_version?: number },
  practice_plan: PracticePlan,
  headers: Record<string, string> = {},
) =>
  client.post(
    '/mentorship/practice-plan',
    { practice_plan, id: a.id, admin_version: a.admin_version, student_version: a.student_version },
    { headers },
  );

/** a student with a plan the mentor has built */
async function built() {
  const s = await student();
  const a = await admin();
  const first = await open(a.client, s.user.id);
  const p = plan();
  const res = await save(a.client, first, p);
  expect(res.statusCode, res.body).toBe(200);
  return { s, a, plan: res.json() as PracticePlanAnswer & { merged: boolean } };
}

describe('GET /mentorship/practice-plan', () => {
  it('creates an empty plan on first open and answers the same plan afterwards', async () => {
    const s = await student();
    const a = await open(s.client);
    expect(a.practice_plan).toEqual({ phase1: [], phase2: [], phase3: [], onlyShowLatest: false });
    expect(a.student).toMatchObject({ id: s.user.id, name: s.user.name });
    expect(a.admin_version).toBe(0);
    expect(a.student_version).toBe(0);
    expect((await open(s.client)).id).toBe(a.id);
    expect((await open(s.client, s.user.id)).id).toBe(a.id);
  });

  it('visitor 401, free member 403, another student 403, admin any student, admin without a student 422, not a student 404', async () => {
    const s = await student();
    const other = await student();
    const visitor = await t.client();
    expect((await visitor.get('/mentorship/practice-plan')).statusCode).toBe(401);
    const f = await free();
    const fr = await f.client.get('/mentorship/practice-plan');
    expect(fr.statusCode).toBe(403);
    expect(fr.json().message).toBe(MENTORSHIP_MESSAGES.mentorshipOnly);
    const o = await other.client.get(`/mentorship/practice-plan?student_id=${s.user.id}`);
    expect(o.statusCode).toBe(403);
    expect(o.json().message).toBe(MENTORSHIP_MESSAGES.notYourStudent);
    const a = await admin();
    expect((await open(a.client, s.user.id)).student.id).toBe(s.user.id);
    const none = await a.client.get('/mentorship/practice-plan');
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.student_id).toEqual([CHOOSE_STUDENT]);
    const notStudent = await a.client.get(`/mentorship/practice-plan?student_id=${f.user.id}`);
    expect(notStudent.statusCode).toBe(404);
    expect(notStudent.json().message).toBe(NOT_A_STUDENT);
    expect((await a.client.get('/mentorship/practice-plan?student_id=99999999')).statusCode).toBe(404);
    expect((await a.client.get('/mentorship/practice-plan?student_id=abc')).statusCode).toBe(422);
  });
});

describe('the pages at the same addresses', () => {
  it('a browser navigation gets the page (with its access rules), a fetch the JSON', async () => {
    const s = await student();
    const page = await s.client.page('/mentorship/practice-plan');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect((await s.client.get('/mentorship/practice-plan')).headers['content-type']).toContain('application/json');
    expect((await s.client.page('/mentorship/practice-plan-days')).statusCode).toBe(403);
    const a = await admin();
    const days = await a.client.page('/mentorship/practice-plan-days');
    expect(days.statusCode).toBe(200);
    expect(days.headers['content-type']).toContain('text/html');
    const visitor = await t.client();
    const login = await visitor.page('/mentorship/practice-plan');
    expect(login.statusCode).toBe(302);
  });
});

describe('POST /mentorship/practice-plan: who may save', () => {
  it('visitor 401 and free member 403 before the body is looked at; another student 403; unknown plan 404', async () => {
    const { s, plan: p } = await built();
    const visitor = await t.client();
    expect((await visitor.post('/mentorship/practice-plan', {})).statusCode).toBe(401);
    expect((await save(visitor, p, p.practice_plan)).statusCode).toBe(401);
    const f = await free();
    expect((await f.client.post('/mentorship/practice-plan', {})).statusCode).toBe(403);
    expect((await save(f.client, p, p.practice_plan)).statusCode).toBe(403);
    const other = await student();
    await open(other.client);
    const res = await save(other.client, p, p.practice_plan);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(MENTORSHIP_MESSAGES.notYourStudent);
    expect((await save(s.client, { id: 99999999 }, p.practice_plan)).statusCode).toBe(404);
    // nothing changed
    expect((await open(s.client)).student_version).toBe(0);
  });
});

describe('POST /mentorship/practice-plan: a student saves only their fields', () => {
  it('tempos, time played and complete change; titles, goals, links, notes, structure and onlyShowLatest do not', async () => {
    const { s, plan: p } = await built();
    const stored = p.practice_plan;
    const mine = clone(stored);
    const d0 = mine.phase1[0]![0]!;
    const e0 = d0.exercises[0]!;
    Object.assign(e0, {
      endingTempo1: '96',
      endingTempo2: '100',
      endingTempo3: '104',
      endingTempo4: '110',
      timeWithoutMistakes: '12',
    });
    d0.complete = true;
    // everything a student may not change
    d0.title = 'Hacked day';
    e0.title = 'Hacked title';
    e0.goal = '999';
    e0.link = 'https://evil.example.com';
    e0.notes = 'Hacked notes';
    mine.phase1[0]!.push(day({ title: 'Extra day' }));
    mine.phase1.push([day()]);
    mine.phase2.push([day()]);
    mine.phase1[0]![1]!.exercises = [];
    mine.onlyShowLatest = true;
    const res = await save(s.client, p, mine);
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json() as PracticePlanAnswer & { merged: boolean };
    expect(after.student_version).toBe(p.student_version + 1);
    expect(after.admin_version).toBe(p.admin_version);
    const want = clone(stored);
    Object.assign(want.phase1[0]![0]!.exercises[0]!, {
      endingTempo1: '96',
      endingTempo2: '100',
      endingTempo3: '104',
      endingTempo4: '110',
      timeWithoutMistakes: '12',
    });
    want.phase1[0]![0]!.complete = true;
    expect(after.practice_plan).toEqual(want);
    expect((await open(s.client)).practice_plan).toEqual(want);
  });

  it('ignores unknown ids and days or exercises left out', async () => {
    const { s, plan: p } = await built();
    const res = await save(s.client, p, {
      phase1: [[day({ complete: true, exercises: [exercise({ endingTempo1: '80' })] })]],
      phase2: [],
      phase3: [],
    });
    expect(res.statusCode).toBe(200);
    expect((res.json() as PracticePlanAnswer).practice_plan).toEqual(p.practice_plan);
  });
});

describe('POST /mentorship/practice-plan: a mentor saves', () => {
  it('changes everything, counts admin_version, and may set onlyShowLatest', async () => {
    const { a, plan: p } = await built();
    expect(p.admin_version).toBe(1);
    const next = clone(p.practice_plan);
    next.phase1[0]![0]!.title = 'Warm-up day';
    next.phase1[0]![0]!.exercises[0]!.goal = '140';
    next.phase1[0]![0]!.exercises[0]!.endingTempo1 = '70';
    next.phase2.push([day()]);
    next.onlyShowLatest = true;
    const res = await save(a.client, p, next);
    expect(res.statusCode).toBe(200);
    const after = res.json() as PracticePlanAnswer & { merged: boolean };
    expect(after.merged).toBe(false);
    expect(after.admin_version).toBe(2);
    expect(after.practice_plan).toEqual(next);
  });

  it('409 with the current plan when another mentor saved since this one loaded', async () => {
    const { a, plan: p } = await built();
    const other = await admin();
    const mine = clone(p.practice_plan);
    mine.phase1[0]![0]!.title = 'Other mentor';
    expect((await save(other.client, p, mine)).statusCode).toBe(200);
    const stale = clone(p.practice_plan);
    stale.phase1[0]![0]!.title = 'Stale mentor';
    const res = await save(a.client, p, stale);
    expect(res.statusCode).toBe(409);
    const body = res.json() as { message: string; current: PracticePlanAnswer };
    expect(body.message).toBe(PRACTICE_PLAN_MESSAGES.conflict);
    expect(body.current.admin_version).toBe(p.admin_version + 1);
    expect(body.current.practice_plan.phase1[0]![0]!.title).toBe('Other mentor');
    expect((await open(a.client, p.student.id)).practice_plan.phase1[0]![0]!.title).toBe('Other mentor');
  });

  it("a stale save keeps the student's newer fields for existing ids and applies the rest (merged: true)", async () => {
    const { s, a, plan: p } = await built();
    const st = clone(p.practice_plan);
    st.phase1[0]![0]!.exercises[0]!.endingTempo1 = '101';
    st.phase1[0]![0]!.complete = true;
    expect((await save(s.client, p, st)).statusCode).toBe(200);
    // the mentor still has the old student_version; edits a title and also (stale) a tempo
    const mine = clone(p.practice_plan);
    mine.phase1[0]![0]!.title = 'Renamed';
    mine.phase1[0]![0]!.exercises[0]!.endingTempo1 = '55';
    const added = exercise({ title: 'New one', endingTempo1: '60' });
    mine.phase1[0]![0]!.exercises.push(added);
    const res = await save(a.client, p, mine);
    expect(res.statusCode).toBe(200);
    const after = res.json() as PracticePlanAnswer & { merged: boolean };
    expect(after.merged).toBe(true);
    const d = after.practice_plan.phase1[0]![0]!;
    expect(d.title).toBe('Renamed');
    expect(d.complete).toBe(true);
    expect(d.exercises[0]!.endingTempo1).toBe('101');
    expect(d.exercises[1]).toEqual(added);
  });

  it('refuses duplicate ids (they could not be merged)', async () => {
    const { a, plan: p } = await built();
    const mine = clone(p.practice_plan);
    mine.phase1[0]!.push(clone(mine.phase1[0]![0]!));
    const res = await save(a.client, p, mine);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(DUPLICATE_IDS);
  });

  it('concurrent saves of both sides lose nothing, whichever lands first', async () => {
    for (let round = 0; round < 4; round++) {
      const { s, a, plan: p } = await built();
      const mine = clone(p.practice_plan);
      mine.phase1[0]![0]!.exercises[0]!.endingTempo2 = '88';
      mine.phase1[0]![1]!.complete = true;
      const mentor = clone(p.practice_plan);
      mentor.phase1[0]![1]!.title = 'Renamed Tuesday';
      const added = exercise({ title: 'Added meanwhile' });
      mentor.phase1[0]![0]!.exercises.push(added);
      const calls = [() => save(s.client, p, mine), () => save(a.client, p, mentor)];
      if (round % 2) calls.reverse();
      const results = await Promise.all(calls.map((c) => c()));
      expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
      const after = await open(a.client, s.user.id);
      expect(after.student_version).toBe(p.student_version + 1);
      expect(after.admin_version).toBe(p.admin_version + 1);
      const [d0, d1] = after.practice_plan.phase1[0]!;
      expect(d1!.title).toBe('Renamed Tuesday');
      expect(d1!.complete).toBe(true);
      expect(d0!.exercises[0]!.endingTempo2).toBe('88');
      expect(d0!.exercises[1]).toEqual(added);
    }
  });

  it('concurrent student saves of different fields from one merged copy keep all; mentor saves serialise', async () => {
    const { s, a, plan: p } = await built();
    const mine = clone(p.practice_plan);
    mine.phase1[0]![0]!.exercises[0]!.endingTempo1 = '90';
    mine.phase1[0]![1]!.exercises[0]!.endingTempo1 = '91';
    const mentors = [0, 1, 2].map((i) => {
      const m = clone(p.practice_plan);
      m.phase1[0]![0]!.title = `Title ${i}`;
      return save(a.client, { id: p.id, admin_version: p.admin_version, student_version: p.student_version }, m);
    });
    const results = await Promise.all([save(s.client, p, mine), ...mentors]);
    const codes = results.map((r) => r.statusCode);
    // one mentor save wins, the others are stale (409); the student's save always lands
    expect(codes[0]).toBe(200);
    expect(codes.slice(1).filter((c) => c === 200)).toHaveLength(1);
    expect(codes.slice(1).filter((c) => c === 409)).toHaveLength(2);
    const after = await open(a.client, s.user.id);
    expect(after.practice_plan.phase1[0]![0]!.exercises[0]!.endingTempo1).toBe('90');
    expect(after.practice_plan.phase1[0]![1]!.exercises[0]!.endingTempo1).toBe('91');
    expect(after.practice_plan.phase1[0]![0]!.title).toMatch(/^Title [012]$/);
  });
});

describe('POST /mentorship/practice-plan: bad input is 422 with clear messages', () => {
  it('letters in a tempo, five digits, a javascript: link, missing id', async () => {
    const { s, a, plan: p } = await built();
    const letters = clone(p.practice_plan);
    letters.phase1[0]![0]!.exercises[0]!.endingTempo1 = '12a';
    let res = await save(s.client, p, letters);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(PRACTICE_PLAN_MESSAGES.digitsOnly);
    expect(Object.keys(res.json().errors)).toEqual(['practice_plan.phase1.0.0.exercises.0.endingTempo1']);
    const five = clone(p.practice_plan);
    five.phase1[0]![0]!.exercises[0]!.timeWithoutMistakes = '12345';
    res = await save(s.client, p, five);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(PRACTICE_PLAN_MESSAGES.digitsOnly);
    const js = clone(p.practice_plan);
    js.phase1[0]![0]!.exercises[0]!.link = 'javascript:alert(1)';
    res = await save(a.client, p, js);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('Links must start with http:// or https://');
    const goal = clone(p.practice_plan);
    goal.phase1[0]![0]!.exercises[0]!.goal = 'fast';
    expect((await save(a.client, p, goal)).statusCode).toBe(422);
    res = await a.client.post('/mentorship/practice-plan', { practice_plan: p.practice_plan });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.id).toBeDefined();
    // none of it was stored
    expect((await open(a.client, s.user.id)).practice_plan).toEqual(p.practice_plan);
  });
});

describe('realtime: PracticePlanUpdated', () => {
  const collect = (socket: Socket) => {
    const events: { channel: string; event: string; payload: Record<string, unknown> }[] = [];
    socket.on('event', (m: (typeof events)[number]) => events.push(m));
    return events;
  };

  it('only the plan’s student and admins may join; a save reaches the others but not the saving socket', async () => {
    const { s, a, plan: p } = await built();
    const channel = practicePlanChannel(p.id);
    const other = await student();
    expect((await subscribe(await t.socket(other.client), channel)).ok).toBe(false);
    expect((await subscribe(await t.socket((await free()).client), channel)).ok).toBe(false);
    expect((await subscribe(await t.socket(await t.client()), channel)).ok).toBe(false);
    expect((await subscribe(await t.socket(a.client), practicePlanChannel(99999999))).ok).toBe(false);

    const studentSocket = await t.socket(s.client);
    const adminSocket = await t.socket(a.client);
    expect((await subscribe(studentSocket, channel)).ok).toBe(true);
    expect((await subscribe(adminSocket, channel)).ok).toBe(true);
    const heardByStudent = collect(studentSocket);
    const heardByAdmin = collect(adminSocket);

    const mine = clone(p.practice_plan);
    mine.phase1[0]![0]!.exercises[0]!.endingTempo1 = '77';
    expect((await save(s.client, p, mine, { 'x-socket-id': studentSocket.id! })).statusCode).toBe(200);
    await vi.waitFor(() => expect(heardByAdmin).toHaveLength(1));
    expect(heardByAdmin).toEqual([
      {
        channel,
        event: 'PracticePlanUpdated',
        payload: {
          id: p.id,
          admin_version: p.admin_version,
          student_version: p.student_version + 1,
          by: 'student',
          socket_id: studentSocket.id,
        },
      },
    ]);
    const next = await open(a.client, s.user.id);
    expect((await save(a.client, next, next.practice_plan, { 'x-socket-id': adminSocket.id! })).statusCode).toBe(200);
    // a socket receives its events in the order they were sent: had the student's own save reached it,
    // it would have come before the admin's
    await vi.waitFor(() => expect(heardByStudent).toHaveLength(1));
    expect(heardByStudent.map((e) => e.payload.by)).toEqual(['admin']);
    // and the admin's save, had it reached the admin, before the student's next one
    const again = await open(s.client);
    expect((await save(s.client, again, again.practice_plan, { 'x-socket-id': studentSocket.id! })).statusCode).toBe(
      200,
    );
    await vi.waitFor(() => expect(heardByAdmin).toHaveLength(2));
    expect(heardByAdmin.map((e) => e.payload.by)).toEqual(['student', 'student']);
    expect(heardByStudent).toHaveLength(1);
  });
});

describe('reusable days', () => {
  const body = {
    title: 'Singles day',
    exercises: [{ title: 'Singles', link: 'https://example.com/s', notes: 'Even', goal: '120' }],
  };

  it('admins create, list, read, edit and delete (POST with _method delete)', async () => {
    const a = await admin();
    const created = await a.client.post('/mentorship/practice-plan-days', body);
    expect(created.statusCode).toBe(201);
    const d = created.json() as { id: number; title: string; exercises: unknown[] };
    expect(d).toMatchObject(body);
    const b = await a.client.post('/mentorship/practice-plan-days', { title: 'Accents day', exercises: [] });
    const list = (await a.client.get('/mentorship/practice-plan-days')).json() as {
      days: { id: number; title: string }[];
    };
    expect(list.days).toEqual(
      expect.arrayContaining([
        { id: d.id, title: 'Singles day' },
        { id: b.json().id, title: 'Accents day' },
      ]),
    );
    expect(list.days.findIndex((x) => x.id === b.json().id)).toBeLessThan(list.days.findIndex((x) => x.id === d.id));
    const one = await a.client.get(`/mentorship/practice-plan-days/${d.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().exercises).toEqual(body.exercises);
    const edited = await a.client.post(`/mentorship/practice-plan-days/${d.id}`, {
      title: 'Singles and doubles',
      exercises: [...body.exercises, { title: 'Doubles', link: '', notes: '', goal: '' }],
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().title).toBe('Singles and doubles');
    expect((await a.client.get(`/mentorship/practice-plan-days/${d.id}`)).json().exercises).toHaveLength(2);
    const del = await a.client.post(`/mentorship/practice-plan-days/${d.id}`, { _method: 'delete' });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ deleted: true });
    expect((await a.client.get(`/mentorship/practice-plan-days/${d.id}`)).statusCode).toBe(404);
    expect((await a.client.post(`/mentorship/practice-plan-days/${d.id}`, { _method: 'delete' })).statusCode).toBe(404);
    expect((await a.client.post(`/mentorship/practice-plan-days/${d.id}`, body)).statusCode).toBe(404);
    expect((await a.client.request('DELETE', `/mentorship/practice-plan-days/${b.json().id}`)).statusCode).toBe(200);
  });

  it('visitor 401, student 403, free member 403 on every call, before the body is looked at', async () => {
    const a = await admin();
    const d = (await a.client.post('/mentorship/practice-plan-days', body)).json() as { id: number };
    const visitor = await t.client();
    const s = await student();
    const f = await free();
    for (const [client, code] of [
      [visitor, 401],
      [s.client, 403],
      [f.client, 403],
    ] as const) {
      expect((await client.get('/mentorship/practice-plan-days')).statusCode).toBe(code);
      expect((await client.get(`/mentorship/practice-plan-days/${d.id}`)).statusCode).toBe(code);
      expect((await client.post('/mentorship/practice-plan-days', body)).statusCode).toBe(code);
      expect((await client.post('/mentorship/practice-plan-days', {})).statusCode).toBe(code);
      expect((await client.post(`/mentorship/practice-plan-days/${d.id}`, body)).statusCode).toBe(code);
      expect((await client.post(`/mentorship/practice-plan-days/${d.id}`, { title: '' })).statusCode).toBe(code);
      expect((await client.post(`/mentorship/practice-plan-days/${d.id}`, { _method: 'delete' })).statusCode).toBe(
        code,
      );
    }
    expect((await a.client.get(`/mentorship/practice-plan-days/${d.id}`)).statusCode).toBe(200);
  });

  it('422 for an empty title, a javascript: link or a goal with letters; 404 for a bad id', async () => {
    const a = await admin();
    let res = await a.client.post('/mentorship/practice-plan-days', { title: '  ', exercises: [] });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.title).toEqual(['Give the day a title.']);
    res = await a.client.post('/mentorship/practice-plan-days', {
      title: 'X',
      exercises: [{ title: 'a', link: 'javascript:alert(1)', notes: '', goal: '' }],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('Links must start with http:// or https://');
    const d = (await a.client.post('/mentorship/practice-plan-days', body)).json() as { id: number };
    res = await a.client.post(`/mentorship/practice-plan-days/${d.id}`, {
      title: 'X',
      exercises: [{ title: 'a', link: '', notes: '', goal: '12b' }],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors['exercises.0.goal']).toEqual([PRACTICE_PLAN_MESSAGES.digitsOnly]);
    expect((await a.client.get('/mentorship/practice-plan-days/abc')).statusCode).toBe(422);
    expect((await a.client.post('/mentorship/practice-plan-days/abc', { _method: 'delete' })).statusCode).toBe(404);
  });
});

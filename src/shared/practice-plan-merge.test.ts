import { describe, expect, it } from 'vitest';
import type { Exercise, PracticeDay, PracticePlan } from './mentorship.ts';
import {
  applyStudentSave,
  duplicateIds,
  indexPlan,
  keepStoredStudentFields,
  mergeTheirs,
  samePlan,
} from './practice-plan-merge.ts';
import { exercise, practiceDay } from '#test/practice-plans';

const ex = (id: string, over: Partial<Exercise> = {}): Exercise =>
  exercise({ id, title: `Exercise ${id}`, link: '', notes: '', goal: '100', ...over });
const day = (id: string, exercises: Exercise[], over: Partial<PracticeDay> = {}): PracticeDay =>
  practiceDay({ id, exercises, ...over });
const base = (): PracticePlan => ({
  phase1: [[day('d1', [ex('e1'), ex('e2')]), day('d2', [ex('e3')])]],
  phase2: [[day('d3', [ex('e4')])]],
  phase3: [],
  onlyShowLatest: false,
});
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const e = (p: PracticePlan, id: string) => indexPlan(p).exercises.get(id)!;
const d = (p: PracticePlan, id: string) => indexPlan(p).days.get(id)!;

describe('applyStudentSave', () => {
  it('takes only complete and the student exercise fields, by id, wherever they sit', () => {
    const stored = base();
    const incoming = clone(stored);
    // moved around, retitled, goals changed, structure changed: all ignored
    incoming.phase1[0]!.reverse();
    incoming.phase1[0]![1]!.title = 'Nope';
    incoming.phase1[0]![1]!.complete = true; // d1
    Object.assign(incoming.phase1[0]![1]!.exercises[0]!, {
      endingTempo1: '90',
      endingTempo4: '99',
      timeWithoutMistakes: '5',
      goal: '1',
      title: 'x',
      link: 'https://x.test',
      notes: 'n',
    });
    incoming.phase3.push([day('new', [ex('e9', { endingTempo1: '1' })])]);
    incoming.onlyShowLatest = true;
    const out = applyStudentSave(stored, incoming);
    const want = base();
    want.phase1[0]![0]!.complete = true;
    Object.assign(want.phase1[0]![0]!.exercises[0]!, {
      endingTempo1: '90',
      endingTempo4: '99',
      timeWithoutMistakes: '5',
    });
    expect(out).toEqual(want);
  });

  it('keeps stored values for ids the request left out', () => {
    const stored = base();
    e(stored, 'e3').endingTempo1 = '70';
    expect(applyStudentSave(stored, { phase1: [], phase2: [], phase3: [] })).toEqual(stored);
  });
});

describe('keepStoredStudentFields', () => {
  it("keeps the stored student fields for known ids and the mentor's everything else", () => {
    const stored = base();
    e(stored, 'e1').endingTempo2 = '111';
    d(stored, 'd2').complete = true;
    const mentor = base();
    mentor.phase1[0]![0]!.title = 'Renamed';
    e(mentor, 'e1').endingTempo2 = '5';
    mentor.phase1[0]![0]!.exercises.push(ex('e10', { endingTempo1: '42' }));
    mentor.phase2 = [];
    mentor.onlyShowLatest = true;
    const out = keepStoredStudentFields(mentor, stored);
    expect(d(out, 'd1').title).toBe('Renamed');
    expect(e(out, 'e1').endingTempo2).toBe('111');
    expect(d(out, 'd2').complete).toBe(true);
    expect(e(out, 'e10').endingTempo1).toBe('42');
    expect(out.phase2).toEqual([]);
    expect(out.onlyShowLatest).toBe(true);
  });
});

describe('mergeTheirs', () => {
  it("student editor: the mentor's structure and fields arrive; the student's unsaved edits stay", () => {
    const b = base();
    const local = clone(b);
    e(local, 'e1').endingTempo1 = '95'; // unsaved
    d(local, 'd2').complete = true; // unsaved
    const remote = clone(b);
    e(remote, 'e1').goal = '130';
    e(remote, 'e1').endingTempo1 = ''; // the server still has the old value
    remote.phase1[0]![0]!.exercises.push(ex('e11'));
    remote.phase2 = [];
    e(remote, 'e2').endingTempo3 = '77'; // e.g. the student's other tab
    const out = mergeTheirs(local, b, remote, 'student');
    expect(e(out, 'e1')).toMatchObject({ goal: '130', endingTempo1: '95' });
    expect(d(out, 'd2').complete).toBe(true);
    expect(e(out, 'e11')).toBeDefined();
    expect(out.phase2).toEqual([]);
    expect(e(out, 'e2').endingTempo3).toBe('77');
  });

  it("mentor editor: the student's saved fields arrive; the mentor's unsaved structure and fields stay", () => {
    const b = base();
    const local = clone(b);
    local.phase1[0]![0]!.title = 'Unsaved title';
    local.phase1[0]![0]!.exercises.push(ex('e12'));
    e(local, 'e3').endingTempo4 = '10'; // the mentor typed a student field: theirs wins locally
    const remote = clone(b);
    e(remote, 'e1').endingTempo1 = '88';
    d(remote, 'd1').complete = true;
    e(remote, 'e3').endingTempo4 = '20';
    const out = mergeTheirs(local, b, remote, 'admin');
    expect(d(out, 'd1')).toMatchObject({ title: 'Unsaved title', complete: true });
    expect(e(out, 'e1').endingTempo1).toBe('88');
    expect(e(out, 'e12')).toBeDefined();
    expect(e(out, 'e3').endingTempo4).toBe('10');
  });

  it('with nothing unsaved, a student editor becomes the remote plan', () => {
    const b = base();
    const remote = clone(b);
    remote.phase1.push([day('d9', [ex('e19', { endingTempo1: '3' })])]);
    e(remote, 'e4').endingTempo2 = '66';
    expect(mergeTheirs(clone(b), b, remote, 'student')).toEqual(remote);
  });
});

describe('duplicateIds and samePlan', () => {
  it('finds repeated ids across days and exercises', () => {
    const p = base();
    expect(duplicateIds(p)).toEqual([]);
    p.phase3.push([day('d1', [ex('e4')])]);
    expect(duplicateIds(p).sort()).toEqual(['d1', 'e4']);
  });
  it('compares plans, treating a missing onlyShowLatest as false', () => {
    const p = base();
    const q = clone(p);
    delete q.onlyShowLatest;
    expect(samePlan(p, q)).toBe(true);
    e(q, 'e1').endingTempo1 = '1';
    expect(samePlan(p, q)).toBe(false);
  });
});

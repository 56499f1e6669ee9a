import { describe, expect, it } from 'vitest';
import { practicePlanSchema, PRACTICE_PLAN_LIMITS, type PracticePlan } from '#shared/mentorship';
import {
  bestTempo,
  dayFromSaved,
  edit,
  firstIncompleteWeek,
  newDay,
  newExercise,
  newId,
  onlyDigits,
  phaseHasContent,
  tempoSeries,
} from './plan-edit.ts';
import { withValidLinks } from './use-plan-editor.ts';

const empty = (): PracticePlan => ({ phase1: [], phase2: [], phase3: [], onlyShowLatest: false });

describe('plan edits', () => {
  it('makes valid, unique ids and weekday titles', () => {
    const ids = new Set(Array.from({ length: 200 }, newId));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(newDay(0).title).toBe('Monday');
    expect(newDay(8).title).toBe('Tuesday');
  });

  it('adds and removes weeks, days and exercises, and the result passes the save schema', () => {
    let p = edit.addWeek(empty(), 'phase1');
    p = edit.addDay(p, 'phase1', 0);
    expect(p.phase1[0]!.map((d) => d.title)).toEqual(['Monday', 'Tuesday']);
    const at = { phase: 'phase1' as const, week: 0, day: 1 };
    p = edit.addExercise(p, at);
    const exId = p.phase1[0]![1]!.exercises[1]!.id;
    p = edit.setExercise(p, at, exId, { title: 'Paradiddles', goal: '110' });
    p = edit.setDay(p, at, { complete: true });
    expect(p.phase1[0]![1]).toMatchObject({ complete: true, exercises: [{}, { title: 'Paradiddles', goal: '110' }] });
    expect(practicePlanSchema.safeParse(p).success).toBe(true);
    p = edit.removeExercise(p, at, exId);
    expect(p.phase1[0]![1]!.exercises).toHaveLength(1);
    p = edit.removeDay(p, { phase: 'phase1', week: 0, day: 0 });
    expect(p.phase1[0]!.map((d) => d.title)).toEqual(['Tuesday']);
    p = edit.removeWeek(p, 'phase1', 0);
    expect(p.phase1).toEqual([]);
  });

  it('stops at the limits', () => {
    let p = edit.addWeek(empty(), 'phase2');
    for (let i = 0; i < 10; i++) p = edit.addDay(p, 'phase2', 0);
    expect(p.phase2[0]).toHaveLength(PRACTICE_PLAN_LIMITS.daysPerWeek);
  });

  it('a saved day becomes a new day with fresh ids and empty student fields', () => {
    const d = dayFromSaved('Grooves day', [{ title: 'Rock beat', link: 'https://x.test', notes: 'n', goal: '100' }]);
    expect(d).toMatchObject({
      title: 'Grooves day',
      complete: false,
      exercises: [{ title: 'Rock beat', goal: '100', endingTempo1: '', timeWithoutMistakes: '' }],
    });
    expect(dayFromSaved('a', []).id).not.toBe(d.id);
  });

  it('keeps digits only, four at most', () => {
    expect(onlyDigits('1a2b3')).toBe('123');
    expect(onlyDigits('123456')).toBe('1234');
    expect(onlyDigits('-12.5')).toBe('125');
  });

  it('saves a link still being typed as empty', () => {
    let p = edit.addWeek(empty(), 'phase1');
    const at = { phase: 'phase1' as const, week: 0, day: 0 };
    const id = p.phase1[0]![0]!.exercises[0]!.id;
    p = edit.setExercise(p, at, id, { link: 'www.youtube' });
    expect(withValidLinks(p).phase1[0]![0]!.exercises[0]!.link).toBe('');
    p = edit.setExercise(p, at, id, { link: 'https://www.youtube.com' });
    expect(withValidLinks(p).phase1[0]![0]!.exercises[0]!.link).toBe('https://www.youtube.com');
  });
});

describe('what the student sees', () => {
  it('phases with content and the first incomplete week', () => {
    let p = edit.addWeek(empty(), 'phase1');
    expect(phaseHasContent(p, 'phase1')).toBe(true);
    expect(phaseHasContent(p, 'phase2')).toBe(false);
    p = edit.addWeek(p, 'phase2');
    expect(firstIncompleteWeek(p)).toEqual({ phase: 'phase1', week: 0 });
    p = edit.setDay(p, { phase: 'phase1', week: 0, day: 0 }, { complete: true });
    expect(firstIncompleteWeek(p)).toEqual({ phase: 'phase2', week: 0 });
    p = edit.setDay(p, { phase: 'phase2', week: 0, day: 0 }, { complete: true });
    expect(firstIncompleteWeek(p)).toBeNull();
  });

  it('tempo series: best tempo per appearance of the same title, the latest goal, only exercises with a tempo', () => {
    expect(bestTempo({ endingTempo1: '90', endingTempo2: '', endingTempo3: '104', endingTempo4: '99' })).toBe(104);
    expect(bestTempo({ endingTempo1: '', endingTempo2: '', endingTempo3: '', endingTempo4: '' })).toBeNull();
    const ex = (title: string, t1: string, goal = '') => ({ ...newExercise({ title, goal }), endingTempo1: t1 });
    const p: PracticePlan = {
      ...empty(),
      phase1: [
        [newDay(0, [ex('Singles', '90', '120'), ex('Never logged', '')]), newDay(1, [ex(' singles ', '')])],
        [newDay(0, [ex('SINGLES', '100', '130')])],
      ],
    };
    const s = tempoSeries(p);
    expect(s).toHaveLength(1);
    expect(s[0]!.points.map((x) => x.tempo)).toEqual([90, null, 100]);
    expect(s[0]!.goal).toBe(130);
    expect(s[0]!.points[2]!.label).toBe('Phase 1, Week 2, Monday');
  });
});

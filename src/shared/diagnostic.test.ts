import { describe, expect, it } from 'vitest';
import { answerStep, barPercent, DIAGNOSTIC_STEPS, initialDiagnostic, primaryKiller, replay } from './diagnostic.ts';

describe('foot-speed diagnostic scoring', () => {
  it('has 9 steps: tempo at step 3, contact last', () => {
    expect(DIAGNOSTIC_STEPS).toHaveLength(9);
    expect(DIAGNOSTIC_STEPS[2]!.kind).toBe('tempo');
    expect(DIAGNOSTIC_STEPS[8]!.kind).toBe('contact');
  });

  it('tempo 130 or less adds to technique, above 130 to control, a non-number is ignored', () => {
    const at3 = replay([1, 0]);
    expect(at3.step).toBe(3);
    expect(answerStep(at3, '130').scores).toMatchObject({ technique: 1, control: 0 });
    expect(answerStep(at3, '131').scores).toMatchObject({ technique: 0, control: 1 });
    const ignored = answerStep(at3, 'fast');
    expect([ignored.step, ignored.tempo, ignored.scores.technique, ignored.scores.control]).toEqual([4, null, 0, 0]);
  });

  it('bumpDownRank lowers Advanced to Intermediate and Intermediate to Beginner', () => {
    expect(replay([2, 1]).skill).toBe('Intermediate');
    expect(replay([1, 1]).skill).toBe('Beginner');
  });

  it('"I don\'t know what 16th notes are" sets Beginner and skips to the pedal-setup question', () => {
    const s = replay([2, 2]);
    expect(s.skill).toBe('Beginner');
    expect(s.step).toBe(7);
    expect(DIAGNOSTIC_STEPS[6]!.title).toBe('Which pedal setup do you play?');
  });

  it('weaknesses add up; a full run reaches the contact step', () => {
    const s = replay([2, 0, '150', 1, 1, 2, 1, 2]);
    expect(s).toMatchObject({ step: 9, skill: 'Intermediate', pedal: 'Double Pedal', tempo: 150 });
    expect(s.scores).toEqual({ technique: 3, control: 4, coordination: 1, independence: 1 });
  });

  it('the primary killer is the highest score; ties go technique, control, coordination, independence', () => {
    expect(primaryKiller({ technique: 1, control: 3, coordination: 3, independence: 0 })).toBe('control');
    expect(primaryKiller({ technique: 0, control: 0, coordination: 2, independence: 2 })).toBe('coordination');
    expect(primaryKiller({ technique: 0, control: 0, coordination: 0, independence: 0 })).toBe('technique');
    expect(primaryKiller({ technique: 0, control: 0, coordination: 0, independence: 1 })).toBe('independence');
  });

  it('bars scale each score over 6', () => {
    expect([barPercent(0), barPercent(3), barPercent(6), barPercent(9)]).toEqual([0, 50, 100, 100]);
  });

  it('starts fresh', () => expect(initialDiagnostic().step).toBe(1));
});

import { describe, expect, it } from 'vitest';
import {
  formatElapsed,
  journalEntryBodySchema,
  minutesFromSeconds,
  stageFromScore,
  stageTitleFromScore,
} from './learning.ts';

describe('placement banding (two tables, both as given: docs/product/placement.md)', () => {
  it.each([
    [0, 1],
    [11, 1],
    [12, 2],
    [19, 2],
    [20, 3],
    [27, 3],
    [28, 4],
    [33, 4],
    [34, 5],
    [60, 5],
  ])('score %i is stage %i', (score, stage) => expect(stageFromScore(score)).toBe(stage));

  it.each([
    [0, 'Basics Builder'],
    [9, 'Basics Builder'],
    [10, 'Coordination Conquest'],
    [17, 'Coordination Conquest'],
    [18, 'Intermediate Icon'],
    [25, 'Intermediate Icon'],
    [26, 'On The Rise'],
    [33, 'On The Rise'],
    [34, 'Master Drummer'],
  ])('score %i is titled %s', (score, title) => expect(stageTitleFromScore(score)).toBe(title));

  it('the tables really differ (score 10: stage 1, titled as stage 2)', () => {
    expect([stageFromScore(10), stageTitleFromScore(10)]).toEqual([1, 'Coordination Conquest']);
  });
});

describe('practice timer', () => {
  it.each([
    [0, 1],
    [1, 1],
    [59, 1],
    [60, 1],
    [61, 2],
    [3600, 60],
    [3601, 61],
  ])('%i s submits %i minute(s)', (s, m) => expect(minutesFromSeconds(s)).toBe(m));
  it('shows HH:MM:SS', () => {
    expect(formatElapsed(0)).toBe('00:00:00');
    expect(formatElapsed(3725)).toBe('01:02:05');
  });
});

describe('journal entry', () => {
  const body = (rows: unknown) => ({ exercises: JSON.stringify(rows) });
  const row = { practicedToday: 'Paradiddles', startingTempo: '80', endingTempo: '92' };
  it('accepts 1 to 10 exercises from the hidden JSON field', () => {
    expect(journalEntryBodySchema.parse(body([row])).exercises).toEqual([row]);
    expect(journalEntryBodySchema.safeParse(body(Array(10).fill(row))).success).toBe(true);
  });
  it('refuses 11 exercises, none, broken JSON and non-numeric tempos', () => {
    expect(journalEntryBodySchema.safeParse(body(Array(11).fill(row))).error!.issues[0]!.message).toBe(
      'A journal entry has at most 10 exercises.',
    );
    expect(journalEntryBodySchema.safeParse(body([])).success).toBe(false);
    expect(journalEntryBodySchema.safeParse({ exercises: '[{' }).error!.issues[0]!.message).toBe(
      'The exercises could not be read.',
    );
    expect(journalEntryBodySchema.safeParse(body([{ ...row, startingTempo: 'fast' }])).success).toBe(false);
  });
});

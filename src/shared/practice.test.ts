import { describe, expect, it } from 'vitest';
import { addDays, lastDays, streaks, weekStart } from './practice.ts';

describe('streaks', () => {
  const today = '2026-11-22';
  it('counts a run ending today, or yesterday while today is not over', () => {
    expect(streaks(['2026-11-20', '2026-11-21', '2026-11-22'], today)).toEqual({ current: 3, longest: 3 });
    expect(streaks(['2026-11-20', '2026-11-21'], today)).toEqual({ current: 2, longest: 2 });
    expect(streaks(['2026-11-19', '2026-11-20'], today)).toEqual({ current: 0, longest: 2 });
  });
  it('keeps the longest run, across month ends', () => {
    expect(
      streaks(['2026-10-30', '2026-10-31', '2026-11-01', '2026-11-02', '2026-11-21', '2026-11-22'], today),
    ).toEqual({ current: 2, longest: 4 });
    expect(streaks([], today)).toEqual({ current: 0, longest: 0 });
  });
});

it('fills the last days with zeros, oldest first', () => {
  expect(lastDays(new Map([['2026-11-21', 15]]), '2026-11-22', 3)).toEqual([
    { day: '2026-11-20', minutes: 0 },
    { day: '2026-11-21', minutes: 15 },
    { day: '2026-11-22', minutes: 0 },
  ]);
});

it('weeks start on Monday; days add across years', () => {
  expect(weekStart('2026-11-22')).toBe('2026-11-16');
  expect(weekStart('2026-11-16')).toBe('2026-11-16');
  expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
});

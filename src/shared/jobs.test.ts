import { describe, expect, it } from 'vitest';
import { describeSchedule } from './jobs.ts';

describe('describeSchedule', () => {
  it('words the rules the app uses, and shows any other as written', () => {
    expect(describeSchedule(null)).toBe('When sent');
    expect(describeSchedule('* * * * *')).toBe('Every minute');
    expect(describeSchedule('17 * * * *')).toBe('Every hour at minute 17');
    expect(describeSchedule('5 3 * * *')).toBe('Every day at 03:05 UTC');
    expect(describeSchedule('0 9 * * 1')).toBe('Cron 0 9 * * 1 (UTC)');
  });
});

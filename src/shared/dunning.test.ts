import { describe, expect, it } from 'vitest';
import { DUNNING_GRACE_DAYS, DUNNING_MESSAGES, DUNNING_RETRY_DAYS, graceEndsAt, nextRetryAt } from './dunning';

const DAY = 86_400_000;
const failed = new Date('2027-03-04T10:00:00Z');

describe('the dunning schedule', () => {
  it('retries 3, 5 and 7 days after the failure, then gives up', () => {
    expect(DUNNING_RETRY_DAYS).toEqual([3, 5, 7]);
    expect(DUNNING_GRACE_DAYS).toBe(7);
    expect([0, 1, 2, 3].map((done) => nextRetryAt(failed, done)?.toISOString() ?? null)).toEqual([
      '2027-03-07T10:00:00.000Z',
      '2027-03-09T10:00:00.000Z',
      '2027-03-11T10:00:00.000Z',
      null,
    ]);
  });

  it('ends the grace at the last retry, whichever retry comes next', () => {
    for (let done = 0; done < DUNNING_RETRY_DAYS.length; done++) {
      expect(graceEndsAt(nextRetryAt(failed, done)!, done).getTime(), `after ${done} retries`).toBe(
        failed.getTime() + 7 * DAY,
      );
    }
  });

  it('says it in words, with the amount in the currency', () => {
    expect(
      DUNNING_MESSAGES.explain(
        { amount: 2_481_300, currency: 'usd', failedAt: failed.toISOString() },
        'Visa ending 0341',
      ),
    ).toBe('We could not collect your membership payment of $24,813.00 from Visa ending 0341 on March 4, 2027.');
    expect(DUNNING_MESSAGES.nextRetry({ nextRetryAt: '2027-03-09T10:00:00Z', retriesDone: 1, retriesTotal: 3 })).toBe(
      'We will try again automatically on March 9, 2027 (retry 2 of 3).',
    );
    expect(DUNNING_MESSAGES.grace({ graceEndsAt: '2027-03-11T10:00:00Z' })).toBe(
      'Your lessons stay open until March 11, 2027. If the payment is still missing after the last retry, your membership ends then.',
    );
    expect(DUNNING_MESSAGES.schedule).toBe('Automatic retries happen 3, 5 and 7 days after a failed payment.');
    expect(DUNNING_MESSAGES.ended({ endedAt: '2027-03-11T10:00:00Z', amount: 2900, currency: 'usd' })).toContain(
      'ended on March 11, 2027 because we could not collect the payment of $29.00 after 3 retries',
    );
  });
});

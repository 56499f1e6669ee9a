import { describe, expect, it } from 'vitest';
import { includedTax, parseReceiptNumber, receiptNumber, refundEffect } from './receipts.ts';

describe('receipt numbers', () => {
  it('are written with their series and read back', () => {
    expect(receiptNumber('receipt', 42)).toBe('R-000042');
    expect(receiptNumber('credit_note', 7)).toBe('CN-000007');
    expect(parseReceiptNumber('R-000042')).toEqual({ kind: 'receipt', number: 42 });
    expect(parseReceiptNumber('cn-7')).toEqual({ kind: 'credit_note', number: 7 });
    for (const bad of ['', 'R-', 'R-0', 'X-12', '42', 'R-12a', 'R-1234567890'])
      expect(parseReceiptNumber(bad)).toBeNull();
  });
});

describe('the tax a price includes', () => {
  it('is none at 0%, and the included share otherwise (negative on a credit)', () => {
    expect(includedTax(29_00, 0)).toBe(0);
    expect(includedTax(120_00, 20)).toBe(20_00);
    expect(includedTax(-120_00, 20)).toBe(-20_00);
  });
});

describe('what a refund does to access', () => {
  const base = {
    member: 'Sam',
    paidCents: 29_00,
    refundedCents: 0,
    latest: true,
    currency: 'usd',
    accessEndsAt: '2027-03-03T10:00:00Z',
    live: true,
  };
  it('a full refund of the latest payment ends the membership now', () => {
    expect(refundEffect({ ...base, amountCents: 29_00 })).toBe(
      'A full refund of the latest payment ends Sam’s membership now and stops its renewals.',
    );
    // what is left after an earlier partial refund is the rest of it
    expect(refundEffect({ ...base, refundedCents: 10_00, amountCents: 19_00 })).toBe(
      'A full refund of the latest payment ends Sam’s membership now and stops its renewals.',
    );
  });
  it('a partial refund, or an earlier payment, keeps access until the period ends', () => {
    expect(refundEffect({ ...base, amountCents: 10_00 })).toBe(
      'A partial refund of $10.00 keeps Sam’s access until March 3, 2027.',
    );
    expect(refundEffect({ ...base, latest: false, amountCents: 29_00 })).toBe(
      'A full refund of this earlier payment keeps Sam’s access until March 3, 2027.',
    );
    expect(refundEffect({ ...base, member: 'Chris', amountCents: 1_00 })).toBe(
      'A partial refund of $1.00 keeps Chris’ access until March 3, 2027.',
    );
  });
  it('an ended membership is not changed', () => {
    expect(refundEffect({ ...base, live: false, amountCents: 29_00 })).toBe(
      'Refunding $29.00 does not change access: Sam’s membership has ended already.',
    );
  });
});

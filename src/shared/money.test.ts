import { describe, expect, it } from 'vitest';
import { formatMoney } from './money';

describe('formatMoney', () => {
  it.each([
    [2481300, 'USD', '$24,813.00'],
    [75000, 'usd', '$750.00'],
    [2950, 'USD', '$29.50'],
    [0, 'USD', '$0.00'],
    [-1500, 'USD', '-$15.00'],
    [2900, 'EUR', '€29.00'],
  ])('%i %s → %s', (cents, currency, text) => {
    expect(formatMoney(cents, currency)).toBe(text);
  });

  it('defaults to dollars', () => {
    expect(formatMoney(123456)).toBe('$1,234.56');
  });
});

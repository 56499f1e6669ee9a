import { expect, it } from 'vitest';
import { checkoutFlagsOf, mentorshipCheckoutFlagsSchema, type MentorshipCheckoutFlags } from './mentorship.ts';

// /mentorship/checkout reads its address's flags without zod (issue 9); it must read them exactly as
// the shared schema does: every word a flag may take, unreadable ones, several flags, repeated ones.
const WORDS = ['1', '0', 'true', 'false', 'on', 'off', '', 'yes', 'TRUE', '2', ' 1', 'constructor', '__proto__'];

const bySchema = (search: URLSearchParams): MentorshipCheckoutFlags => {
  const parsed = mentorshipCheckoutFlagsSchema.safeParse(Object.fromEntries(search));
  return parsed.success ? Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined)) : {};
};

it('reads every flag word as mentorshipCheckoutFlagsSchema does', () => {
  const cases: string[] = ['', 'other=1', 'price2600=1&price2600=0', 'price2600=0&price2600=1', 'showsix=1&downsell=yes'];
  for (const a of WORDS) {
    cases.push(`downsell=${encodeURIComponent(a)}`);
    for (const b of WORDS) cases.push(`price2600=${encodeURIComponent(a)}&showsix=${encodeURIComponent(b)}&utm=x`);
  }
  for (const query of cases) {
    const search = new URLSearchParams(query);
    expect(checkoutFlagsOf(search), query).toEqual(bySchema(search));
  }
});

it('keeps the flags an address sets, to true or false, and only those', () => {
  expect(checkoutFlagsOf(new URLSearchParams('price3900=1&showsix=off'))).toEqual({ price3900: true, showsix: false });
  expect(checkoutFlagsOf(new URLSearchParams('downsell=maybe&showsix=1'))).toEqual({});
});

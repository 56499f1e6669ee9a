import { describe, expect, it } from 'vitest';
import { checkoutFlagsOf, mentorshipCheckoutFlagsSchema, type MentorshipCheckoutFlags } from './mentorship.ts';
import {
  checkoutFlags,
  DEFAULT_MENTORSHIP_PRICING,
  mentorshipOptions,
  onetimePriceOnOffer,
  type MentorshipOneTimePrice,
} from './mentorship-checkout.ts';

// /mentorship/checkout reads its address's flags without zod (scripts/initial-js.ts); it must read them exactly as
// the shared schema does: every word a flag may take, unreadable ones, several flags, repeated ones.
const WORDS = ['1', '0', 'true', 'false', 'on', 'off', '', 'yes', 'TRUE', '2', ' 1', 'constructor', '__proto__'];

const bySchema = (search: URLSearchParams): MentorshipCheckoutFlags => {
  const parsed = mentorshipCheckoutFlagsSchema.safeParse(Object.fromEntries(search));
  return parsed.success ? Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined)) : {};
};

it('reads every flag word as mentorshipCheckoutFlagsSchema does', () => {
  const cases: string[] = [
    '',
    'other=1',
    'price2600=1&price2600=0',
    'price2600=0&price2600=1',
    'showsix=1&downsell=yes',
  ];
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

describe('checkoutFlags: a link offers a lower price only when the admin lets it', () => {
  const off = DEFAULT_MENTORSHIP_PRICING;
  const link = (q: string) => checkoutFlagsOf(new URLSearchParams(q));
  it('ignores ?downsell=1 and ?price2600=1 while the admin has not offered them', () => {
    expect(mentorshipOptions(checkoutFlags(off, link('downsell=1'))).shown).toEqual(['onetime', '3']);
    expect(mentorshipOptions(checkoutFlags(off, link('price2600=1'))).shown).toEqual(['onetime', '3']);
  });
  it('applies them when links may offer them, or when they are the default', () => {
    expect(mentorshipOptions(checkoutFlags({ ...off, downsellByLink: true }, link('downsell=1'))).shown).toEqual([
      'onetime1600',
    ]);
    expect(mentorshipOptions(checkoutFlags({ ...off, price2600ByLink: true }, link('price2600=1'))).shown).toEqual([
      'onetime2600',
      '3',
    ]);
    expect(mentorshipOptions(checkoutFlags({ ...off, downsell: true }, link(''))).shown).toEqual(['onetime1600']);
  });
  it('lets a link turn a default off, and ask for the higher full price or the 6-payment plan', () => {
    expect(mentorshipOptions(checkoutFlags({ ...off, downsell: true }, link('downsell=0'))).shown).toEqual([
      'onetime',
      '3',
    ]);
    expect(mentorshipOptions(checkoutFlags({ ...off, price2600: true }, link('price3900=1'))).shown).toEqual([
      'onetime3900',
      '3',
    ]);
    expect(mentorshipOptions(checkoutFlags(off, link('showsix=1'))).shown).toEqual(['onetime', '6']);
  });
  it('onetimePriceOnOffer: the server refuses the lower prices the admin has not offered', () => {
    expect([3200, 3900, 2600, 1600].map((p) => onetimePriceOnOffer(p as MentorshipOneTimePrice, off))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(onetimePriceOnOffer(2600, { ...off, price2600ByLink: true })).toBe(true);
    expect(onetimePriceOnOffer(1600, { ...off, downsell: true })).toBe(true);
  });
});

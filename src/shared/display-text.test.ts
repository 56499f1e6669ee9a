import { describe, expect, it } from 'vitest';
import { registerBodySchema } from './auth.ts';
import { cleanDisplayText } from './display-text.ts';
import { newTopicSchema } from './forums.ts';
import { FIELD_MESSAGES } from './constants.ts';
import { FORUM_MESSAGES } from './forums.ts';

const CASES: Array<[string, string, string]> = [
  // bidi controls
  ['right-to-left override', '\u202Eecila', 'ecila'],
  ['override closed by a pop', 'Bob\u202Enimda\u202C', 'Bobnimda'],
  ['left-to-right override', '\u202Dx', 'x'],
  ['embeddings', '\u202Aa\u202Bb\u202C', 'ab'],
  ['isolates', '\u2066a\u2067b\u2068c\u2069', 'abc'],
  ['marks', 'a\u200Eb\u200Fc\u061Cd', 'abcd'],
  // zero-width and other invisible characters
  ['zero-width space', 'Al\u200Bice', 'Alice'],
  ['word joiner', 'Al\u2060ice', 'Alice'],
  ['byte order mark', '\uFEFFAlice', 'Alice'],
  ['soft hyphen', 'Al\u00ADice', 'Alice'],
  ['Hangul filler (an "invisible" name)', '\u3164', ''],
  ['tag characters (hidden text)', 'Ann\u{E0069}\u{E0067}\u{E006E}', 'Ann'],
  ['joiner between Latin letters', 'Al\u200Dice', 'Alice'],
  ['non-joiner between Latin letters', 'Al\u200Cice', 'Alice'],
  ['joiner at the ends', '\u200DAlice\u200D', 'Alice'],
  ['a run of joiners', '👨\u200D\u200D👩', '👨👩'],
  // line breaks and controls become spaces
  ['newline', 'Alice\nAdmin', 'Alice Admin'],
  ['tab and CR', 'a\tb\rc', 'a b c'],
  ['line separator', 'a\u2028b\u2029c', 'a b c'],
  ['NUL and C1', 'a\u0000b\u0085c', 'a b c'],
  // kept: what changes how the text looks
  ['family emoji', '👨\u200D👩\u200D👧', '👨\u200D👩\u200D👧'],
  ['rainbow flag (variation selector before the joiner)', '🏳\uFE0F\u200D🌈', '🏳\uFE0F\u200D🌈'],
  ['skin tone before the joiner', '🧑🏽\u200D🤝\u200D🧑🏻', '🧑🏽\u200D🤝\u200D🧑🏻'],
  [
    'subdivision flag',
    '🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}',
    '🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}',
  ],
  ['Persian non-joiner', 'می\u200Cخواهم', 'می\u200Cخواهم'],
  ['Devanagari joiner', 'क्\u200Dष', 'क्\u200Dष'],
  ['Arabic next to Latin keeps no joiner', 'a\u200Cب', 'aب'],
  ['plain text', 'Jo Drummer-Smith', 'Jo Drummer-Smith'],
  ['right-to-left letters themselves', 'שלום עולם', 'שלום עולם'],
  ['accents', 'Zoë Ångström', 'Zoë Ångström'],
];

describe('cleanDisplayText', () => {
  it.each(CASES)('%s', (_label, input, output) => expect(cleanDisplayText(input)).toBe(output));
  it('is idempotent', () => {
    for (const [, input] of CASES) expect(cleanDisplayText(cleanDisplayText(input))).toBe(cleanDisplayText(input));
  });
});

describe('the shared schemas clean names and titles', () => {
  const register = (name: string) =>
    registerBodySchema.safeParse({ name, email: 'a@x.test', email_confirmation: 'a@x.test', password: 'password123' });

  it('registration stores the cleaned, trimmed name', () => {
    expect(register('  \u202Eecila\u200B ').data?.name).toBe('ecila');
    expect(register('Zoë 👨\u200D👩\u200D👧').data?.name).toBe('Zoë 👨\u200D👩\u200D👧');
  });
  it("a name that is only invisible characters is refused with the field's required sentence", () => {
    for (const name of ['\u202E', '\u200B\u200D\uFEFF', ' \u2066\u2069 ', '\u3164']) {
      const res = register(name);
      expect(res.success, JSON.stringify(name)).toBe(false);
      expect(res.error!.issues.find((i) => i.path[0] === 'name')?.message).toBe(FIELD_MESSAGES.nameRequired);
    }
  });
  it('a topic title is cleaned the same way', () => {
    expect(newTopicSchema.parse({ title: '\u202EBest grooves\u202C', body: 'x' }).title).toBe('Best grooves');
    expect(newTopicSchema.safeParse({ title: '\u200B', body: 'x' }).error!.issues[0]!.message).toBe(
      FORUM_MESSAGES.titleRequired,
    );
  });
});

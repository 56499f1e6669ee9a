import { z } from '#shared/zod';

/*
 * Finding zod's own developer wording in validation refusals: every refusal a member can meet is a
 * sentence about the field (docs/product/bad-input.md). Used by the walk over the shared schemas
 * (src/shared/zod.test.ts) and the walk over every registered route's schemas
 * (tests/node/human-messages.test.ts).
 */
export const ZOD_WORDING =
  /^(Invalid (input|option|string|element|key|value|email|url|uuid|date|ISO|discriminator)|Too (small|big)|Unrecognized key|Expected )|expected \w+, received|must match pattern/i;

const HOSTILE: unknown[] = [
  undefined,
  null,
  '',
  'x',
  ' ',
  -1,
  0,
  1.5,
  Number.NaN,
  true,
  [],
  {},
  'w'.repeat(100_000),
  ['x'],
  { a: 1 },
  '2026-13-45',
  'not an email',
  '<b>',
  9e15,
];

/** bad values for the whole schema and, for an object, each field in turn (the rest left out or wrong) */
export function* badInputs(schema: z.ZodType): Generator<unknown> {
  yield* HOSTILE;
  if (schema instanceof z.ZodObject) {
    const keys = Object.keys(schema.shape);
    for (const key of keys) for (const bad of HOSTILE) yield { [key]: bad };
    for (const bad of HOSTILE) yield Object.fromEntries(keys.map((k) => [k, bad]));
  }
}

/** "where path: message" for every refusal of a bad input worded by zod itself */
export function zodWorded(where: string, schema: z.ZodType): string[] {
  const found: string[] = [];
  for (const input of badInputs(schema)) {
    const result = schema.safeParse(input);
    if (result.success) continue;
    for (const issue of result.error.issues)
      if (ZOD_WORDING.test(issue.message)) found.push(`${where} ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return found;
}

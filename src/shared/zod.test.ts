import { describe, expect, it } from 'vitest';
import { zodWorded } from '#test/zod-wording';
import { fieldWords, humanMessage, z } from './zod.ts';

// Every validation refusal a member can meet is a sentence about the field: zod's own developer
// wording never reaches a page or an API answer (docs/product/bad-input.md).
const modules = import.meta.glob<Record<string, unknown>>(['./*.ts', '!./*.test.ts'], { eager: true });

/** every zod schema the shared modules export, by "module:name" */
function exportedSchemas(): Array<[string, z.ZodType]> {
  const found: Array<[string, z.ZodType]> = [];
  for (const [file, exports] of Object.entries(modules)) {
    for (const [name, value] of Object.entries(exports))
      if (value instanceof z.ZodType) found.push([`${file}:${name}`, value]);
  }
  return found;
}

describe('validation messages', () => {
  const schemas = exportedSchemas();

  it('finds the shared schemas', () => {
    expect(schemas.length).toBeGreaterThan(100);
  });

  it('no shared schema refuses anything in zod’s own wording', () => {
    const found = schemas.flatMap(([name, schema]) => zodWorded(name, schema));
    expect([...new Set(found)].slice(0, 20)).toEqual([]);
  });

  it.each([
    [z.object({ student_id: z.coerce.number().int() }), {}, 'Student is required.'],
    [z.object({ student_id: z.number() }), { student_id: 'abc' }, 'Student must be a number.'],
    [z.object({ complete: z.boolean() }), {}, 'Complete is required.'],
    [z.object({ repeat: z.boolean() }), { repeat: 'yes' }, 'Repeat must be yes or no.'],
    [z.object({ title: z.string().min(1) }), { title: '' }, 'Title is required.'],
    [z.object({ title: z.string().max(5) }), { title: 'too long' }, 'Title may be at most 5 characters.'],
    [z.object({ bpm: z.number().int().min(20) }), { bpm: 3 }, 'Bpm must be at least 20.'],
    [z.object({ email: z.email() }), { email: 'nope' }, 'Email must be a valid email address.'],
    [z.object({ kind: z.enum(['a', 'b']) }), { kind: 'c' }, 'Kind must be one of “a”, “b”.'],
    [z.strictObject({ a: z.string() }), { a: 'x', b: 1 }, '“b” is not a field this accepts.'],
  ])('%#: a sentence about the field', (schema, input, message) => {
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.message).toBe(message);
  });

  it('keeps a schema’s own message', () => {
    expect(z.string().min(1, 'Please write something.').safeParse('').error!.issues[0]!.message).toBe(
      'Please write something.',
    );
  });

  it('names fields in words', () => {
    expect(fieldWords(['student_id'])).toBe('student');
    expect(fieldWords(['displayName'])).toBe('display name');
    expect(fieldWords(['sections', 2, 'bars'])).toBe('bars');
    expect(fieldWords(['avatar_url'])).toBe('avatar address');
    expect(fieldWords([])).toBe('value');
    expect(humanMessage({ code: 'invalid_type', expected: 'string', input: 3, path: ['note'] } as never)).toBe(
      'Note must be text.',
    );
  });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from '#shared/zod';
import { createTestApp, type TestApp } from '#test/api-harness';
import { zodWorded } from '#test/zod-wording';

// The answers members met in zod's own wording, through the routes that gave them: each refusal is
// now a sentence about the field (docs/product/bad-input.md).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const ZOD_WORDING = /Invalid input|expected \w+, received|Too (small|big)|Invalid option/;

it('a bookmark without its lesson, or with a word for a number: sentences under the field', async () => {
  const { client } = await t.signedIn({ entitlements: ['membership'] });
  const missing = await client.post('/lesson-bookmarks', { bookmarked: true });
  expect(missing.statusCode).toBe(422);
  expect(missing.json().errors.lesson_id).toEqual(['Lesson is required.']);
  const word = await client.post('/lesson-bookmarks', { lesson_id: 'first', bookmarked: 'yes' });
  expect(word.statusCode).toBe(422);
  expect(JSON.stringify(word.json())).not.toMatch(ZOD_WORDING);
});

it('an accountability link without its student: a sentence under student_id', async () => {
  const { client } = await t.signedIn({ role: 'admin', entitlements: ['mentorship'] });
  const res = await client.post('/mentorship/accountability/links', {
    url: 'https://www.youtube.com/watch?v=abc',
    label: 'Week 1',
  });
  expect(res.statusCode).toBe(422);
  expect(res.json().errors.student_id).toEqual(['Student is required.']);
});

it('a song section missing its switches: sentences, not zod wording', async () => {
  const { client } = await t.signedIn({ entitlements: ['membership'] });
  const section = { title: 'Verse', measures: '8', division: '8th', surface: '', snare: '' };
  const res = await client.post('/songmapper', {
    song: { title: 'Long Train Runnin’', bpm: '112', expandFields: false, sections: [section] },
  });
  expect(res.statusCode).toBe(422);
  const body = res.json() as { message: string; errors: Record<string, string[]> };
  expect(body.errors['song.sections.0.otherTitle']).toEqual(['Other title is required.']);
  expect(body.errors['song.sections.0.otherDivision']).toEqual(['Other division is required.']);
  expect(JSON.stringify(body)).not.toMatch(ZOD_WORDING);
});

it('no route refuses its params, query or body in zod’s own wording (every registered route’s schemas)', () => {
  const found: string[] = [];
  let walked = 0;
  for (const route of t.app.routeList)
    for (const part of ['params', 'querystring', 'body'] as const) {
      const schema = (route.schema as Record<string, unknown>)[part];
      if (!(schema instanceof z.ZodType)) continue;
      walked++;
      found.push(...zodWorded(`${route.method} ${route.url} ${part}`, schema));
    }
  expect(walked).toBeGreaterThan(150);
  expect([...new Set(found)].slice(0, 20)).toEqual([]);
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from '#shared/zod';
import { createTestApp, type TestApp } from '#test/api-harness';
import { overridableRoute } from './method-override.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  overridableRoute(t.app, '/__things', 'public', {
    POST: {
      body: z.object({ name: z.string({ error: 'The name field is required.' }) }),
      handler: (_q, _r, body) => ({ did: 'create', body }),
    },
    DELETE: { handler: () => ({ did: 'delete' }) },
  });
});
afterAll(async () => t.close());

it('a POST with _method=delete reaches the DELETE handler, as the spec calls do', async () => {
  const c = await t.client();
  expect((await c.post('/__things', { _method: 'delete' })).json()).toEqual({ did: 'delete' });
  expect((await c.post('/__things', { _method: 'DELETE' }, { form: true })).json()).toEqual({ did: 'delete' });
  expect((await c.request('DELETE', '/__things')).json()).toEqual({ did: 'delete' });
});

it('a plain POST is validated with its own schema', async () => {
  const c = await t.client();
  expect((await c.post('/__things', { name: 'kick' })).json()).toEqual({ did: 'create', body: { name: 'kick' } });
  const bad = await c.post('/__things', {});
  expect(bad.statusCode).toBe(422);
  expect(bad.json()).toEqual({
    message: 'The name field is required.',
    errors: { name: ['The name field is required.'] },
  });
});

it('an override to a method the route lacks is refused', async () => {
  const c = await t.client();
  expect((await c.post('/__things', { _method: 'patch' })).statusCode).toBe(405);
});

it('still needs the CSRF token', async () => {
  const c = await t.client();
  expect((await c.post('/__things', { _method: 'delete' }, { csrf: false })).statusCode).toBe(419);
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from '#shared/zod';
import { MESSAGES } from '#shared/constants';
import { createTestApp, type TestApp } from '#test/api-harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

it('a route registered without an access class stops the app from starting', () => {
  expect(() => t.app.get('/__undeclared', async () => ({ ok: true }))).toThrow(
    /GET \/__undeclared declares no access class/,
  );
  // a class that does not exist is no declaration either
  expect(() =>
    t.app.get('/__misspelt', { config: { access: 'members' as 'member' } }, async () => ({ ok: true })),
  ).toThrow(/declares no access class/);
});

it("a declared class is enforced before the body is validated, from the route's own options", async () => {
  t.app.post(
    '/__declared',
    {
      config: { access: 'admin' },
      schema: { body: z.object({ name: z.string() }) },
    },
    async () => ({ ok: true }),
  );
  const visitor = await t.client();
  const res = await visitor.post('/__declared', {});
  expect([res.statusCode, res.json().message]).toEqual([401, MESSAGES.unauthenticated]);
  const member = (await t.signedIn()).client;
  const refused = await member.post('/__declared', {});
  expect([refused.statusCode, refused.json().message]).toEqual([403, MESSAGES.forbidden]);
  const admin = (await t.signedIn({ role: 'admin' })).client;
  expect((await admin.post('/__declared', {})).statusCode).toBe(422);
  expect((await admin.post('/__declared', { name: 'x' })).json()).toEqual({ ok: true });
});

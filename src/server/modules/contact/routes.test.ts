import { afterAll, beforeAll, expect, it } from 'vitest';
import { LEARNING } from '#shared/learning';
import { createTestApp, type TestApp } from '#test/api-harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

it('a review needs a body, with the spec message', async () => {
  const { client } = await t.signedIn();
  const res = await client.post('/contact/send', { subject: '', body: '   ', studentReview: '1' });
  expect(res.statusCode).toBe(422);
  expect(res.json()).toEqual({ message: LEARNING.reviewBodyRequired, errors: { body: [LEARNING.reviewBodyRequired] } });
});

it('stores reviews and lists them for admins only', async () => {
  const { client } = await t.signedIn({ name: 'Rev Iewer' });
  expect(
    (await client.post('/contact/send', { subject: '', body: 'Best lessons I have had', studentReview: '1' }))
      .statusCode,
  ).toBe(201);
  expect((await client.get('/api/admin/reviews')).statusCode).toBe(403);
  const admin = await t.signedIn({ role: 'admin' });
  const list = (await admin.client.get('/api/admin/reviews')).json().data;
  expect(list[0]).toMatchObject({ body: 'Best lessons I have had', name: 'Rev Iewer', subject: 'Student review' });
});

it('is rate-limited per member', async () => {
  const { client } = await t.signedIn();
  for (let i = 0; i < 5; i++)
    expect((await client.post('/contact/send', { body: `msg ${i}`, studentReview: '1' })).statusCode).toBe(201);
  expect((await client.post('/contact/send', { body: 'one more', studentReview: '1' })).statusCode).toBe(429);
});

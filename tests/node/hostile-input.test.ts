import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';

// The specific hostile inputs the fuzz suite found or must never regress on.
let t: TestApp;
let member: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  member = (await t.signedIn({ entitlements: ['membership'] })).client;
});
afterAll(async () => t?.close());

describe('bodies and values the server cannot use', () => {
  it('a truncated multipart body, or one without a boundary, is a 400 that says so', async () => {
    const truncated = await member.request(
      'POST',
      '/dashboard/upload-image',
      '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG',
      {
        headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      },
    );
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json()).toEqual({ message: 'The request body could not be read.' });
    const noBoundary = await member.request('POST', '/journal', 'hello', {
      headers: { 'content-type': 'multipart/form-data' },
    });
    expect(noBoundary.statusCode).toBe(400);
  });

  it('a NUL byte that reaches the database is a 400, not a server error', async () => {
    const res = await member.get('/api/courses/%00');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'The request contains a value that cannot be stored.' });
  });

  it('__proto__ and constructor keys grant nothing and pollute nothing', async () => {
    const res = await member.request(
      'POST',
      '/api/admin/notifications',
      '{"__proto__":{"isAdmin":true,"role":"admin"},"constructor":{"prototype":{"isAdmin":true}},"user_id":1,"body":"hi"}',
      {
        headers: { 'content-type': 'application/json' },
      },
    );
    // refused while parsing (Fastify's prototype-poisoning guard), before anyone looks at who sent it
    expect(res.statusCode).toBe(400);
    expect(typeof (res.json() as { message: unknown }).message).toBe('string');
    const plain = await member.post('/api/admin/notifications', {
      user_id: 1,
      body: 'hi',
      isAdmin: true,
      role: 'admin',
    });
    expect(plain.statusCode).toBe(403);
    expect(({} as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    const me = (await member.get('/api/me')).json() as { data?: { admin?: boolean }; admin?: boolean };
    expect(me.data?.admin ?? me.admin ?? false).toBe(false);
  });

  it('truncated JSON and wrong content types are 4xx with a message', async () => {
    const truncated = await member.request('POST', '/journal', '{"exercises":', {
      headers: { 'content-type': 'application/json' },
    });
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json()).toEqual({ message: 'The request body is not valid JSON.' });
    const xml = await member.request('POST', '/journal', '<a/>', { headers: { 'content-type': 'application/xml' } });
    expect(xml.statusCode).toBe(415);
    expect(typeof (xml.json() as { message: unknown }).message).toBe('string');
  });
});

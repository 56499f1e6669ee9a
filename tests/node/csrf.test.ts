import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '#shared/constants';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';
import { concreteUrl, CSRF_EXEMPT } from '#test/route-fixtures';

// Every state-changing route refuses a request without the session's CSRF token, before it
// looks at anything else; the only exceptions are listed, with their reasons, in CSRF_EXEMPT.

let t: TestApp;
let admin: TestClient;
let member: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signedIn({ role: 'admin' })).client;
  member = (await t.signedIn({ entitlements: ['membership', 'mentorship'] })).client;
});
afterAll(async () => t?.close());

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
type Method = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

describe('CSRF', () => {
  it('only the listed routes skip the token, and each of them still exists', () => {
    const skipping = t.app.routeList.filter((r) => !SAFE.has(r.method) && !r.csrf).map((r) => `${r.method} ${r.url}`);
    expect(skipping.sort()).toEqual(Object.keys(CSRF_EXEMPT).sort());
  });

  it('every other state-changing route answers 419 without the token, or with a wrong one, for members and admins alike', async () => {
    const routes = t.app.routeList.filter((r) => !SAFE.has(r.method) && r.csrf);
    expect(routes.length).toBeGreaterThan(50);
    const wrong: string[] = [];
    for (const r of routes) {
      const url = concreteUrl(r.url);
      for (const client of [admin, member]) {
        const none = await client.request(r.method as Method, url, { _probe: 1 }, { csrf: false });
        const forged = await client.request(
          r.method as Method,
          url,
          { _token: 'forged-token' },
          { csrf: false, headers: { 'x-csrf-token': 'forged-token' } },
        );
        for (const res of [none, forged]) {
          if (res.statusCode !== 419 || (res.json() as { message?: string }).message !== MESSAGES.csrfMismatch)
            wrong.push(`${r.method} ${r.url} -> ${res.statusCode}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a form post carries the token as _token; a request from a visitor without a session is refused too', async () => {
    const visitor = await t.client();
    const res = await visitor.request('POST', '/login', { email: 'a@b.test', password: 'x' }, { csrf: false });
    expect(res.statusCode).toBe(419);
    const form = await visitor.request(
      'POST',
      '/login',
      { email: 'nobody@test.test', password: 'wrong-password', _token: visitor.csrfToken },
      { csrf: false, form: true },
    );
    expect(form.statusCode).not.toBe(419);
  });

  it('the one state-changing GET (GET /dashboard/clear-image) needs the page token in its address', async () => {
    const res = await member.get('/dashboard/clear-image');
    expect(res.statusCode).toBe(419);
    const forged = await member.get('/dashboard/clear-image?_token=forged');
    expect(forged.statusCode).toBe(419);
    const ok = await member.get(`/dashboard/clear-image?_token=${encodeURIComponent(member.csrfToken)}`);
    expect(ok.statusCode).toBe(303);
  });
});

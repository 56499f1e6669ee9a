import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from '#server/test/harness';
import { concreteUrl } from './route-fixtures.ts';

// Issue 9: every redirect the server issues stays on the site, whatever the address asks for.

const EVIL = ['//evil.test/x', 'https://evil.test/x', '/\\evil.test', '/%2F%2Fevil.test', '%2F%2Fevil.test', 'javascript:alert(1)', ' //evil.test', '/\t/evil.test', 'http:evil.test'];
const PARAMS = ['to', 'redirect', 'return', 'return_to', 'returnUrl', 'next', 'url', 'continue'];

let t: TestApp;
let visitor: TestClient;
let member: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  visitor = await t.client();
  member = (await t.signedIn({ entitlements: ['membership'] })).client;
});
afterAll(async () => t?.close());

/** a Location is on-site when it is a path (not "//host" or "/\host") or an address on our own origin */
function onSite(location: string): boolean {
  if (location.startsWith('/')) return !location.startsWith('//') && !location.startsWith('/\\') && !/[\t\n\r]/.test(location);
  try {
    return new URL(location).origin === new URL(t.config.appUrl).origin;
  } catch {
    return false;
  }
}

describe('open redirects', () => {
  it('no GET route, for a visitor or a member, as a page or as a call, redirects off the site', async () => {
    const gets = t.app.routeList.filter((r) => r.method === 'GET');
    const offSite: string[] = [];
    let redirects = 0;
    for (const route of gets) {
      for (const evil of EVIL) {
        const query = PARAMS.map((p) => `${p}=${encodeURIComponent(evil)}`).join('&');
        const url = `${concreteUrl(route.url)}?${query}`;
        for (const client of [visitor, member]) {
          for (const accept of ['text/html', 'application/json']) {
            const res = await client.get(url, { headers: { accept } });
            const location = res.headers.location;
            if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string') {
              redirects++;
              if (!onSite(location)) offSite.push(`${route.url} ${evil} (${accept}) -> ${location}`);
            }
          }
        }
      }
    }
    expect(redirects, 'the probe reached redirecting routes').toBeGreaterThan(10);
    expect(offSite).toEqual([]);
  });

  it('signing in and registering answer an on-site destination whatever ?to= or redirect says', async () => {
    for (const evil of EVIL) {
      const c = await t.client();
      const user = await t.createUser();
      const res = await c.post(`/login?to=${encodeURIComponent(evil)}`, { email: user.email, password: user.password, to: evil });
      expect(res.statusCode).toBe(200);
      const body = res.json() as { redirect?: string };
      expect(onSite(body.redirect ?? '/'), `${evil} -> ${body.redirect}`).toBe(true);

      const page = await c.request('POST', `/login?to=${encodeURIComponent(evil)}`, { email: user.email, password: user.password, _token: c.csrfToken }, { form: true, csrf: false, headers: { accept: 'text/html' } });
      if (page.headers.location) expect(onSite(String(page.headers.location)), `${evil} -> ${page.headers.location}`).toBe(true);

      const fresh = await t.client();
      const email = `redir-${Math.random().toString(16).slice(2)}@test.test`;
      const reg = await fresh.post('/register', { name: 'Redirect Test', email, email_confirmation: email, password: 'password123', password_confirmation: 'password123', redirect: evil });
      expect(reg.statusCode, reg.body).toBe(200);
      expect(onSite((reg.json() as { redirect: string }).redirect), evil).toBe(true);
    }
  });
});

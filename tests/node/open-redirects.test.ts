import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';
import { concreteUrl } from '#test/route-fixtures';

// Every redirect the server issues, and every address it stores for people to follow, stays on the
// site, whatever the request asks for.

const EVIL = [
  '//evil.test/x',
  'https://evil.test/x',
  '/\\evil.test',
  '/%2F%2Fevil.test',
  '%2F%2Fevil.test',
  'javascript:alert(1)',
  ' //evil.test',
  '/\t/evil.test',
  'http:evil.test',
  '/.//evil.test/x',
  '/%2e%2e//evil.test',
];

/**
 * Values for the parameters that carry an address: each leads (after the normalising a browser or
 * the URL parser does) off the site, so each must be answered with the fallback.
 */
const TRICKY: unknown[] = [
  '/.//evil.example/x',
  '/a/../..//evil.example',
  '/%2e%2e//evil.example',
  '/%2E%2E//evil.example',
  '/%2f%2fevil.example',
  '%2F%2Fevil.example',
  '/%5cevil.example',
  '/\\evil.example',
  '\\/evil.example',
  '/\\/evil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r\n/evil.example',
  '\uff0f\uff0fevil.example',
  '\u2215\u2215evil.example',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'https://evil.example/x',
  '//evil.example',
  '///evil.example',
  '//user@evil.example',
  `/${'a'.repeat(2100)}`,
  42,
  ['/dashboard', '//evil.example'],
  { to: '//evil.example' },
];
/** addresses that stay on the site, answered as the address a browser follows */
const GOOD: Array<[string, string]> = [
  ['/dashboard', '/dashboard'],
  ['/lessons/1?x=1#c', '/lessons/1?x=1#c'],
  ['/forums/topic/3?page=2', '/forums/topic/3?page=2'],
  ['/@evil.example', '/@evil.example'],
  ['/\u3002evil', '/%E3%80%82evil'],
  ['/a/../lessons/3', '/lessons/3'],
];
const show = (v: unknown) => JSON.stringify(v).slice(0, 60);
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

/** a Location is on-site when a browser on the site, following it, stays on the site's origin */
function onSite(location: string): boolean {
  try {
    return new URL(location, `${t.config.appUrl}/a/page`).origin === new URL(t.config.appUrl).origin;
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
      const res = await c.post(`/login?to=${encodeURIComponent(evil)}`, {
        email: user.email,
        password: user.password,
        to: evil,
      });
      expect(res.statusCode).toBe(200);
      const body = res.json() as { redirect?: string };
      expect(onSite(body.redirect ?? '/'), `${evil} -> ${body.redirect}`).toBe(true);

      const page = await c.request(
        'POST',
        `/login?to=${encodeURIComponent(evil)}`,
        { email: user.email, password: user.password, _token: c.csrfToken },
        { form: true, csrf: false, headers: { accept: 'text/html' } },
      );
      if (page.headers.location)
        expect(onSite(String(page.headers.location)), `${evil} -> ${page.headers.location}`).toBe(true);

      const fresh = await t.client();
      const email = `redir-${Math.random().toString(16).slice(2)}@test.test`;
      const reg = await fresh.post('/register', {
        name: 'Redirect Test',
        email,
        email_confirmation: email,
        password: 'password123',
        password_confirmation: 'password123',
        redirect: evil,
      });
      expect(reg.statusCode, reg.body).toBe(200);
      expect(onSite((reg.json() as { redirect: string }).redirect), evil).toBe(true);
    }
  });
});

describe('every parameter that carries an address', () => {
  it('POST /login: `to` that would leave the site answers the dashboard, as JSON and as a 303', async () => {
    const user = await t.createUser();
    for (const to of TRICKY) {
      const c = await t.client();
      const res = await c.post('/login', { email: user.email, password: user.password, to });
      expect(res.statusCode, `${show(to)}: ${res.body}`).toBe(200);
      expect(res.json(), show(to)).toEqual({ redirect: '/dashboard' });
      if (typeof to !== 'string') continue;
      const form = await t.client();
      const page = await form.request(
        'POST',
        '/login',
        { email: user.email, password: user.password, to, _token: form.csrfToken },
        { form: true, csrf: false, headers: { accept: 'text/html' } },
      );
      expect(page.statusCode, show(to)).toBe(303);
      expect(page.headers.location, show(to)).toBe('/dashboard');
    }
  });

  it('POST /login: a `to` on the site is kept (normalised as a browser would)', async () => {
    const user = await t.createUser();
    for (const [to, expected] of GOOD) {
      const c = await t.client();
      expect((await c.post('/login', { email: user.email, password: user.password, to })).json(), to).toEqual({
        redirect: expected,
      });
    }
    const form = await t.client();
    const page = await form.request(
      'POST',
      '/login',
      { email: user.email, password: user.password, to: '/lessons/1?x=1#c', _token: form.csrfToken },
      { form: true, csrf: false, headers: { accept: 'text/html' } },
    );
    expect(page.headers.location).toBe('/lessons/1?x=1#c');
  });

  it('POST /register: `redirect` that would leave the site answers the dashboard; one on the site is kept', async () => {
    const register = async (redirect: unknown) => {
      const c = await t.client();
      const email = `redir-${Math.random().toString(16).slice(2)}@test.test`;
      return c.post('/register', {
        name: 'Redirect Test',
        email,
        email_confirmation: email,
        password: 'password123',
        redirect,
      });
    };
    for (const redirect of TRICKY) {
      const res = await register(redirect);
      expect(res.statusCode, `${show(redirect)}: ${res.body}`).toBe(200);
      expect(res.json().redirect, show(redirect)).toBe('/dashboard');
    }
    for (const [redirect, expected] of GOOD.slice(0, 3))
      expect((await register(redirect)).json().redirect, redirect).toBe(expected);
  });

  it('POST /api/admin/notifications: a link that would leave the site is refused with a sentence on the field', async () => {
    const { client: admin } = await t.signedIn({ role: 'admin' });
    const { user: member } = await t.signedIn();
    for (const url of [
      '/\\example.com',
      '/.//evil.example/x',
      '/%2e%2e//evil.example',
      '/%2f%2fevil.example',
      '//evil.example',
      '///evil.example',
      'https://evil.example',
      'javascript:alert(1)',
      '/\t/evil.example',
    ]) {
      const res = await admin.post('/api/admin/notifications', { user_id: member.id, body: 'Look', url });
      expect(res.statusCode, show(url)).toBe(422);
      expect(res.json().errors.url, show(url)).toEqual([
        'The link must be an address on this site, starting with a single "/" (for example /lessons/12).',
      ]);
    }
    const ok = await admin.post('/api/admin/notifications', {
      user_id: member.id,
      body: 'Look',
      url: '/a/../lessons/3?x=1#c',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().data.url).toBe('/lessons/3?x=1#c');
    const none = await admin.post('/api/admin/notifications', { user_id: member.id, body: 'Look', url: '' });
    expect(none.json().data.url).toBeNull();
  });

  it('admin content links: a path that would leave the site is refused; https addresses elsewhere stay allowed where the field takes them', async () => {
    const { client: admin } = await t.signedIn({ role: 'admin' });
    const sentence = (field: string) => [`The ${field} must be an https:// address or a path on this site.`];
    const course = await admin.post('/api/admin/courses', {
      title: 'Links',
      slug: 'links-course',
      description: '',
      members_only: true,
      area: 'main',
      is_welcome: false,
      position: 0,
    });
    expect(course.statusCode, course.body).toBe(201);
    const courseId = course.json().data.id as number;
    const lesson = await admin.post(`/api/admin/courses/${courseId}/lessons`, {
      title: 'L',
      slug: 'links-lesson',
      description: '',
      members_only: true,
      position: 0,
    });
    expect(lesson.statusCode, lesson.body).toBe(201);
    const lessonId = lesson.json().data.id as number;
    for (const url of ['/\\evil.example', '/.//evil.example/x', '/%2f%2fevil.example', '//evil.example']) {
      const paths = await admin.request('PUT', `/api/admin/lessons/${lessonId}/paths`, {
        paths: [{ title: 'Notation', url }],
      });
      expect(paths.statusCode, show(url)).toBe(422);
      expect(paths.json().errors['paths.0.url'], show(url)).toEqual(sentence('address'));
      const image = await admin.request('PUT', `/api/admin/courses/${courseId}`, {
        title: 'Links',
        slug: 'links-course',
        description: '',
        members_only: true,
        area: 'main',
        is_welcome: false,
        position: 0,
        image_url: url,
      });
      expect(image.json().errors?.image_url, show(url)).toEqual(sentence('image'));
    }
    const saved = await admin.request('PUT', `/api/admin/lessons/${lessonId}/paths`, {
      paths: [
        { title: 'Site', url: '/x/../lessons/3' },
        { title: 'Elsewhere', url: 'https://www.soundslice.com/slices/abc/' },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.paths.map((p: { url: string }) => p.url)).toEqual([
      '/lessons/3',
      'https://www.soundslice.com/slices/abc/',
    ]);
  });

  it('the sandbox PayPal test tool refuses return and cancel addresses off the site', async () => {
    const c = await t.client();
    for (const url of ['/\\evil.example', '/.//evil.example/x', 'https://evil.example/x']) {
      const res = await c.post(
        '/sandbox/test/paypal',
        { kind: 'order', amount_cents: 100, return_url: url, cancel_url: url },
        { csrf: false },
      );
      expect(res.statusCode, show(url)).toBe(422);
      expect(Object.keys(res.json().errors).sort()).toEqual(['cancel_url', 'return_url']);
    }
    const ok = await c.post(
      '/sandbox/test/paypal',
      { kind: 'order', amount_cents: 100, return_url: '/order', cancel_url: '/join?canceled=1' },
      { csrf: false },
    );
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

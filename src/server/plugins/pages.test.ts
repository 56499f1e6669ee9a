import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '#shared/constants';
import { pageConfigSchema } from '#shared/page-config';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createTestApp, type TestApp } from '#test/api-harness';
import { pageEncoding } from './pages.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // a route that fails unexpectedly, to see what a client gets
  t.app.get('/__boom', { config: { access: 'public' } }, async () => {
    throw new Error('secret internals at /srv/app.ts:12');
  });
});
afterAll(async () => t.close());

const configOf = (html: string) =>
  pageConfigSchema.parse(
    JSON.parse(/<script type="application\/json" id="page-config">(.*?)<\/script>/s.exec(html)![1]!),
  );

describe('served pages', () => {
  it('carry the CSRF token and the page-wide configuration', async () => {
    const user = await t.createUser({ name: 'Tina <Weymouth>', role: 'admin' });
    const c = await t.client();
    await c.signIn(user.email, user.password);
    const res = await c.page('/dashboard');
    expect(res.statusCode).toBe(200);
    const config = configOf(res.body);
    expect(config).toMatchObject({
      admin: true,
      authId: user.id,
      authName: 'Tina <Weymouth>',
      authProfileUrl: '/profile/tina-weymouth',
      fileStorageBaseUrl: '/files',
      csrfToken: c.csrfToken,
    });
    expect(config.authAvatarUrl).toBe('/images/default-avatar.png');
    // user text cannot close the script element
    expect(res.body).not.toContain('<Weymouth>');
  });

  it('send a signed-out visitor of a members page to /login?to=...', async () => {
    const c = await t.client();
    const res = await c.page('/notifications?page=2');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login?to=%2Fnotifications%3Fpage%3D2');
  });

  it('answer an unknown address with a 404 page, and an API call with JSON', async () => {
    const c = await t.client();
    const page = await c.page('/no/such/page');
    expect(page.statusCode).toBe(404);
    expect(configOf(page.body).error).toEqual({ status: 404, message: MESSAGES.notFound });
    const api = await c.get('/no/such/page');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ message: MESSAGES.notFound });
  });

  it('forbid the mentorship area without the entitlement (403 page)', async () => {
    const user = await t.createUser();
    const c = await t.client();
    await c.signIn(user.email, user.password);
    expect((await c.page('/mentorship')).statusCode).toBe(403);
    const student = await t.createUser({ entitlements: ['mentorship'] });
    const s = await t.client();
    await s.signIn(student.email, student.password);
    expect((await s.page('/mentorship')).statusCode).toBe(200);
  });

  it('send security headers', async () => {
    const res = await (await t.client()).page('/');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain('https://www.youtube-nocookie.com');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('errors', () => {
  it('never show a stack trace; a 5xx names a request id', async () => {
    const c = await t.client();
    const res = await c.get('/__boom');
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret internals');
    expect(res.json().message).toMatch(/^Something went wrong on our side\. Please try again\. \(reference [\w-]+\)$/);
  });

  it('a broken JSON body is a clear 400', async () => {
    const c = await t.client();
    const res = await c.request('POST', '/login', '{"email":', { headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The request body is not valid JSON.');
  });

  it('an oversize body is refused with 413', async () => {
    const c = await t.client();
    const res = await c.post('/login', { email: 'a@b.test', password: 'x'.repeat(2 * 1024 * 1024) });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('The request is too large.');
  });

  it('__proto__ keys are refused', async () => {
    const c = await t.client();
    const res = await c.request('POST', '/login', '{"email":"a@b.test","password":"x","__proto__":{"admin":true}}', {
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
  });

  it('a page is sent compressed to a browser that accepts it, and whole to one that does not', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/metronome', headers: { accept: 'text/html' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const html = plain.body;
    expect(html).toContain('<div id="root"');
    const strip = (page: string) =>
      page.replace(/<meta name="csrf-token" content="[^"]*">/, '').replace(/"csrfToken":"[^"]*"/, '');
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
      ['br;q=0, gzip;q=0.8', 'gzip', gunzipSync],
    ] as const) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metronome',
        headers: { accept: 'text/html', 'accept-encoding': accept },
      });
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(String(res.headers.vary)).toContain('Accept-Encoding');
      expect(res.rawPayload.length).toBeLessThan(html.length);
      expect(strip(decode(res.rawPayload).toString('utf8'))).toBe(strip(html));
    }
    const identity = await t.app.inject({
      method: 'GET',
      url: '/metronome',
      headers: { accept: 'text/html', 'accept-encoding': 'identity' },
    });
    expect(identity.headers['content-encoding']).toBeUndefined();
  });

  it('reads Accept-Encoding as browsers and proxies write it', () => {
    expect(pageEncoding(undefined)).toBeNull();
    expect(pageEncoding('')).toBeNull();
    expect(pageEncoding('gzip, deflate, br')).toBe('br');
    expect(pageEncoding('BR;Q=0.5')).toBe('br');
    expect(pageEncoding('br;q=0')).toBeNull();
    expect(pageEncoding('deflate, gzip;q=1.0, *;q=0.5')).toBe('br');
    expect(pageEncoding('*;q=0, gzip')).toBe('gzip');
    expect(pageEncoding('identity')).toBeNull();
  });
});

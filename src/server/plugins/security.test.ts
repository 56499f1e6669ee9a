import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet from 'helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#test/api-harness';
import { headersSetBy } from './security.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('security headers', () => {
  it('worked out once, they are what helmet sets on a real response', () => {
    const options = {
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"] } },
      hsts: false,
    };
    const res = new ServerResponse(new IncomingMessage(new Socket()));
    let finished = false;
    helmet(options)(new IncomingMessage(new Socket()), res, () => {
      finished = true;
    });
    expect(finished).toBe(true);
    const recorded = headersSetBy(helmet(options));
    expect(recorded.length).toBeGreaterThan(5);
    expect(Object.fromEntries(recorded.map(([name, value]) => [name.toLowerCase(), value]))).toEqual(res.getHeaders());
  });

  it('an API answer carries the short policy an API needs', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/notifications/recent',
      headers: { accept: 'application/json' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers).toMatchObject({
      'content-security-policy': "default-src 'none';frame-ancestors 'self'",
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
    });
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['x-dns-prefetch-control']).toBeUndefined();
  });

  it('a page carries the page policy and the document headers, on every request alike', async () => {
    const c = await t.client();
    const [first, second] = [await c.page('/'), await c.page('/metronome')];
    for (const res of [first, second]) {
      expect(res.headers['content-security-policy']).toMatch(/^default-src 'self';/);
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
      expect(res.headers).toMatchObject({
        'x-dns-prefetch-control': 'off',
        'origin-agent-cluster': '?1',
        'x-frame-options': 'SAMEORIGIN',
        'x-content-type-options': 'nosniff',
      });
    }
    expect(second.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { MESSAGES } from '#shared/constants';
import { ADDRESS_LIMITS, RATE_LIMITS, type RateLimitName } from '#server/lib/rate-limits';
import { createTestApp, type TestApp, type TestClient } from '#server/test/harness';

// Issue 9: sign-in, registration, posting, chat, wall comments, likes, uploads and the contact form are
// limited per member and per address, all in lib/rate-limits.ts, shared through Redis when configured.

let t: TestApp;
let a: TestClient;
let b: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  a = (await t.signedIn({ entitlements: ['membership'] })).client;
  b = (await t.signedIn({ entitlements: ['membership'] })).client;
});
afterAll(async () => t?.close());

/** the actions: the per-member limit each feature consumes, and its per-address call */
const ACTIONS: Array<{ action: string; member: RateLimitName; call: string }> = [
  { action: 'posting', member: 'postsPerUser', call: 'POST /posts' },
  { action: 'new topics', member: 'topicsPerUser', call: 'POST /api/forums/:slug/topics' },
  { action: 'chat', member: 'chatPerUser', call: 'POST /live-chat/messages' },
  { action: 'hearts', member: 'heartsPerUser', call: 'POST /live-chat/toggle-heart' },
  { action: 'wall comments', member: 'wallCommentsPerUser', call: 'POST /profile-comments' },
  { action: 'likes', member: 'likesPerUser', call: 'POST /toggle-like' },
  { action: 'uploads', member: 'uploadsPerUser', call: 'POST /attachments' },
  { action: 'contact form', member: 'contactPerUser', call: 'POST /contact/send' },
  { action: 'reports', member: 'reportsPerUser', call: 'POST /api/reports' },
];

describe('abuse limits', () => {
  it('every per-address call exists, and each of the issue\'s actions has a per-member and a per-address limit', () => {
    const registered = new Set(t.app.routeList.map((r) => `${r.method} ${r.url}`));
    expect(Object.keys(ADDRESS_LIMITS).filter((k) => !registered.has(k))).toEqual([]);
    for (const a of ACTIONS) {
      expect(RATE_LIMITS[a.member], a.action).toBeDefined();
      expect(ADDRESS_LIMITS[a.call], a.action).toBeDefined();
    }
    // sign-in and registration: per address, and sign-in failures per account
    expect(RATE_LIMITS.loginPerIp && RATE_LIMITS.registerPerIp && RATE_LIMITS.loginFailuresPerEmail).toBeTruthy();
  });

  it.each(ACTIONS.map((x) => [x.call, x] as const))('%s: once an address has spent its budget it hears 429, whoever signs in there; other addresses go on', async (_call, x) => {
    const name = ADDRESS_LIMITS[x.call]!;
    const [method, route] = x.call.split(' ') as ['POST', string];
    const url = route.replace(':slug', 'general');
    await t.app.deps.limiters.consume(name, a.remoteAddress, RATE_LIMITS[name].points);
    const refused = await a.request(method, url, {});
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: MESSAGES.tooManyAttempts });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const other = await b.request(method, url, {});
    expect(other.statusCode).not.toBe(429);
    await t.app.deps.limiters.reset(name, a.remoteAddress);
  });

  it.runIf(!!process.env.REDIS_URL)('with Redis, two app instances share the counts (the two-process test covers real processes)', async () => {
    const keyNamespace = `bbrl${randomBytes(4).toString('hex')}`;
    const one = await createTestApp({ redisUrl: process.env.REDIS_URL!, keyNamespace });
    const two = await createTestApp({ redisUrl: process.env.REDIS_URL!, keyNamespace });
    try {
      const client = (await two.signedIn()).client;
      await one.app.deps.limiters.consume('contactPerIp', client.remoteAddress, RATE_LIMITS.contactPerIp.points);
      const res = await client.post('/contact/send', { subject: 'Hello', message: 'Spam?' });
      expect(res.statusCode).toBe(429);
    } finally {
      await one.close();
      await two.close();
    }
  });
});

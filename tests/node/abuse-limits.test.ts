import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { MESSAGES } from '#shared/constants';
import { SIGN_IN_THROTTLE_MESSAGES } from '#shared/auth';
import {
  ADDRESS_LIMITS,
  LOGIN_THROTTLE,
  RATE_LIMITS,
  loginSpacingSeconds,
  type RateLimitName,
} from '#server/lib/rate-limits';
import { createTestApp, type TestApp, type TestClient } from '#test/api-harness';

// Sign-in, registration, posting, chat, wall comments, likes, uploads and the contact form are
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
const outer = () => t;

/** the limited actions: the per-member limit each feature consumes, and its per-address call */
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
  it("every per-address call exists, and each of the issue's actions has a per-member and a per-address limit", () => {
    const registered = new Set(t.app.routeList.map((r) => `${r.method} ${r.url}`));
    expect(Object.keys(ADDRESS_LIMITS).filter((k) => !registered.has(k))).toEqual([]);
    for (const a of ACTIONS) {
      expect(RATE_LIMITS[a.member], a.action).toBeDefined();
      expect(ADDRESS_LIMITS[a.call], a.action).toBeDefined();
    }
    // sign-in and registration: per address, and sign-in failures per account and place and per account
    expect(
      RATE_LIMITS.loginPerIp &&
        RATE_LIMITS.registerPerIp &&
        RATE_LIMITS.loginFailuresPerPair &&
        RATE_LIMITS.loginFailuresPerAccount,
    ).toBeTruthy();
  });

  it.each(ACTIONS.map((x) => [x.call, x] as const))(
    '%s: once an address has spent its budget it hears 429, whoever signs in there; other addresses go on',
    async (_call, x) => {
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
    },
  );

  it.runIf(!!process.env.REDIS_URL)(
    'with Redis, two app instances share the counts (the two-process test covers real processes)',
    async () => {
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
    },
  );
});

// the counts live in this process's memory, or in Redis (shared by every process) when it is configured
const STORES = process.env.REDIS_URL ? (['memory', 'Redis'] as const) : (['memory'] as const);

describe.each(STORES)('sign-in throttling (%s): guessing never keeps the owner out', (store) => {
  let t: TestApp;
  beforeAll(async () => {
    t =
      store === 'memory'
        ? outer()
        : await createTestApp({
            redisUrl: process.env.REDIS_URL!,
            keyNamespace: `bbrl${randomBytes(4).toString('hex')}`,
          });
  });
  afterAll(async () => {
    if (store !== 'memory') await t.close();
  });
  const wrong = (c: TestClient, email: string) => c.post('/login', { email, password: 'not-the-password' });
  const right = (c: TestClient, user: { email: string; password: string }) =>
    c.post('/login', { email: user.email, password: user.password });
  /** one wrong password from each of `n` new addresses */
  async function failFromNewAddresses(email: string, n: number) {
    for (let i = 0; i < n; i++) expect((await wrong(await t.client(), email)).statusCode).toBe(422);
  }

  it('10 wrong passwords from address A shut A out of that account (429, Retry-After, a sentence); the right password from address B signs in', async () => {
    const user = await t.createUser();
    const a = await t.client();
    for (let i = 0; i < RATE_LIMITS.loginFailuresPerPair.points; i++)
      expect((await wrong(a, user.email)).statusCode).toBe(422);
    for (const attempt of [() => wrong(a, user.email), () => right(a, user)]) {
      const refused = await attempt();
      expect(refused.statusCode).toBe(429);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(LOGIN_THROTTLE.pairBlockSeconds - 60);
      expect(retryAfter).toBeLessThanOrEqual(LOGIN_THROTTLE.pairBlockSeconds);
      expect(refused.json()).toEqual({ message: SIGN_IN_THROTTLE_MESSAGES.pausedHere(retryAfter) });
    }
    const b = await t.client();
    const owner = await right(b, user);
    expect(owner.statusCode).toBe(200);
    expect((await b.get('/api/me')).json().user.id).toBe(user.id);
    // the owner signing in elsewhere does not let A back in; A can still sign in to other accounts
    expect((await right(a, user)).statusCode).toBe(429);
    const other = await t.createUser();
    expect((await right(a, other)).statusCode).toBe(200);
  });

  it('the right password resets the count of its account and address', async () => {
    const user = await t.createUser();
    const a = await t.client();
    const almost = RATE_LIMITS.loginFailuresPerPair.points - 1;
    for (let i = 0; i < almost; i++) expect((await wrong(a, user.email)).statusCode).toBe(422);
    expect((await right(a, user)).statusCode).toBe(200);
    // counted by address again (not by the browser the sign-in just remembered), and the account's
    // own count run out, as an hour later
    a.cookies.delete('bb_device');
    await t.app.deps.limiters.reset('loginFailuresPerAccount', user.email);
    for (let i = 0; i < almost + 1; i++) expect((await wrong(a, user.email)).statusCode).toBe(422);
    expect((await right(a, user)).statusCode).toBe(429);
  });

  it('wrong passwords from many addresses space the account out: 429 with a growing Retry-After, capped, never a lock', async () => {
    const user = await t.createUser();
    const free = RATE_LIMITS.loginFailuresPerAccount.points;
    await failFromNewAddresses(user.email, free);
    const seen: number[] = [];
    for (let failures = free; failures < free + 7; failures++) {
      // one attempt has the account's turn...
      expect((await wrong(await t.client(), user.email)).statusCode).toBe(422);
      // ...and the next, from anywhere, even with the right password, waits the interval
      const refused = await right(await t.client(), user);
      expect(refused.statusCode).toBe(429);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(refused.json()).toEqual({ message: SIGN_IN_THROTTLE_MESSAGES.slowedDown(retryAfter) });
      expect(retryAfter).toBe(loginSpacingSeconds(failures));
      seen.push(retryAfter);
      // the interval passing, without waiting for it
      await t.app.deps.limiters.reset('loginSlowdownPerAccount', user.email);
    }
    expect(seen).toEqual([1, 2, 4, 8, 16, 30, 30]);
    expect(LOGIN_THROTTLE.maxSpacingSeconds).toBe(30);
    // once the interval has passed, the owner's right password from a new address signs in
    expect((await right(await t.client(), user)).statusCode).toBe(200);
  });

  it('a browser that signed in to the account before is not spaced out by guessing from elsewhere', async () => {
    const user = await t.createUser();
    const known = await t.client();
    await known.signIn(user.email, user.password);
    expect(known.cookies.get('bb_device')).toMatch(/^[\w-]+\.[\w-]+$/);
    await known.post('/logout');
    await failFromNewAddresses(user.email, RATE_LIMITS.loginFailuresPerAccount.points);
    expect((await wrong(await t.client(), user.email)).statusCode).toBe(422);
    expect((await right(await t.client(), user)).statusCode).toBe(429);
    expect((await right(known, user)).statusCode).toBe(200);
    // its cookie speaks for that account only
    const other = await t.createUser();
    await failFromNewAddresses(other.email, RATE_LIMITS.loginFailuresPerAccount.points + 1);
    const borrowed = await t.client();
    borrowed.cookies.set('bb_device', known.cookies.get('bb_device')!);
    expect((await right(borrowed, other)).statusCode).toBe(429);
  });
});

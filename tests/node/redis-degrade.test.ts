import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { startServer, type ServerProcess } from '#test/server';
import { BrowserSession } from '#test/browser-session';
import { privateRedis, REDIS_SERVER, silentListener } from '#test/private-redis';

// Redis away, at start or while members are signed in: the app starts and serves visitors, members are
// told "briefly unavailable" (503 with Retry-After), never signed out, and everything recovers by itself.

const UNAVAILABLE = 'Backbeat is briefly unavailable. Please try again in a moment.';

const cleanups: Array<() => Promise<void> | void> = [];
const started: ServerProcess[] = [];
afterAll(async () => {
  for (const s of started) await s.stop().catch(() => undefined);
  for (const c of cleanups.reverse()) await c();
});

/** the app as one node process, as a deployment runs it (no tsx parent relaying signals) */
const NODE_TSX: [string, string[]] = [process.execPath, ['--import', 'tsx', 'src/server/main.ts']];

async function start(redisUrl: string) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bb-redis-degrade-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  // LOG_LEVEL warn: the app's own warnings and errors, as an operator running quietly sees them
  const s = await startServer(
    {
      NODE_ENV: 'test',
      SERVE_CLIENT: '0',
      DEMO: '0',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      REDIS_URL: redisUrl,
      KEY_NAMESPACE: `bbr${randomBytes(3).toString('hex')}`,
      SESSION_SECRET: randomBytes(16).toString('hex'),
    },
    undefined,
    NODE_TSX,
  );
  started.push(s);
  return s;
}

/** the app's JSON log lines so far */
const logLines = (s: ServerProcess) =>
  s
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string; redis?: string; reason?: string });

async function health(s: ServerProcess) {
  const res = await fetch(`${s.url}/healthz`, { signal: AbortSignal.timeout(5000) });
  return { status: res.status, body: (await res.json()) as { ok: boolean; database: string; redis: string } };
}

/** a JSON call with this browser's cookie, never waiting more than 5 s */
async function call(session: BrowserSession, method: string, url: string, data?: unknown) {
  const res = await session.send(method, url, data, { signal: AbortSignal.timeout(5000) });
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    body: (await res.json()) as Record<string, unknown>,
  };
}

async function page(s: ServerProcess, url: string, cookie?: string) {
  const res = await fetch(`${s.url}${url}`, {
    headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) },
    redirect: 'manual',
    signal: AbortSignal.timeout(5000),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), text: await res.text() };
}

describe('Redis away at start', () => {
  it.runIf(!!REDIS_SERVER)(
    'nothing listening: the app starts, reports redis "down" and why, serves visitors, and takes members once Redis comes',
    async () => {
      const redis = await privateRedis({ persist: true, started: false });
      cleanups.push(() => redis.dispose());
      const server = await start(redis.url);

      expect(await health(server)).toEqual({ status: 200, body: { ok: true, database: 'up', redis: 'down' } });
      const down = logLines(server).find((l) => /^Redis is unavailable/.test(l.msg));
      expect(down, server.output()).toMatchObject({
        level: 50,
        redis: redis.url,
        reason: expect.stringMatching(/ECONNREFUSED/),
      });
      expect(down!.msg).toMatch(/503/);

      // a visitor browses; signing up ends in a session, so it is refused for now (and nothing is made)
      expect((await page(server, '/courses')).status).toBe(200);
      const visitor = await BrowserSession.open(server.url);
      const email = `early-${randomBytes(4).toString('hex')}@test.test`;
      const early = await visitor.register(email, 'Early Bird');
      expect(early.status).toBe(503);
      expect(Number(early.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await early.json()).toEqual({ message: UNAVAILABLE });

      // Redis comes: no restart needed
      await redis.start();
      await expect.poll(async () => (await health(server)).body.redis, { timeout: 15_000, interval: 200 }).toBe('up');
      expect(logLines(server).some((l) => l.level === 40 && /^Redis is available again/.test(l.msg))).toBe(true);
      // the same sign-up works now: the refused one made no account
      const member = await BrowserSession.open(server.url);
      const registered = await member.register(email, 'Early Bird');
      expect(registered.status, await registered.clone().text()).toBe(200);
      const id = await member.userId();

      // ---- Redis lost while the member is signed in
      await redis.stop(); // it writes its data, and loads it again when it starts
      await expect
        .poll(async () => (await call(member, 'GET', '/api/me')).status, { timeout: 10_000, interval: 100 })
        .toBe(503);
      // an API call: 503 with Retry-After and the sentence, never 401 and never "signed out"
      for (const [method, url] of [
        ['GET', '/api/me'],
        ['GET', '/api/metronome_settings'],
        ['POST', '/logout'],
      ] as const) {
        const answer = await call(member, method, url, method === 'POST' ? {} : undefined);
        expect(answer, `${method} ${url}`).toEqual({ status: 503, retryAfter: '5', body: { message: UNAVAILABLE } });
      }
      // a page navigation: 503, the app's page saying so (the header does not show a visitor's)
      const nav = await page(server, '/dashboard', member.cookie);
      expect(nav.status).toBe(503);
      expect(nav.retryAfter).toBe('5');
      expect(nav.text).toContain(`"error":{"status":503,"message":"${UNAVAILABLE}"}`);
      // signing in is refused for now too (the session could not be kept)
      const signIn = await visitor.signIn(email);
      expect(signIn.status).toBe(503);
      expect(await signIn.json()).toEqual({ message: UNAVAILABLE });
      // visitors keep browsing, health says what is going on
      expect((await page(server, '/courses')).status).toBe(200);
      expect((await page(server, '/courses', visitor.cookie)).status).toBe(200);
      expect(await health(server)).toEqual({ status: 200, body: { ok: true, database: 'up', redis: 'down' } });
      expect(logLines(server).filter((l) => /^Redis is unavailable/.test(l.msg))).toHaveLength(2);

      // Redis is back with its data: the same cookie is the same member again
      await redis.start();
      await expect
        .poll(
          async () => {
            const me = await call(member, 'GET', '/api/me');
            return me.status === 200 ? (me.body.user as { id: number } | null)?.id : me.status;
          },
          { timeout: 15_000, interval: 200 },
        )
        .toBe(id);
      expect((await page(server, '/dashboard', member.cookie)).status).toBe(200);
      expect(server.output()).not.toMatch(/unhandled|uncaught/i);
    },
    180_000,
  );

  it('a listener that never answers: the app starts, reports redis "down" without the credentials, and stops cleanly', async () => {
    const listener = await silentListener();
    cleanups.push(() => listener.close());
    const server = await start(listener.url.replace('redis://', 'redis://backbeat:s3cret-pw@'));

    expect(await health(server)).toEqual({ status: 200, body: { ok: true, database: 'up', redis: 'down' } });
    expect(listener.connections()).toBeGreaterThanOrEqual(1);
    const down = logLines(server).find((l) => /^Redis is unavailable/.test(l.msg));
    expect(down, server.output()).toMatchObject({ level: 50, redis: listener.url });
    expect(server.output()).not.toContain('s3cret-pw');
    // a member's cookie (no visitor's `v.`): answered at once, not held until Redis answers
    const t0 = Date.now();
    const res = await fetch(`${server.url}/api/me`, {
      headers: { accept: 'application/json', cookie: `bb_session=${randomBytes(32).toString('base64url')}` },
    });
    expect(res.status).toBe(503);
    expect(Date.now() - t0).toBeLessThan(3000);
    expect((await page(server, '/')).status).toBe(200);
    // shutting down does not wait on the silent connection
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    await server.stop();
    expect(await exited).toBe(0);
  }, 120_000);
});

/* eslint-disable max-lines -- each outside service (database, Redis, storage, SMTP) failing under a running server, sharing the process and service helpers at its top */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { io as connect, type Socket } from 'socket.io-client';
import { settingsPart, START_UP } from '#shared/metronome';
import { createTestApp } from '#test/api-harness';
import { freePort, startServer, type ServerProcess } from '#test/server';
import { BrowserSession } from '#test/browser-session';
import { privateRedis as startPrivateRedis, REDIS_SERVER } from '#test/private-redis';
import { until } from '#test/until';

// Faults (docs/product/availability.md): PostgreSQL restarted under load (requests fail cleanly while it is down, app
// recovers by itself) and Redis stopped (visitors' pages and calls keep answering, members' calls
// answer 503, realtime degrades, and all of it recovers). Both run against PRIVATE service instances on free ports, never CI's shared ones.

// ---- private PostgreSQL -------------------------------------------------------------------------

/** the newest PostgreSQL server binaries on this machine, or null */
function pgBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin/pg_ctl')) && existsSync(path.join(root, v, 'bin/initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}
const PG_BIN = pgBinDir();
const isRoot = process.getuid?.() === 0;
/** PostgreSQL refuses to run as root: run its tools as the `postgres` user then */
function pgUser(): { uid: number; gid: number } | null {
  if (!isRoot) return null;
  try {
    return {
      uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
      gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
    };
  } catch {
    return null;
  }
}
const PG_USER = pgUser();
const havePostgres = !!PG_BIN && (!isRoot || !!PG_USER);

const cleanups: Array<() => Promise<void> | void> = [];
const started: ServerProcess[] = [];
const sockets: Socket[] = [];
afterAll(async () => {
  for (const s of sockets) s.close();
  for (const s of started) await s.stop().catch(() => undefined);
  for (const c of cleanups.reverse()) await c();
});

function runPg(tool: string, args: string[]) {
  execFileSync(path.join(PG_BIN!, tool), args, {
    stdio: 'pipe',
    timeout: 60_000,
    ...(PG_USER ? { uid: PG_USER.uid, gid: PG_USER.gid } : {}),
  });
}

interface PrivatePostgres {
  url(db: string): string;
  stop(): void;
  start(): void;
}

async function privatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bb-pg-'));
  if (PG_USER) chownSync(dir, PG_USER.uid, PG_USER.gid);
  const data = path.join(dir, 'data');
  const port = await freePort();
  runPg('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  const pg = {
    url: (db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`,
    start: () => runPg('pg_ctl', ['-D', data, '-o', opts, '-l', path.join(dir, 'log'), '-w', 'start']),
    stop: () => runPg('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
  };
  pg.start();
  cleanups.push(() => {
    try {
      pg.stop();
    } catch {
      /* already stopped */
    }
    rmSync(dir, { recursive: true, force: true });
  });
  return pg;
}

async function createDatabase(pg: PrivatePostgres, name: string) {
  const { default: PG } = await import('pg');
  const c = new PG.Client({ connectionString: pg.url('postgres') });
  await c.connect();
  await c.query(`CREATE DATABASE "${name}"`);
  await c.end();
  return pg.url(name);
}

// ---- private Redis ------------------------------------------------------------------------------

async function privateRedis() {
  const redis = await startPrivateRedis();
  cleanups.push(() => redis.dispose());
  return redis;
}

// ---- a browser-like client ----------------------------------------------------------------------

async function start(env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bb-faults-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  // REDIS_URL is set empty unless given: CI exports the shared one
  const s = await startServer({
    NODE_ENV: 'test',
    SERVE_CLIENT: '0',
    DEMO: '0',
    DATA_DIR: dataDir,
    REDIS_URL: '',
    KEY_NAMESPACE: `bbf${randomBytes(3).toString('hex')}`,
    ...env,
  });
  started.push(s);
  return s;
}

/** fetch that never waits more than `ms`: a hang shows as status 'hung' */
async function timed(url: string, init: RequestInit = {}, ms = 8000) {
  const t0 = Date.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(ms) });
    const text = await res.text();
    return {
      status: res.status as number | 'hung' | 'refused',
      ms: Date.now() - t0,
      text,
      type: res.headers.get('content-type') ?? '',
    };
  } catch (err) {
    return {
      status: (err as Error).name === 'TimeoutError' ? ('hung' as const) : ('refused' as const),
      ms: Date.now() - t0,
      text: String(err),
      type: '',
    };
  }
}

async function register(base: string, name = 'Fault Test') {
  const email = `fault-${randomBytes(4).toString('hex')}@test.test`;
  const session = await BrowserSession.open(base);
  const res = await session.register(email, name);
  expect(res.status, await res.clone().text()).toBe(200);
  const id = await session.userId();
  return {
    id,
    email,
    get cookie() {
      return session.cookie;
    },
    send: (method: string, url: string, data?: unknown, on = base) =>
      timed(`${on}${url}`, {
        method,
        headers: session.headers(),
        ...(data === undefined ? {} : { body: JSON.stringify(data) }),
      }),
    get: (url: string, on = base) =>
      timed(`${on}${url}`, { headers: { accept: 'application/json', cookie: session.cookie } }),
    async signIn(on = base) {
      const t0 = Date.now();
      const res = await session.signIn(email, 'password123', on, AbortSignal.timeout(8000));
      return {
        status: res.status as Answer['status'],
        ms: Date.now() - t0,
        text: await res.text(),
        type: res.headers.get('content-type') ?? '',
      };
    },
  };
}

type Answer = Awaited<ReturnType<typeof timed>>;

/** a failure answered cleanly: a 5xx with a JSON message and no stack trace, quickly */
function expectClean(answers: Answer[], label: string) {
  for (const a of answers) {
    const what = `${label}: ${JSON.stringify(a).slice(0, 400)}`;
    expect(a.status, what).not.toBe('hung');
    expect(a.status, `${what}\n(the app process died?)`).not.toBe('refused');
    expect(a.ms, what).toBeLessThan(5000);
    expect(a.text, what).not.toMatch(/\n\s+at |node_modules|\.ts:\d+|ECONNREFUSED|terminating connection/);
    if (typeof a.status === 'number' && a.status >= 500 && !/text\/html/.test(a.type)) {
      expect(a.type, what).toMatch(/application\/json/);
      const body = JSON.parse(a.text) as { message?: unknown; stack?: unknown };
      expect(typeof body.message, what).toBe('string');
      expect(body.stack, what).toBeUndefined();
      expect(a.text, what).not.toMatch(/\n\s+at |node_modules|\.ts:\d+|ECONNREFUSED|terminating connection/);
    }
  }
}

const settings = { ...settingsPart(START_UP), bpm: 120 };

describe('PostgreSQL restarted under load', () => {
  it.runIf(havePostgres)(
    'requests fail cleanly while it is down, and the app recovers by itself',
    async () => {
      const pg = await privatePostgres();
      const server = await start({
        DATABASE_URL: await createDatabase(pg, 'bb_faults'),
        SESSION_SECRET: randomBytes(16).toString('hex'),
      });
      const member = await register(server.url);
      const created = await member.send('POST', '/api/metronome_settings', { name: 'steady', settings });
      expect(created.status).toBe(201);
      const rowId = (JSON.parse(created.text) as { data: { id: number } }).data.id;

      // a steady stream of reads and writes from a member, and public reads from a visitor
      const log: Array<Answer & { at: number; kind: string }> = [];
      let running = true;
      let bpm = 60;
      const worker = async (kind: string, call: () => Promise<Answer>) => {
        while (running) {
          const at = Date.now();
          log.push({ ...(await call()), at, kind });
          // a pause between calls: a steady stream of them, not a flood (this paces the load; it waits for nothing)
          await new Promise((r) => setTimeout(r, 25));
        }
      };
      const workers = [
        worker('write', () =>
          member.send('PATCH', `/api/metronome_settings/${rowId}`, {
            settings: { ...settings, bpm: 60 + (bpm++ % 100) },
          }),
        ),
        worker('write', () =>
          member.send('PATCH', `/api/metronome_settings/${rowId}`, {
            settings: { ...settings, bpm: 60 + (bpm++ % 100) },
          }),
        ),
        worker('read', () => member.get('/api/metronome_settings')),
        worker('public', () => timed(`${server.url}/api/courses`, { headers: { accept: 'application/json' } })),
        worker('page', () => timed(`${server.url}/courses`, { headers: { accept: 'text/html' } })),
      ];
      const KINDS = ['write', 'read', 'public', 'page'];
      /** every kind of call answered at least `n` times among `answers` */
      const eachKindAnswered = (answers: typeof log, n: number) =>
        KINDS.every((kind) => answers.filter((a) => a.kind === kind).length >= n);
      await until('every kind of call answered while PostgreSQL is up', () => eachKindAnswered(log, 3), {
        timeoutMs: 30_000,
        seen: () => log.map((a) => [a.kind, a.status]),
      });
      const before = log.length;
      expect(
        log.filter((a) => a.status !== 200),
        'everything answers while PostgreSQL is up',
      ).toEqual([]);

      pg.stop();
      const downAt = Date.now();
      const sentWhileDown = () => log.filter((a) => a.at > downAt + 200); // requests sent after the stop completed
      await until('every kind of call answered while PostgreSQL is down', () => eachKindAnswered(sentWhileDown(), 3), {
        timeoutMs: 30_000,
        seen: () => sentWhileDown().map((a) => [a.kind, a.status]),
      });
      const health = await timed(`${server.url}/healthz`);
      const duringDown = sentWhileDown();
      expect(duringDown.length).toBeGreaterThan(8);
      expectClean(log.slice(before), 'while PostgreSQL is down');
      // member calls need the database (their session lives there): they fail, cleanly, as 503
      expect(
        duringDown.filter((a) => a.kind === 'read' || a.kind === 'write').every((a) => a.status === 503),
        JSON.stringify(duringDown.map((a) => a.status)),
      ).toBe(true);
      expect(health.status).toBe(503);
      expect(JSON.parse(health.text)).toMatchObject({ ok: false, database: 'down' });
      expect(server.child.exitCode, 'the app process is still running').toBeNull();
      const statuses: Record<string, Record<string, number>> = {};
      for (const a of duringDown) (statuses[a.kind] ??= {})[a.status] = (statuses[a.kind]![a.status] ?? 0) + 1;
      console.info(
        'while PostgreSQL was down:',
        JSON.stringify(statuses),
        'slowest answer',
        Math.max(...duringDown.map((a) => a.ms)),
        'ms',
      );

      pg.start();
      const upAt = Date.now();
      await expect
        .poll(async () => (await member.send('PATCH', `/api/metronome_settings/${rowId}`, { settings })).status, {
          timeout: 15_000,
          interval: 250,
        })
        .toBe(200);
      const recoveredIn = Date.now() - upAt;
      running = false;
      await Promise.all(workers);
      expectClean(log, 'the whole run');
      expect(recoveredIn).toBeLessThan(15_000);
      console.info(`writes succeeded again ${recoveredIn} ms after PostgreSQL was started`);
      expect((await timed(`${server.url}/healthz`)).status).toBe(200);
      // and the app is whole again: new rows, reads, public calls
      expect(
        (await member.send('POST', '/api/metronome_settings', { name: 'after the restart', settings })).status,
      ).toBe(201);
      const list = await member.get('/api/metronome_settings');
      expect(list.status).toBe(200);
      expect((JSON.parse(list.text) as { data: Array<{ name: string }> }).data.map((r) => r.name).sort()).toEqual([
        'after the restart',
        'steady',
      ]);
      expect(server.output()).not.toMatch(/unhandled|uncaught/i);
    },
    90_000,
  );
});

/** a socket signed in as `cookie`, subscribed to the member's own channel; events collected */
async function memberSocket(base: string, cookie: string, channel: string) {
  const s = connect(base, {
    transports: ['websocket'],
    extraHeaders: { cookie },
    forceNew: true,
    reconnectionDelay: 200,
    reconnectionDelayMax: 1000,
  });
  sockets.push(s);
  const events: Array<{ event: string; payload: { notification?: { body?: string } } }> = [];
  s.on('event', (m: { event: string; payload: { notification?: { body?: string } } }) => events.push(m));
  await new Promise<void>((resolve, reject) => {
    s.once('connect', () => resolve());
    s.once('connect_error', reject);
  });
  const joined = await new Promise<{ ok: boolean }>((resolve) => s.emit('subscribe', channel, resolve));
  return { socket: s, events, joined };
}

describe('Redis stopped', () => {
  it.runIf(!!REDIS_SERVER && havePostgres)(
    'visitors keep browsing, members are told to wait (503); realtime degrades and recovers without a restart',
    async () => {
      const redis = await privateRedis();
      const pg = await privatePostgres();
      // two app processes on one database and one Redis: realtime has to travel through Redis (a friend
      // request made on B notifies a member whose socket is on A)
      const env = {
        DATABASE_URL: await createDatabase(pg, 'bb_redis'),
        REDIS_URL: redis.url,
        SESSION_SECRET: randomBytes(16).toString('hex'),
        KEY_NAMESPACE: `bbf${randomBytes(3).toString('hex')}`,
      };
      const a = await start(env);
      const b = await start(env);
      const receiver = await register(a.url, 'Receiver');
      const sender = await register(b.url, 'Sender');
      // and one in-process app on the same Redis, to broadcast while Redis is down (the processes above
      // cannot: their members' requests answer 503 then)
      const inProcess = await createTestApp({ redisUrl: redis.url });
      cleanups.push(() => inProcess.close());
      const ra = await memberSocket(a.url, receiver.cookie, `user.${receiver.id}`);
      expect(ra.joined).toEqual({ ok: true });
      expect((await sender.send('POST', '/friends', { user_id: receiver.id })).status).toBe(200);
      await expect
        .poll(() => ra.events.filter((e) => e.event === 'NotificationCreated').length, { timeout: 10_000 })
        .toBe(1);

      await redis.stop();
      const stoppedAt = Date.now();
      // visitors' pages and API calls keep answering, nothing hangs or answers 500; a signed-in member's
      // calls (the session lives in Redis) answer 503, never as a visitor's
      const visitor = await BrowserSession.open(a.url);
      const answers: Array<Answer & { what: string }> = [];
      const calls: Array<[string, () => Promise<Answer>]> = [
        ['page /', () => timed(`${a.url}/`, { headers: { accept: 'text/html' } })],
        [
          'visitor with a cookie',
          () => timed(`${a.url}/courses`, { headers: { accept: 'text/html', cookie: visitor.cookie } }),
        ],
        ['page /courses', () => timed(`${b.url}/courses`, { headers: { accept: 'text/html' } })],
        ['public api', () => timed(`${a.url}/api/courses`, { headers: { accept: 'application/json' } })],
        ['member me', () => receiver.get('/api/me')],
        ['member read', () => sender.get('/api/metronome_settings', a.url)],
        ['member write', () => sender.send('POST', '/api/metronome_settings', { name: 'redis down', settings })],
        ['rate-limited write', () => sender.send('POST', '/friends', { user_id: receiver.id })],
        ['sign in', () => sender.signIn(a.url)],
        ['health', () => timed(`${a.url}/healthz`)],
      ];
      // broadcasts while Redis is down reach this process's sockets only; they must not end the process
      // (the adapter's publish is not awaited: an unhandled rejection would fail this test file)
      inProcess.app.deps.realtime.publish(`user.${receiver.id}`, 'NotificationCreated', {
        notification: { body: 'lost' },
      });
      inProcess.app.deps.realtime.disconnectUser(receiver.id);
      for (let round = 0; round < 3; round++) {
        for (const [what, call] of calls) answers.push({ ...(await call()), what });
        // rounds spread over the Redis client's reconnect attempts while Redis stays down: what is tested is
        // that time passing without Redis changes nothing, so here time itself has to pass
        await new Promise((r) => setTimeout(r, 300));
      }
      expectClean(answers, 'while Redis is down');
      const byWhat = (w: string) => answers.filter((x) => x.what === w).map((x) => x.status);
      expect(
        byWhat('page /').every((s) => s === 200),
        JSON.stringify(byWhat('page /')),
      ).toBe(true);
      expect(byWhat('page /courses').every((s) => s === 200)).toBe(true);
      expect(byWhat('public api').every((s) => s === 200)).toBe(true);
      expect(byWhat('visitor with a cookie').every((s) => s === 200)).toBe(true);
      for (const what of ['member me', 'member read', 'member write', 'rate-limited write', 'sign in']) {
        expect(
          byWhat(what).every((s) => s === 503),
          `${what}: ${JSON.stringify(byWhat(what))}`,
        ).toBe(true);
      }
      expect(JSON.parse(answers.find((x) => x.what === 'member me')!.text)).toEqual({
        message: 'Backbeat is briefly unavailable. Please try again in a moment.',
      });
      expect(
        answers.filter((x) => x.status === 500),
        'never a 500',
      ).toEqual([]);
      const health = answers.find((x) => x.what === 'health')!;
      expect(health.status).toBe(200);
      expect(JSON.parse(health.text)).toMatchObject({ ok: true, database: 'up', redis: 'down' });
      console.info('while Redis was down:', JSON.stringify(Object.fromEntries(calls.map(([w]) => [w, byWhat(w)]))));
      expect(a.child.exitCode, 'process A still runs').toBeNull();
      expect(b.child.exitCode, 'process B still runs').toBeNull();
      expect(Date.now() - stoppedAt).toBeLessThan(20_000);

      // Redis comes back (empty: no persistence, so the sessions are gone; members sign in again)
      await redis.start();
      await expect
        .poll(async () => JSON.parse((await timed(`${a.url}/healthz`)).text).redis, { timeout: 15_000, interval: 250 })
        .toBe('up');
      await expect
        .poll(async () => JSON.parse((await timed(`${b.url}/healthz`)).text).redis, { timeout: 15_000, interval: 250 })
        .toBe('up');
      expect((await receiver.signIn(a.url)).status).toBe(200);
      expect((await sender.signIn(b.url)).status).toBe(200);
      const rb = await memberSocket(a.url, receiver.cookie, `user.${receiver.id}`);
      expect(rb.joined).toEqual({ ok: true });
      // a notification published on B reaches the socket on A again, through Redis, without a restart
      const third = await register(b.url, 'Third');
      expect((await third.send('POST', '/friends', { user_id: receiver.id })).status).toBe(200);
      await expect
        .poll(() => rb.events.filter((e) => e.event === 'NotificationCreated').length, { timeout: 10_000 })
        .toBe(1);
      expect(a.output()).not.toMatch(/unhandled|uncaught/i);
      expect(b.output()).not.toMatch(/unhandled|uncaught/i);
    },
    90_000,
  );
});

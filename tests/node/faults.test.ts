import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { io as connect } from 'socket.io-client';
import { settingsPart, START_UP } from '#shared/metronome';
import { requestsTaken, startServer, type ServerProcess } from '#test/server';
import { until } from '#test/until';
import { BrowserSession } from '#test/browser-session';

// Faults: the server killed (SIGKILL) in the middle of a burst of writes keeps every write it
// acknowledged, and nothing half-written, on the embedded database and on PostgreSQL; on SIGTERM it
// finishes the requests in flight and tells sockets to reconnect (to another process).

const started: ServerProcess[] = [];
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const s of started) await s.stop().catch(() => undefined);
  for (const c of cleanups) await c();
});

/**
 * The app as one node process (tsx as a loader, no tsx parent): tsx's CLI relays a signal to its child
 * and, when the child has not acknowledged it within 30 ms twice (a busy event loop on a loaded CI
 * machine), SIGKILLs it and exits 143, which is not what a deployment (`node dist/server/main.js`) does.
 */
const NODE_TSX: [string, string[]] = [process.execPath, ['--import', 'tsx', 'src/server/main.ts']];

async function start(env: Record<string, string>) {
  const s = await startServer({ NODE_ENV: 'test', SERVE_CLIENT: '0', DEMO: '0', ...env }, undefined, NODE_TSX);
  started.push(s);
  return s;
}

/** a browser session that registers (or signs in) */
async function session(base: string, email: string, register: boolean) {
  const s = await BrowserSession.open(base);
  const res = register ? await s.register(email, 'Crash Test') : await s.signIn(email);
  expect(res.status, await res.clone().text()).toBe(200);
  return s;
}

const settings = { ...settingsPart(START_UP), bpm: 120 };

/** writes up to 90 saved metronome settings, 6 at a time; kills the server after the 25th acknowledgement */
async function burstThenKill(server: ServerProcess, client: Awaited<ReturnType<typeof session>>) {
  const acknowledged: string[] = [];
  let next = 0;
  let killed = false;
  const worker = async () => {
    while (next < 90) {
      const name = `take-${String(next++).padStart(3, '0')}`;
      try {
        const res = await client.post('/api/metronome_settings', { name, settings: { ...settings, bpm: 60 + next } });
        if (res.status === 201) acknowledged.push(name);
      } catch {
        return; // the connection died with the server
      }
      if (acknowledged.length >= 25 && !killed) {
        killed = true;
        process.kill(-server.child.pid!, 'SIGKILL');
      }
    }
  };
  const exited = new Promise((r) => server.child.once('exit', r));
  await Promise.all(Array.from({ length: 6 }, worker));
  await exited;
  return acknowledged;
}

async function crashAndRecover(env: Record<string, string>) {
  const email = `crash-${randomBytes(4).toString('hex')}@test.test`;
  const first = await start(env);
  const acknowledged = await burstThenKill(first, await session(first.url, email, true));
  expect(acknowledged.length).toBeGreaterThanOrEqual(25);

  const second = await start(env);
  const client = await session(second.url, email, false);
  const res = await client.get('/api/metronome_settings');
  expect(res.status).toBe(200);
  const rows = ((await res.json()) as { data: Array<{ name: string; bpm: number; accents: number[] }> }).data;
  const names = rows.map((r) => r.name);
  // every acknowledged write survived
  expect(acknowledged.filter((n) => !names.includes(n))).toEqual([]);
  // nothing half-written: every row is whole (its settings as sent), and no row appears twice
  for (const r of rows) {
    expect(r.bpm).toBe(61 + Number(r.name.slice(5)));
    expect(r.accents.length).toBeGreaterThan(0);
  }
  expect(new Set(names).size).toBe(names.length);
  // and the database takes new writes
  expect((await client.post('/api/metronome_settings', { name: 'after the crash', settings })).status).toBe(201);
  await second.stop();
}

describe('SIGKILL in the middle of a burst of writes', () => {
  it('the embedded database (PGlite) keeps every acknowledged write', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'bb-crash-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    await crashAndRecover({ DATA_DIR: dataDir, SESSION_SECRET: randomBytes(16).toString('hex') });
  }, 240_000);

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    'PostgreSQL keeps every acknowledged write',
    async () => {
      const name = `bb_crash_${randomBytes(4).toString('hex')}`;
      const adminSql = async (q: string) => {
        const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await c.connect();
        await c.query(q);
        await c.end();
      };
      await adminSql(`CREATE DATABASE "${name}"`);
      cleanups.push(() => adminSql(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      await crashAndRecover({
        DATABASE_URL: url.toString(),
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'bb-crash-')),
        SESSION_SECRET: randomBytes(16).toString('hex'),
      });
    },
    240_000,
  );
});

describe('SIGTERM', () => {
  it('finishes the requests in flight, then closes; sockets are dropped in a way that makes them reconnect', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'bb-term-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    // each request logged as it arrives: the signal comes once the server has taken some on
    const server = await start({
      DATA_DIR: dataDir,
      SESSION_SECRET: randomBytes(16).toString('hex'),
      LOG_LEVEL: 'info',
    });
    const email = `term-${randomBytes(4).toString('hex')}@test.test`;
    const client = await session(server.url, email, true);
    const socket = connect(server.url, { transports: ['websocket'], forceNew: true, reconnectionDelay: 60_000 });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const reason = new Promise<string>((resolve) => socket.once('disconnect', (r) => resolve(r)));

    const inFlight = Array.from({ length: 20 }, (_, i) =>
      client.post('/api/metronome_settings', { name: `term-${i}`, settings }),
    );
    await until('a request taken on', () => requestsTaken(server, 'POST', '/api/metronome_settings') > 0, {
      seen: server.output,
    });
    const exited = new Promise<number | null>((r) => server.child.once('exit', (code) => r(code)));
    process.kill(-server.child.pid!, 'SIGTERM');
    const answers = await Promise.allSettled(inFlight);
    // each request was either handled to the end (201), refused as the server closes (503, so a load
    // balancer retries it elsewhere), or never reached the server (the connection was already closed)
    const statuses = answers.map((a) => (a.status === 'fulfilled' ? a.value.status : 'not sent'));
    expect(
      statuses.filter((s) => s !== 201 && s !== 503 && s !== 'not sent'),
      JSON.stringify(statuses),
    ).toEqual([]);
    const done = statuses.filter((s) => s === 201).length;
    expect(done).toBeGreaterThan(0);
    expect(await exited).toBe(0);
    // "transport close": the client reconnects by itself (an "io server disconnect" would make it stay away)
    expect(await reason).toBe('transport close');
    expect(socket.active).toBe(true);
    socket.close();
    // nothing was done without its answer: the rows written are exactly the ones answered 201
    const again = await start({ DATA_DIR: dataDir, SESSION_SECRET: 'x'.repeat(32) });
    const rows = (
      (await (await (await session(again.url, email, false)).get('/api/metronome_settings')).json()) as {
        data: unknown[];
      }
    ).data;
    expect(rows).toHaveLength(done);
  }, 120_000);
});

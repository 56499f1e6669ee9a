import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http2 from 'node:http2';
import https from 'node:https';
import { randomBytes } from 'node:crypto';
import { io as connect } from 'socket.io-client';
import { settingsPart, START_UP } from '#shared/metronome';
import { requestsTaken, startServer, type ServerProcess } from '#test/server';
import { until } from '#test/until';
import { BrowserSession } from '#test/browser-session';
import { makeCertificate, type TestCertificate } from '#test/tls';

// HTTPS mode (TLS_CERT_FILE/TLS_KEY_FILE): one real app process serving HTTP/2 to clients that offer it
// (browsers: one connection for a page's many scripts) and HTTP/1.1 to the rest, WebSocket upgrades
// included; SIGTERM still closes it gracefully with both kinds of connection open, and an HTTP/2
// stream in flight finishes on its session (closed with a GOAWAY, not cut).

let cert: TestCertificate;
let server: ServerProcess;
let dataDir: string;
const NODE_TSX: [string, string[]] = [process.execPath, ['--import', 'tsx', 'src/server/main.ts']];

beforeAll(async () => {
  cert = makeCertificate();
  dataDir = mkdtempSync(path.join(tmpdir(), 'bb-https-'));
  server = await startServer(
    {
      NODE_ENV: 'test',
      SERVE_CLIENT: '0',
      DEMO: '0',
      DATA_DIR: dataDir,
      TLS_CERT_FILE: cert.certFile,
      TLS_KEY_FILE: cert.keyFile,
    },
    undefined,
    NODE_TSX,
    { ca: cert.cert },
  );
}, 120_000);
afterAll(async () => {
  await server?.stop();
  cert?.remove();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/**
 * A request on an HTTP/2 session, its body still to be written (`stream`), and its outcome, which never
 * rejects: the answer, or `refused` when the stream ended without one (a GOAWAY that came before the
 * server took the stream, or a reset).
 */
function h2Open(session: http2.ClientHttp2Session, method: string, pathname: string, headers: Record<string, string>) {
  type Outcome = { status: number | 'refused'; headers: http2.IncomingHttpHeaders; body: string };
  const refused: Outcome = { status: 'refused', headers: {}, body: '' };
  let stream: http2.ClientHttp2Stream;
  try {
    stream = session.request({ ':method': method, ':path': pathname, ...headers });
  } catch {
    return { stream: null, outcome: Promise.resolve(refused) };
  }
  const outcome = new Promise<Outcome>((resolve) => {
    let answer: http2.IncomingHttpHeaders | null = null;
    let text = '';
    stream.setEncoding('utf8');
    stream.on('response', (h) => (answer = h));
    stream.on('data', (d: string) => (text += d));
    stream.on('end', () =>
      resolve(answer ? { status: Number(answer[':status']), headers: answer, body: text } : refused),
    );
    stream.on('error', () => resolve(refused));
  });
  return { stream, outcome };
}

function h2Send(
  session: http2.ClientHttp2Session,
  method: string,
  pathname: string,
  headers: Record<string, string>,
  body?: string,
) {
  const { stream, outcome } = h2Open(session, method, pathname, headers);
  stream?.end(body);
  return outcome;
}

/** a GET on an HTTP/2 session: status, headers, body */
const h2Get = (session: http2.ClientHttp2Session, pathname: string, accept: string) =>
  h2Send(session, 'GET', pathname, { accept });

function h1Get(url: string, agent?: https.Agent) {
  return new Promise<{ status: number; version: string; body: string }>((resolve, reject) => {
    https
      .get(url, { ca: cert.cert, headers: { accept: 'application/json' }, ...(agent ? { agent } : {}) }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, version: res.httpVersion, body }));
      })
      .once('error', reject);
  });
}

describe('HTTPS', () => {
  it('serves pages and API answers over HTTP/2 on one connection, with a Secure session cookie', async () => {
    const session = http2.connect(server.url, { ca: cert.cert });
    try {
      const [page, health] = await Promise.all([
        h2Get(session, '/', 'text/html'),
        h2Get(session, '/healthz', 'application/json'),
      ]);
      expect(page.status).toBe(200);
      expect(page.body).toContain('<div id="root"');
      const cookie = [page.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('bb_session='));
      expect(String(cookie)).toMatch(/;\s*Secure/i);
      expect(health.status).toBe(200);
      expect(JSON.parse(health.body)).toMatchObject({ ok: true });
      expect(session.alpnProtocol).toBe('h2');
    } finally {
      session.close();
    }
  });

  it('answers HTTP/1.1 clients on the same port', async () => {
    const res = await h1Get(`${server.url}/healthz`);
    expect(res).toMatchObject({ status: 200, version: '1.1' });
  });

  it('takes Socket.IO connections over a secure WebSocket', async () => {
    const socket = connect(server.url, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      ca: cert.cert.toString(),
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      expect(socket.connected).toBe(true);
    } finally {
      socket.close();
    }
  });

  it('closes on SIGTERM with an HTTP/2 session and an idle HTTP/1.1 keep-alive connection open, without waiting for the 10 s cut', async () => {
    const session = http2.connect(server.url, { ca: cert.cert });
    const agent = new https.Agent({ keepAlive: true });
    try {
      expect((await h2Get(session, '/healthz', 'application/json')).status).toBe(200);
      expect((await h1Get(`${server.url}/healthz`, agent)).status).toBe(200);
      const exited = new Promise<number | null>((r) => server.child.once('exit', (code) => r(code)));
      process.kill(-server.child.pid!, 'SIGTERM');
      const outcome = await Promise.race([
        exited,
        new Promise<'still running'>((r) => setTimeout(() => r('still running'), 8_000)),
      ]);
      expect(outcome).toBe(0);
    } finally {
      session.destroy();
      agent.destroy();
    }
  }, 30_000);
});

describe('HTTPS shutdown with HTTP/2 streams in flight', () => {
  it('finishes the streams the server took on SIGTERM (each answered, or refused untouched), and writes only what it answered', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bb-https-term-'));
    const servers: ServerProcess[] = [];
    const h2 = { session: null as http2.ClientHttp2Session | null };
    try {
      const first = await startServer(
        {
          NODE_ENV: 'test',
          SERVE_CLIENT: '0',
          DEMO: '0',
          DATA_DIR: dir,
          TLS_CERT_FILE: cert.certFile,
          TLS_KEY_FILE: cert.keyFile,
          // each request logged as it arrives: the test waits for them to be taken on
          LOG_LEVEL: 'info',
        },
        undefined,
        NODE_TSX,
        { ca: cert.cert },
      );
      servers.push(first);
      const session = http2.connect(first.url, { ca: cert.cert });
      h2.session = session;
      // a browser's session over HTTP/2: the page's cookie and CSRF token, then a registration (which rotates both)
      const page = await h2Send(session, 'GET', '/', { accept: 'text/html' });
      const cookieOf = (h: http2.IncomingHttpHeaders) =>
        [h['set-cookie'] ?? []]
          .flat()
          .find((c) => c.startsWith('bb_session='))
          ?.split(';')[0];
      let cookie = cookieOf(page.headers)!;
      let token = /<meta name="csrf-token" content="([^"]+)">/.exec(page.body)![1]!;
      const json = () => ({
        'content-type': 'application/json',
        accept: 'application/json',
        cookie,
        'x-csrf-token': token,
      });
      const email = `h2-term-${randomBytes(4).toString('hex')}@test.test`;
      const reg = await h2Send(
        session,
        'POST',
        '/register',
        json(),
        JSON.stringify({
          name: 'Stream Test',
          email,
          email_confirmation: email,
          password: 'password123',
          password_confirmation: 'password123',
        }),
      );
      expect(reg.status, reg.body).toBe(200);
      cookie = cookieOf(reg.headers) ?? cookie;
      token = String(reg.headers['x-csrf-token'] ?? token);

      const settings = { ...settingsPart(START_UP), bpm: 120 };
      // one upload still arriving when the signal comes, and lasting past several of the shutdown's
      // sweeps (every 100 ms): it finishes on its session, which is closed gracefully, not cut
      const slow = h2Open(session, 'POST', '/api/metronome_settings', json());
      const slowBody = JSON.stringify({ name: 'h2-slow', settings });
      slow.stream!.write(slowBody.slice(0, 20));
      const burst = Array.from({ length: 20 }, (_, i) =>
        h2Send(session, 'POST', '/api/metronome_settings', json(), JSON.stringify({ name: `h2-${i}`, settings })),
      );
      await until(
        'the upload and the burst taken on',
        () => requestsTaken(first, 'POST', '/api/metronome_settings') === 21,
        {
          seen: first.output,
        },
      );
      const exited = new Promise<number | null>((r) => first.child.once('exit', (code) => r(code)));
      process.kill(-first.child.pid!, 'SIGTERM');
      await until('the shutdown begun', () => first.output().includes('"msg":"shutting down"'), { seen: first.output });
      // a request arriving after the signal is not taken on
      const late = await h2Send(
        session,
        'POST',
        '/api/metronome_settings',
        json(),
        JSON.stringify({ name: 'h2-late', settings }),
      );
      expect([503, 'refused']).toContain(late.status);
      await Promise.allSettled(burst);
      // the shutdown's sweeps run on a timer and leave no trace: for the upload to last past a few of
      // them, that time has to pass
      await new Promise((r) => setTimeout(r, 350));
      slow.stream!.end(slowBody.slice(20));
      expect((await slow.outcome).status).toBe(201);
      const statuses = (await Promise.all(burst)).map((a) => a.status);
      // handled to the end (201), refused as the server closes (503), or never taken (the GOAWAY came first)
      expect(
        statuses.filter((s) => s !== 201 && s !== 503 && s !== 'refused'),
        JSON.stringify(statuses),
      ).toEqual([]);
      const done = statuses.filter((s) => s === 201).length + 1;
      expect(await exited).toBe(0);

      // the same data on a new process: the rows written are exactly the ones answered 201
      const again = await startServer(
        { NODE_ENV: 'test', SERVE_CLIENT: '0', DEMO: '0', DATA_DIR: dir },
        undefined,
        NODE_TSX,
      );
      servers.push(again);
      const member = await BrowserSession.open(again.url);
      expect((await member.signIn(email)).status).toBe(200);
      const rows = ((await (await member.get('/api/metronome_settings')).json()) as { data: unknown[] }).data;
      expect(rows).toHaveLength(done);
    } finally {
      h2.session?.destroy();
      for (const s of servers) await s.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

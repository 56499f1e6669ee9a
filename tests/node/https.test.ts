import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http2 from 'node:http2';
import https from 'node:https';
import { io as connect } from 'socket.io-client';
import { startServer, type ServerProcess } from '../support/server.ts';
import { makeCertificate, type TestCertificate } from '../support/tls.ts';

// HTTPS mode (TLS_CERT_FILE/TLS_KEY_FILE): one real app process serving HTTP/2 to clients that offer it
// (browsers: one connection for a page's many scripts) and HTTP/1.1 to the rest, WebSocket upgrades
// included; SIGTERM still closes it gracefully with both kinds of connection open.

let cert: TestCertificate;
let server: ServerProcess;
let dataDir: string;
const NODE_TSX: [string, string[]] = [process.execPath, ['--import', 'tsx', 'src/server/main.ts']];

beforeAll(async () => {
  cert = makeCertificate();
  dataDir = mkdtempSync(path.join(tmpdir(), 'bb-https-'));
  server = await startServer(
    { NODE_ENV: 'test', SERVE_CLIENT: '0', DEMO: '0', DATA_DIR: dataDir, TLS_CERT_FILE: cert.certFile, TLS_KEY_FILE: cert.keyFile },
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

/** one request on an HTTP/2 session: status, headers, body */
function h2Get(session: http2.ClientHttp2Session, pathname: string, accept: string) {
  return new Promise<{ status: number; headers: http2.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = session.request({ ':path': pathname, accept });
    let headers: http2.IncomingHttpHeaders = {};
    let body = '';
    req.setEncoding('utf8');
    req.on('response', (h) => (headers = h));
    req.on('data', (d: string) => (body += d));
    req.on('end', () => resolve({ status: Number(headers[':status']), headers, body }));
    req.on('error', reject);
    req.end();
  });
}

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
      const [page, health] = await Promise.all([h2Get(session, '/', 'text/html'), h2Get(session, '/healthz', 'application/json')]);
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
    const socket = connect(server.url, { transports: ['websocket'], forceNew: true, reconnection: false, ca: cert.cert.toString() });
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
      const outcome = await Promise.race([exited, new Promise<'still running'>((r) => setTimeout(() => r('still running'), 8_000))]);
      expect(outcome).toBe(0);
    } finally {
      session.destroy();
      agent.destroy();
    }
  }, 30_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser, PHONE, signIn } from '#test/e2e';
import { startServer, type ServerProcess } from '#test/server';
import { makeCertificate, type TestCertificate } from '#test/tls';

/*
 * The app serving HTTPS itself (TLS_CERT_FILE/TLS_KEY_FILE), as a browser sees it: the page and its
 * scripts arrive over HTTP/2 (one connection, so a signed-in page's many small chunks do not queue six
 * at a time as over HTTP/1.1), signing in works with the Secure cookie, and realtime connects over wss.
 */
let browser: Browser;
let server: ServerProcess;
let cert: TestCertificate;
let dataDir: string;
beforeAll(async () => {
  cert = makeCertificate();
  dataDir = mkdtempSync(path.join(tmpdir(), 'bb-e2e-https-'));
  [server, browser] = await Promise.all([
    startServer(
      {
        NODE_ENV: 'production',
        DEMO: '1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        REDIS_URL: '',
        TLS_CERT_FILE: cert.certFile,
        TLS_KEY_FILE: cert.keyFile,
      },
      undefined,
      undefined,
      { ca: cert.cert },
    ),
    launchBrowser(),
  ]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  cert?.remove();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('HTTPS', () => {
  it('a signed-in lesson page: page and scripts over HTTP/2, realtime over a secure WebSocket', async () => {
    const context = await browser.newContext({
      baseURL: server.url,
      ignoreHTTPSErrors: true,
      viewport: PHONE,
      reducedMotion: 'reduce',
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(String(err)));
    await signIn(page, 'member@demo.test');
    const opened = new Promise<string>((resolve) => {
      page.on('websocket', (ws) => {
        // engine.io's open packet ("0{...}") is the first frame the server sends
        ws.on('framereceived', (frame) => {
          if (String(frame.payload).startsWith('0')) resolve(ws.url());
        });
      });
    });
    await page.goto('/lessons/1', { waitUntil: 'networkidle' });
    await page.locator('main').getByRole('heading', { level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/lessons/1');
    const protocols = await page.evaluate(() =>
      [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
        .filter((e) => e.entryType === 'navigation' || e.name.includes('/assets/'))
        .map((e) => (e as PerformanceResourceTiming).nextHopProtocol),
    );
    expect(protocols.length).toBeGreaterThan(10);
    expect(new Set(protocols)).toEqual(new Set(['h2']));
    expect(await opened).toMatch(/^wss:\/\/localhost:\d+\/socket\.io\//);
    expect(errors).toEqual([]);
    await context.close();
  });
});

/**
 * Core Web Vitals as the `web-vitals` library reports them from inside the page (LCP, CLS, INP; FCP and
 * TTFB beside them), in two runs of the project's Chromium against the app (bench/web.ts):
 *
 *  - plain: Chromium started as a plain headless process, no DevTools client attached (no Playwright,
 *    no remote debugging), each page loaded in a new profile, once per run. What a visitor's browser
 *    does, at the CPU speed of the machine that runs it. Without a DevTools client there is no CPU throttling and no
 *    synthetic input, so this run has LCP and CLS but no INP.
 *  - 4× CPU: Playwright, with Chromium's CPU throttling (Emulation.setCPUThrottlingRate, a DevTools
 *    protocol call, as Lighthouse uses), a phone-sized viewport, and one click made the moment the
 *    header's first control is painted (the avatar signed in, "Join" signed out), read back as INP.
 *    A DevTools client is attached, so V8 work that happens only then (source positions collected for
 *    stack traces) counts here.
 *
 * The library is injected by a small proxy in front of the app, run by the benchmark only: for a page
 * it adds two scripts before `</body>` (web-vitals' IIFE build and a reporter, served by the proxy from
 * the page's own origin, so the app's Content-Security-Policy allows them) and the reporter sends each
 * value to the proxy with sendBeacon. The app itself is not changed for the benchmark. Signed-in pages
 * get the demo member's session cookie from the proxy when the browser has none.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { findChromium } from '../scripts/find-chromium.ts';
import { freePort } from '#test/server';

const ROOT = path.resolve(import.meta.dirname, '..');
const LIBRARY = readFileSync(path.join(ROOT, 'node_modules/web-vitals/dist/web-vitals.iife.js'), 'utf8');
/** reports every change (the last LCP and CLS before the page is left are the page's values); a new visit id per load */
const REPORTER = `(() => {
  const visit = Math.random().toString(36).slice(2);
  const send = (m) => navigator.sendBeacon('/__vitals/beacon', JSON.stringify({ visit, page: location.pathname, name: m.name, value: m.value }));
  const all = { reportAllChanges: true };
  webVitals.onLCP(send, all);
  webVitals.onCLS(send, all);
  webVitals.onINP(send, { reportAllChanges: true, durationThreshold: 16 });
  webVitals.onFCP(send);
  webVitals.onTTFB(send);
  // the page has loaded and the browser has been idle after it: its LCP and layout shifts so far are in
  addEventListener('load', () => requestIdleCallback(() => requestIdleCallback(() => send({ name: 'settled', value: 0 })), { timeout: 5000 }));
})();`;
const SNIPPET =
  '<script defer src="/__vitals/web-vitals.js"></script><script defer src="/__vitals/report.js"></script>';

export interface Vitals {
  lcp: number | null;
  cls: number | null;
  inp: number | null;
  fcp: number | null;
  ttfb: number | null;
}
export interface VitalsRow {
  page: string;
  /** median of the runs, each figure on its own */
  plain: Vitals;
  throttled: Vitals;
  runs: number;
}

type Beacon = { visit: string; page: string; name: string; value: number };

/** The proxy: the app's answers, pages with the two scripts added, and the beacons collected. */
async function startProxy(appBase: string, cookie: () => string | null) {
  const beacons: Beacon[] = [];
  const waiting = new Set<() => void>();
  const port = await freePort();
  const server = http.createServer((req, res) => {
    if (req.url === '/__vitals/web-vitals.js' || req.url === '/__vitals/report.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
      res.end(req.url.endsWith('report.js') ? REPORTER : LIBRARY);
      return;
    }
    if (req.url === '/__vitals/beacon' && req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        beacons.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Beacon);
        for (const w of waiting) w();
        res.writeHead(204).end();
      });
      return;
    }
    const headers = { ...req.headers };
    delete headers.host;
    const page = (req.headers.accept ?? '').includes('text/html');
    // a page comes uncompressed, to add the scripts to it
    if (page) delete headers['accept-encoding'];
    const session = cookie();
    if (session && !/(?:^|;\s*)bb_session=/.test(headers.cookie ?? ''))
      headers.cookie = headers.cookie ? `${headers.cookie}; ${session}` : session;
    const up = http.request(new URL(req.url!, appBase), { method: req.method, headers }, (answer) => {
      const type = String(answer.headers['content-type'] ?? '');
      if (!page || !type.startsWith('text/html')) {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const html = Buffer.concat(chunks).toString('utf8').replace('</body>', `${SNIPPET}</body>`);
        const out = { ...answer.headers };
        delete out['content-length'];
        res.writeHead(answer.statusCode!, out);
        res.end(html);
      });
    });
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  /** resolves once a beacon matching `test` has arrived (or after `ms`, with null) */
  const next = (test: (b: Beacon) => boolean, ms: number) =>
    new Promise<Beacon | null>((resolve) => {
      const hit = () => beacons.find(test);
      if (hit()) return resolve(hit()!);
      const timer = setTimeout(() => {
        waiting.delete(check);
        resolve(null);
      }, ms);
      const check = () => {
        const b = hit();
        if (!b) return;
        clearTimeout(timer);
        waiting.delete(check);
        resolve(b);
      };
      waiting.add(check);
    });
  return {
    base: `http://127.0.0.1:${port}`,
    beacons,
    next,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The last value of each metric one visit reported. */
function visitVitals(beacons: Beacon[], visit: string): Vitals {
  const last = (name: string) => beacons.filter((b) => b.visit === visit && b.name === name).at(-1)?.value ?? null;
  return { lcp: last('LCP'), cls: last('CLS'), inp: last('INP'), fcp: last('FCP'), ttfb: last('TTFB') };
}

const median = (xs: (number | null)[]) => {
  const v = xs.filter((x): x is number => x !== null).sort((a, b) => a - b);
  return v.length ? v[Math.floor((v.length - 1) / 2)]! : null;
};
const medianVitals = (all: Vitals[]): Vitals => ({
  lcp: median(all.map((v) => v.lcp)),
  cls: median(all.map((v) => v.cls)),
  inp: median(all.map((v) => v.inp)),
  fcp: median(all.map((v) => v.fcp)),
  ttfb: median(all.map((v) => v.ttfb)),
});

/** One load in a plain headless Chromium process (no DevTools client), until the page has settled. */
async function plainVisit(proxy: Awaited<ReturnType<typeof startProxy>>, page: string): Promise<Vitals | null> {
  const info = await findChromium();
  const profile = mkdtempSync(path.join(tmpdir(), 'bb-vitals-'));
  const since = proxy.beacons.length;
  const child = spawn(
    info.path,
    [
      ...info.args,
      '--headless=new',
      '--no-first-run',
      '--no-default-browser-check',
      '--window-size=412,823',
      `--user-data-dir=${profile}`,
      `${proxy.base}${page}`,
    ],
    { stdio: 'ignore', detached: true },
  );
  try {
    const settled = await proxy.next(
      (b) => b.page === page && b.name === 'settled' && proxy.beacons.indexOf(b) >= since,
      60_000,
    );
    return settled ? visitVitals(proxy.beacons, settled.visit) : null;
  } finally {
    if (child.exitCode === null) {
      process.kill(-child.pid!, 'SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
    rmSync(profile, { recursive: true, force: true });
  }
}

/** One load in Playwright at 4× CPU, phone viewport, one click on the header's first control as soon as it is painted. */
async function throttledVisit(
  proxy: Awaited<ReturnType<typeof startProxy>>,
  browser: Browser,
  page: string,
  signedIn: boolean,
): Promise<Vitals | null> {
  const context = await browser.newContext({
    baseURL: proxy.base,
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: false,
  });
  try {
    const p = await context.newPage();
    const cdp = await context.newCDPSession(p);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const since = proxy.beacons.length;
    await p.goto(page, { waitUntil: 'commit' });
    const control = p.getByRole('banner').getByRole('button', { name: signedIn ? 'Account menu' : 'Join' });
    await control.waitFor({ state: 'visible', timeout: 60_000 });
    const box = (await control.boundingBox())!;
    await p.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await p.getByRole(signedIn ? 'menu' : 'dialog').waitFor({ timeout: 60_000 });
    const fresh = (b: Beacon) => proxy.beacons.indexOf(b) >= since && b.page === page;
    const settled = await proxy.next((b) => fresh(b) && b.name === 'settled', 60_000);
    if (!settled) return null;
    // the click's INP is reported once its next paint has been observed; under 16 ms it is not reported
    await proxy.next((b) => fresh(b) && b.visit === settled.visit && b.name === 'INP', 5_000);
    return visitVitals(proxy.beacons, settled.visit);
  } finally {
    await context.close();
  }
}

/** Both runs on each page, `runs` times, the median of each figure. */
export async function measureVitals(
  appBase: string,
  cookie: string,
  targets: { page: string; signedIn: boolean }[],
  runs: number,
  log: (s: string) => void,
): Promise<VitalsRow[]> {
  let current: string | null = null;
  const proxy = await startProxy(appBase, () => current);
  const info = await findChromium();
  const browser = await chromium.launch({ executablePath: info.path, args: info.args });
  try {
    const rows: VitalsRow[] = [];
    for (const t of targets) {
      current = t.signedIn ? cookie : null;
      const plain: Vitals[] = [];
      const throttled: Vitals[] = [];
      for (let i = 0; i < runs; i++) {
        log(`web vitals ${t.page} (${i + 1}/${runs})`);
        const a = await plainVisit(proxy, t.page);
        if (a) plain.push(a);
        const b = await throttledVisit(proxy, browser, t.page, t.signedIn);
        if (b) throttled.push(b);
      }
      rows.push({ page: t.page, plain: medianVitals(plain), throttled: medianVitals(throttled), runs });
    }
    return rows;
  } finally {
    await browser.close();
    await proxy.stop();
  }
}

/**
 * The parts of `npm run bench` that need the built client: the build, initial JavaScript per public
 * page (scripts/initial-js.ts), a fresh start on the embedded database to the first page served, and
 * Lighthouse in the project's Chromium (scripts/find-chromium.ts) against that fresh server, signed in
 * as the demo subscriber where the page needs it. bench/run.ts runs this under the browser suite's lock
 * (/tmp/bb-e2e.lock), since other work rebuilds dist/. Writes its results as JSON to argv[2].
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { findChromium } from '../scripts/find-chromium.ts';
import { DEFAULT_DIST, initialJs, PUBLIC_PAGES } from '../scripts/initial-js.ts';
import { freePort } from '../tests/support/server.ts';
import { BrowserSession } from '../tests/support/browser-session.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const QUICK = process.env.BENCH_QUICK === '1';
const out = process.argv[2]!;
const T0 = Number(process.env.BENCH_T0 ?? Date.now());
const lockedAt = Date.now();
const log = (s: string) => process.stderr.write(`[bench ${((Date.now() - T0) / 1000).toFixed(0).padStart(3)} s] ${s}\n`);

export interface WebResults {
  /** when the lock was had (epoch ms) */
  lockedAt: number;
  buildSeconds: number | null;
  initialJs: { page: string; gzip: number }[];
  startSeconds: number;
  lighthouse: { page: string; performance: number | null; accessibility: number | null; bestPractices: number | null; metrics: string; failing: string[] }[] | { error: string };
  /** the largest files of each page's initial JS */
  initialJsFiles: { page: string; files: { file: string; gzip: number }[] }[];
  /** the metronome page's rendered WAVs: worst onset error per bpm (frames at 44.1 kHz, against the exact fractional grid) */
  rendered: { bpm: number; found: number; expected: number; worst: number }[] | { error: string };
}

// 1. the build
let buildSeconds: number | null = null;
if (process.env.BENCH_SKIP_BUILD !== '1') {
  log('building the client (vite build)');
  const started = performance.now();
  const b = spawnSync(path.join(ROOT, 'node_modules/.bin/vite'), ['build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (b.status !== 0) throw new Error('vite build failed');
  buildSeconds = (performance.now() - started) / 1000;
}

// 2. initial JavaScript of the public pages the brief names (landing, metronome, diagnostic, checkout)
const pages = PUBLIC_PAGES.filter((p) => ['/', '/metronome', '/diagnostic', '/join'].includes(p.page));
const jsRows = initialJs(undefined, pages);
const js = jsRows.map((r) => ({ page: r.page, gzip: r.gzip }));
const initialJsFiles = jsRows.map((r) => ({
  page: r.page,
  files: r.files.map((file) => ({ file, gzip: gzipSync(readFileSync(path.join(DEFAULT_DIST, file)), { level: 9 }).length })).sort((a, b) => b.gzip - a.gzip).slice(0, 4),
}));

// 3. a fresh start: embedded PGlite, new DATA_DIR, production, to the first page served
const dataDir = mkdtempSync(path.join(tmpdir(), 'bb-bench-fresh-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
log('fresh start on PGlite');
const started = performance.now();
const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['src/server/main.ts'], {
  cwd: ROOT,
  env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', DEMO: '', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
  detached: true,
});
let startSeconds = NaN;
for (;;) {
  const ok = await fetch(`${base}/`, { headers: { accept: 'text/html' } }).then(async (r) => r.ok && (await r.text()).includes('<div id="root"'), () => false);
  if (ok) {
    startSeconds = (performance.now() - started) / 1000;
    break;
  }
  if (child.exitCode !== null) throw new Error('the fresh server exited');
  if (performance.now() - started > 120_000) throw new Error('the fresh server did not serve a page within 120 s');
  await new Promise((r) => setTimeout(r, 50));
}

// 4. Lighthouse (default config: mobile, simulated throttling) in the project's Chromium
let rendered: WebResults['rendered'];
try {
  rendered = await renderedAudio();
} catch (err) {
  rendered = { error: (err as Error).message.split('\n')[0]! };
}
let lighthouse: WebResults['lighthouse'];
try {
  lighthouse = await runLighthouse();
} catch (err) {
  lighthouse = { error: (err as Error).message.split('\n')[0]! };
}
process.kill(-child.pid!, 'SIGTERM');
await new Promise((r) => child.once('exit', r));
rmSync(dataDir, { recursive: true, force: true });
writeFileSync(out, JSON.stringify({ lockedAt, buildSeconds, initialJs: js, initialJsFiles, rendered, startSeconds, lighthouse } satisfies WebResults));

async function signInDemo(): Promise<string> {
  const session = await BrowserSession.open(base);
  const res = await session.signIn('member@demo.test', 'drumsdemo1');
  if (!res.ok) throw new Error(`demo sign-in failed: ${res.status}`);
  return session.cookie;
}

async function runLighthouse(): Promise<WebResults['lighthouse']> {
  const { default: lh } = await import('lighthouse');
  const cookie = await signInDemo();
  const topic = await fetch(`${base}/forums/api/topic/1`, { headers: { cookie, accept: 'application/json' } });
  if (!topic.ok) throw new Error(`demo topic 1: ${topic.status}`);
  const targets = [
    { page: '/', signedIn: false },
    { page: '/lessons/1', signedIn: true },
    { page: '/forums/topic/1', signedIn: true },
    { page: '/metronome', signedIn: false },
    { page: '/join', signedIn: false },
  ].slice(0, QUICK ? 2 : undefined);
  const info = await findChromium();
  const debugPort = await freePort();
  const browser = await chromium.launch({ executablePath: info.path, args: [...info.args, `--remote-debugging-port=${debugPort}`] });
  try {
    const results: Exclude<WebResults['lighthouse'], { error: string }> = [];
    for (const t of targets) {
      log(`lighthouse ${t.page}`);
      const r = await lh(`${base}${t.page}`, {
        port: debugPort,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
        extraHeaders: t.signedIn ? { Cookie: cookie } : undefined,
      });
      const c = r?.lhr.categories;
      const audits = r?.lhr.audits ?? {};
      const score = (k: string) => (c?.[k]?.score == null ? null : Math.round(c[k]!.score! * 100));
      const metric = (id: string) => `${id.replace(/-/g, ' ').replace('largest contentful paint', 'LCP').replace('first contentful paint', 'FCP').replace('total blocking time', 'TBT').replace('cumulative layout shift', 'CLS').replace('speed index', 'SI')} ${audits[id]?.displayValue ?? '?'}`;
      const metrics = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'].map(metric).join(', ');
      // accessibility and best-practices audits that failed (weighted ones only)
      const failing = (['accessibility', 'best-practices'] as const).flatMap((cat) =>
        (c?.[cat]?.auditRefs ?? []).filter((a) => a.weight > 0 && audits[a.id]?.score !== null && (audits[a.id]?.score ?? 1) < 1).map((a) => `${cat}: ${a.id}`),
      );
      const runtime = r?.lhr.runtimeError ?? audits['first-contentful-paint']?.errorMessage;
      if (runtime) failing.unshift(`error: ${typeof runtime === 'string' ? runtime : `${runtime.code} ${runtime.message}`}`.slice(0, 200));
      results.push({ page: t.page, performance: score('performance'), accessibility: score('accessibility'), bestPractices: score('best-practices'), metrics, failing });
    }
    return results;
  } finally {
    await browser.close();
  }
}

/** The metronome page renders 5-minute click tracks (OfflineAudioContext); every onset is read back from the WAV (tests/support/onsets.ts). */
async function renderedAudio(): Promise<Exclude<WebResults['rendered'], { error: string }>> {
  const { before, idealFrames, onsets, worstError } = await import('../tests/support/onsets.ts');
  const SECONDS = 5 * 60;
  const info = await findChromium();
  const browser = await chromium.launch({ executablePath: info.path, args: info.args });
  try {
    const page = await (await browser.newContext({ baseURL: base, acceptDownloads: true })).newPage();
    await page.goto('/metronome');
    await page.getByLabel('Length').selectOption('5');
    const out: Exclude<WebResults['rendered'], { error: string }> = [];
    for (const bpm of QUICK ? [120] : [40, 120, 240, 400]) {
      log(`metronome rendered audio at ${bpm} bpm`);
      const field = page.getByLabel('BPM', { exact: true });
      await field.fill(String(bpm));
      await field.press('Tab');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download WAV' }).click()]);
      const frames = before(onsets(readFileSync((await download.path())!)).frames, SECONDS);
      const ideal = idealFrames(SECONDS, () => bpm);
      out.push({ bpm, found: frames.length, expected: ideal.length, worst: worstError(frames, ideal) });
    }
    return out;
  } finally {
    await browser.close();
  }
}

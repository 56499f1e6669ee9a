/* eslint-disable max-lines -- every browser-side benchmark part (build, initial JS, fresh start, Lighthouse) under the one browser-suite lock it takes */
/**
 * The parts of `npm run bench` that need the built client: the build, initial JavaScript per public
 * page (scripts/initial-js.ts), a fresh start on the embedded database to the first page served, and
 * Lighthouse in the project's Chromium (scripts/find-chromium.ts) against a fresh server serving HTTPS
 * (HTTP/2, a throwaway certificate: how the app is reached when deployed), signed in as the demo
 * subscriber where the page needs it. bench/run.ts runs this under the browser suite's lock
 * (/tmp/bb-e2e.lock), since other work rebuilds dist/. Writes its results as JSON to argv[2].
 *
 * `tsx bench/web.ts --lighthouse-only [--runs N] [--pages /,/metronome] [--base URL] [--http] [--save DIR]` runs only
 * Lighthouse, N times per page, against `--base` (a running server) or a fresh one on the built client
 * (CLIENT_DIST selects a build other than dist/client), and prints each run and the median per page;
 * `--save DIR` keeps each run's full report (JSON) for its details (LCP element, failing audits), and with
 * `--trace` its Chromium trace (`*.trace.json`: the main thread's tasks as Lighthouse saw them). A fresh
 * server serves HTTPS (HTTP/2, a throwaway certificate), or plain HTTP/1.1 with `--http`.
 *
 * `tsx bench/web.ts --vitals-only [--runs N] [--pages /,/lessons/1]` runs only the Core Web Vitals
 * (bench/vitals.ts) against a fresh server on the built client, and prints each page's medians.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, request as httpClient } from 'playwright-core';
import { findChromium } from '../scripts/find-chromium.ts';
import { DEFAULT_DIST, initialJs, PUBLIC_PAGES } from '../scripts/initial-js.ts';
import { freePort } from '#test/server';
import { buildServer } from '../scripts/build-server.ts';
import { appCommand, idleCores } from './proc.ts';
import { makeCertificate, type TestCertificate } from '#test/tls';
import { measureVitals, type VitalsRow } from './vitals.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const QUICK = process.env.BENCH_QUICK === '1';
const ARGS = process.argv.slice(2);
const LIGHTHOUSE_ONLY = ARGS.includes('--lighthouse-only');
const opt = (name: string) => {
  const i = ARGS.indexOf(name);
  return i >= 0 ? ARGS[i + 1] : undefined;
};
const T0 = Number(process.env.BENCH_T0 ?? Date.now());
const lockedAt = Date.now();
const log = (s: string) =>
  process.stderr.write(`[bench ${((Date.now() - T0) / 1000).toFixed(0).padStart(3)} s] ${s}\n`);

export interface WebResults {
  /** when the lock was had (epoch ms) */
  lockedAt: number;
  buildSeconds: number | null;
  initialJs: { page: string; gzip: number }[];
  startSeconds: number;
  /** per page, its median run by performance score (of LIGHTHOUSE_RUNS), with every run's score in `runs` */
  lighthouse:
    | {
        page: string;
        performance: number | null;
        accessibility: number | null;
        bestPractices: number | null;
        metrics: string;
        failing: string[];
        runs?: (number | null)[];
      }[]
    | { error: string };
  /** the largest files of each page's initial JS */
  initialJsFiles: { page: string; files: { file: string; gzip: number }[] }[];
  /** the metronome page's rendered WAVs: worst onset error per bpm (frames at 44.1 kHz, against the exact fractional grid) */
  rendered: { bpm: number; found: number; expected: number; worst: number }[] | { error: string };
  /** Lighthouse waited for a quiet machine before its pages (see `quiet()`): seconds in all, the longest wait, and waits that gave up */
  quietWait?: { total: number; longest: number; timedOut: number };
  /** Core Web Vitals from the web-vitals library in the page, per page (bench/vitals.ts) */
  vitals: VitalsRow[] | { error: string };
}

/** Lighthouse's targets: the pages docs/benchmarks.md reports, signed in as the demo subscriber where needed. */
export const LIGHTHOUSE_PAGES: { page: string; signedIn: boolean }[] = [
  { page: '/', signedIn: false },
  { page: '/lessons/1', signedIn: true },
  { page: '/forums/topic/1', signedIn: true },
  { page: '/metronome', signedIn: false },
  { page: '/join', signedIn: false },
  { page: '/mentorship/checkout', signedIn: false },
];

type LighthouseRow = Exclude<WebResults['lighthouse'], { error: string }>[number];

/** Lighthouse runs per page in the full benchmark */
const LIGHTHOUSE_RUNS = 3;
/** before each Lighthouse page: the cores this idle over a second, waiting this long at most (quiet()) */
const QUIET_IDLE = 0.9;
const QUIET_MAX_MS = 60_000;
const quietWaits = { total: 0, longest: 0, timedOut: 0 };

/** per page, the run with the median performance score (a failed run counts lowest), every score kept in `runs` */
function medianRuns(runs: LighthouseRow[][]): LighthouseRow[] {
  return runs[0]!.map((first) => {
    const rows = runs.map((r) => r.find((x) => x.page === first.page)!);
    const sorted = [...rows].sort((a, b) => (a.performance ?? -1) - (b.performance ?? -1));
    return { ...sorted[Math.floor((sorted.length - 1) / 2)]!, runs: rows.map((r) => r.performance) };
  });
}

/** Core Web Vitals runs per page in the full benchmark */
const VITALS_RUNS = 3;

if (LIGHTHOUSE_ONLY) await lighthouseOnly();
else if (ARGS.includes('--vitals-only')) await vitalsOnly();
else await fullRun();

/** Core Web Vitals on a fresh plain-HTTP server: the pages of LIGHTHOUSE_PAGES, the demo member signed in where needed. */
async function vitals(targets: typeof LIGHTHOUSE_PAGES, runs: number): Promise<WebResults['vitals']> {
  try {
    log('fresh start on PGlite, for the Core Web Vitals');
    const server = await freshServer();
    try {
      return await measureVitals(server.base, await signInDemo(server.base), targets, runs, log);
    } finally {
      await server.stop();
    }
  } catch (err) {
    return { error: (err as Error).message.split('\n')[0]! };
  }
}

async function vitalsOnly() {
  const wanted = opt('--pages')?.split(',');
  const targets = wanted
    ? wanted.map((page) => LIGHTHOUSE_PAGES.find((t) => t.page === page) ?? { page, signedIn: true })
    : LIGHTHOUSE_PAGES;
  const rows = await vitals(targets, Number(opt('--runs') ?? 1));
  console.log(JSON.stringify(rows, null, 2));
}

async function fullRun() {
  const out = ARGS.find((a) => !a.startsWith('--'));
  if (!out)
    throw new Error(
      'usage: tsx bench/web.ts <results.json> | --lighthouse-only [--runs N] [--pages /,/join] [--base URL] [--save DIR]',
    );
  // 1. the build
  let buildSeconds: number | null = null;
  if (process.env.BENCH_SKIP_BUILD !== '1') {
    log('building the client (vite build)');
    const started = performance.now();
    const b = spawnSync(path.join(ROOT, 'node_modules/.bin/vite'), ['build'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (b.status !== 0) throw new Error('vite build failed');
    buildSeconds = (performance.now() - started) / 1000;
  }

  // 2. initial JavaScript of every public page of scripts/initial-js.ts (landing, metronome, diagnostic, both checkouts)
  const jsRows = initialJs(undefined, PUBLIC_PAGES);
  const js = jsRows.map((r) => ({ page: r.page, gzip: r.gzip }));
  const initialJsFiles = jsRows.map((r) => ({
    page: r.page,
    files: r.files
      .map((file) => ({ file, gzip: gzipSync(readFileSync(path.join(DEFAULT_DIST, file)), { level: 9 }).length }))
      .sort((a, b) => b.gzip - a.gzip)
      .slice(0, 4),
  }));

  // 3. a fresh start: embedded PGlite, new DATA_DIR, production, to the first page served
  log('fresh start on PGlite');
  const server = await freshServer();

  // 4. the metronome's rendered audio, then Lighthouse (default config: mobile, simulated throttling) in the project's Chromium
  let rendered: WebResults['rendered'];
  try {
    rendered = await renderedAudio(server.base);
  } catch (err) {
    rendered = { error: (err as Error).message.split('\n')[0]! };
  }
  await server.stop();
  let lighthouse: WebResults['lighthouse'];
  const cert = makeCertificate();
  try {
    log('fresh start on PGlite, HTTPS (HTTP/2), for Lighthouse');
    const secure = await freshServer(cert);
    try {
      // Lighthouse's own advice on variance: several runs, the median. Total blocking time, and with it
      // the score, moves a lot across runs of one page on one build (docs/benchmarks.md).
      const runs: LighthouseRow[][] = [];
      for (let i = 0; i < (QUICK ? 1 : LIGHTHOUSE_RUNS); i++)
        runs.push(await runLighthouse(secure.base, QUICK ? LIGHTHOUSE_PAGES.slice(0, 2) : LIGHTHOUSE_PAGES));
      lighthouse = medianRuns(runs);
    } finally {
      await secure.stop();
    }
  } catch (err) {
    lighthouse = { error: (err as Error).message.split('\n')[0]! };
  } finally {
    cert.remove();
  }
  const vitalsRows = await vitals(QUICK ? LIGHTHOUSE_PAGES.slice(0, 2) : LIGHTHOUSE_PAGES, QUICK ? 1 : VITALS_RUNS);
  writeFileSync(
    out,
    JSON.stringify({
      lockedAt,
      buildSeconds,
      initialJs: js,
      initialJsFiles,
      rendered,
      startSeconds: server.startSeconds,
      lighthouse,
      quietWait: quietWaits,
      vitals: vitalsRows,
    } satisfies WebResults),
  );
}

/** `--lighthouse-only`: Lighthouse alone, `--runs` times per page, each run and the median printed. */
async function lighthouseOnly() {
  const runs = Number(opt('--runs') ?? 1);
  const wanted = opt('--pages')?.split(',');
  const targets = wanted
    ? wanted.map((page) => LIGHTHOUSE_PAGES.find((t) => t.page === page) ?? { page, signedIn: true })
    : LIGHTHOUSE_PAGES;
  const save = opt('--save');
  if (save) mkdirSync(save, { recursive: true });
  const given = opt('--base');
  // --http: plain HTTP/1.1, as `npm start` serves without TLS files
  const cert = given || ARGS.includes('--http') ? null : makeCertificate();
  const server = given
    ? { base: given, startSeconds: NaN, stop: async () => {} }
    : await freshServer(cert ?? undefined);
  try {
    const all = new Map<string, LighthouseRow[]>();
    for (let run = 1; run <= runs; run++) {
      const file = (page: string, suffix: string) =>
        path.join(save!, `${page.replace(/\W+/g, '_') || 'root'}-${run}${suffix}`);
      const rows = await runLighthouse(
        server.base,
        targets,
        save ? (page, json) => writeFileSync(file(page, '.json'), json) : undefined,
        save && ARGS.includes('--trace') ? (page, json) => writeFileSync(file(page, '.trace.json'), json) : undefined,
      );
      for (const r of rows) {
        all.set(r.page, [...(all.get(r.page) ?? []), r]);
        console.log(
          `run ${run} ${r.page}: ${r.performance} / ${r.accessibility} / ${r.bestPractices}; ${r.metrics}${r.failing.length ? `; failing: ${r.failing.join(', ')}` : ''}`,
        );
      }
    }
    const median = (xs: (number | null)[]) => {
      const v = xs.filter((x): x is number => x !== null).sort((a, b) => a - b);
      return v.length ? v[Math.floor((v.length - 1) / 2)] : null;
    };
    console.log(`\nmedian of ${runs} run(s): performance / accessibility / best practices`);
    for (const [page, rows] of all) {
      console.log(
        `${page}: ${median(rows.map((r) => r.performance))} / ${median(rows.map((r) => r.accessibility))} / ${median(rows.map((r) => r.bestPractices))} (performance ${rows.map((r) => r.performance).join(', ')})`,
      );
    }
  } finally {
    await server.stop();
    cert?.remove();
  }
}

/**
 * The app on a new DATA_DIR (embedded PGlite, demo content seeded on first start), production mode, timed
 * to the first page served; with `cert`, serving HTTPS (HTTP/2) at https://localhost.
 */
async function freshServer(
  cert?: TestCertificate,
): Promise<{ base: string; startSeconds: number; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bb-bench-fresh-'));
  const port = await freePort();
  const base = cert ? `https://localhost:${port}` : `http://127.0.0.1:${port}`;
  const client = await httpClient.newContext({ ignoreHTTPSErrors: true });
  // what `npm start` runs after its builds (the server bundle, built here and not timed)
  if (process.env.BENCH_SKIP_BUILD !== '1') await buildServer();
  const [appFile, appArgs] = appCommand();
  const started = performance.now();
  const child = spawn(appFile, appArgs, {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      DEMO: '',
      LOG_LEVEL: 'warn',
      TLS_CERT_FILE: cert?.certFile ?? '',
      TLS_KEY_FILE: cert?.keyFile ?? '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const stop = async () => {
    await client.dispose();
    if (child.exitCode === null) {
      process.kill(-child.pid!, 'SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (;;) {
    const ok = await client.get(`${base}/`, { headers: { accept: 'text/html' } }).then(
      async (r) => r.ok() && (await r.text()).includes('<div id="root"'),
      () => false,
    );
    if (ok) return { base, startSeconds: (performance.now() - started) / 1000, stop };
    if (child.exitCode !== null) throw new Error('the fresh server exited');
    if (performance.now() - started > 120_000) {
      await stop();
      throw new Error('the fresh server did not serve a page within 120 s');
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The demo subscriber's session cookie ("name=value"), signed in as the sign-in form does (HTTP or HTTPS). */
async function signInDemo(base: string): Promise<string> {
  const client = await httpClient.newContext({ baseURL: base, ignoreHTTPSErrors: true });
  try {
    const page = await (await client.get('/', { headers: { accept: 'text/html' } })).text();
    const token = /<meta name="csrf-token" content="([^"]+)">/.exec(page)?.[1];
    if (!token) throw new Error('demo sign-in: the landing page has no CSRF token');
    const res = await client.post('/login', {
      data: { email: 'member@demo.test', password: 'drumsdemo1' },
      headers: { accept: 'application/json', 'x-csrf-token': token },
    });
    if (!res.ok()) throw new Error(`demo sign-in failed: ${res.status()}`);
    const topic = await client.get('/forums/api/topic/1', { headers: { accept: 'application/json' } });
    if (!topic.ok()) throw new Error(`demo topic 1: ${topic.status()}`);
    const session = (await client.storageState()).cookies.find((c) => c.name === 'bb_session');
    if (!session) throw new Error('demo sign-in: no session cookie');
    return `${session.name}=${session.value}`;
  } finally {
    await client.dispose();
  }
}

/**
 * Waits until the machine's cores have been at least 90 % idle over one second, for 60 s at most, before
 * a Lighthouse page: Lighthouse reads the page's main-thread work from a real trace and multiplies it,
 * so whatever else runs on the two cores lands in the page's score. In a full run the PostgreSQL part
 * has just written and dropped 200,000 rows (autovacuum, checkpoints, file removal), and a page's
 * previous run may still be winding down. The waits are reported beside the scores.
 */
async function quiet(): Promise<void> {
  const waited = await idleCores(QUIET_IDLE, QUIET_MAX_MS);
  if (waited === null) quietWaits.timedOut += 1;
  const seconds = waited ?? QUIET_MAX_MS / 1000;
  quietWaits.total += seconds;
  quietWaits.longest = Math.max(quietWaits.longest, seconds);
}

/**
 * Lighthouse on each page in a fresh tab of the project's Chromium. The signed-in pages get the demo
 * subscriber's session cookie in the browser's cookie jar (not a `Cookie` header on the navigation
 * only, which the page's own API calls would not carry); the jar is emptied before every page. A run
 * whose trace failed (NO_NAVSTART and the like, on a loaded machine) is tried again, up to twice.
 */
async function runLighthouse(
  base: string,
  targets: { page: string; signedIn: boolean }[],
  keep?: (page: string, json: string) => void,
  keepTrace?: (page: string, json: string) => void,
): Promise<LighthouseRow[]> {
  const { default: lh } = await import('lighthouse');
  const cookie = await signInDemo(base);
  const [cookieName, cookieValue] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
  const info = await findChromium();
  const debugPort = await freePort();
  const browser = await chromium.launch({
    executablePath: info.path,
    args: [
      ...info.args,
      `--remote-debugging-port=${debugPort}`,
      ...(base.startsWith('https:') ? ['--ignore-certificate-errors'] : []),
    ],
  });
  try {
    const cdp = await browser.newBrowserCDPSession();
    const results: LighthouseRow[] = [];
    for (const t of targets) {
      let row: LighthouseRow | null = null;
      for (let attempt = 1; attempt <= 3 && (!row || row.performance === null); attempt++) {
        await quiet();
        log(`lighthouse ${t.page}${attempt > 1 ? ` (again: ${row?.failing[0] ?? 'no score'})` : ''}`);
        await cdp.send('Storage.clearCookies', {});
        if (t.signedIn)
          await cdp.send('Storage.setCookies', {
            cookies: [
              {
                name: cookieName,
                value: cookieValue,
                url: base,
                httpOnly: true,
                secure: base.startsWith('https:'),
                sameSite: 'Lax',
              },
            ],
          });
        const r = await lh(`${base}${t.page}`, {
          port: debugPort,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices'],
        });
        if (keep && r) keep(t.page, JSON.stringify(r.lhr));
        if (keepTrace && r) keepTrace(t.page, JSON.stringify((r.artifacts as unknown as { Trace: unknown }).Trace));
        const c = r?.lhr.categories;
        const audits = r?.lhr.audits ?? {};
        const score = (k: string) => (c?.[k]?.score == null ? null : Math.round(c[k]!.score! * 100));
        const metric = (id: string) =>
          `${id.replace(/-/g, ' ').replace('largest contentful paint', 'LCP').replace('first contentful paint', 'FCP').replace('total blocking time', 'TBT').replace('cumulative layout shift', 'CLS').replace('speed index', 'SI')} ${audits[id]?.displayValue ?? '?'}`;
        const metrics = [
          'first-contentful-paint',
          'largest-contentful-paint',
          'total-blocking-time',
          'cumulative-layout-shift',
          'speed-index',
        ]
          .map(metric)
          .join(', ');
        // accessibility and best-practices audits that failed (weighted ones only)
        const failing = (['accessibility', 'best-practices'] as const).flatMap((cat) =>
          (c?.[cat]?.auditRefs ?? [])
            .filter((a) => a.weight > 0 && audits[a.id]?.score !== null && (audits[a.id]?.score ?? 1) < 1)
            .map((a) => `${cat}: ${a.id}`),
        );
        const runtime = r?.lhr.runtimeError ?? audits['first-contentful-paint']?.errorMessage;
        if (runtime)
          failing.unshift(
            `error: ${typeof runtime === 'string' ? runtime : `${runtime.code} ${runtime.message}`}`.slice(0, 200),
          );
        // the page Lighthouse ended on: a signed-in page that redirected to /login measured the wrong page
        const landed = r ? new URL(r.lhr.finalDisplayedUrl).pathname : t.page;
        if (landed !== t.page) failing.unshift(`error: ended on ${landed}`);
        row = {
          page: t.page,
          performance: landed === t.page ? score('performance') : null,
          accessibility: score('accessibility'),
          bestPractices: score('best-practices'),
          metrics,
          failing,
        };
      }
      results.push(row!);
    }
    return results;
  } finally {
    await browser.close();
  }
}

/** The metronome page renders 5-minute click tracks (OfflineAudioContext); every onset is read back from the WAV (tests/support/onsets.ts). */
async function renderedAudio(base: string): Promise<Exclude<WebResults['rendered'], { error: string }>> {
  const { before, idealFrames, onsets, worstError } = await import('#test/onsets');
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
      // 5 minutes of audio: 240 bpm took 17–22 s to render and download here, 400 bpm went past Playwright's 30 s default in two of four runs
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 120_000 }),
        page.getByRole('button', { name: 'Download WAV' }).click(),
      ]);
      const frames = before(onsets(readFileSync((await download.path())!)).frames, SECONDS);
      const ideal = idealFrames(SECONDS, () => bpm);
      out.push({ bpm, found: frames.length, expected: ideal.length, worst: worstError(frames, ideal) });
    }
    return out;
  } finally {
    await browser.close();
  }
}

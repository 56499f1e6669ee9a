/**
 * `npx tsx bench/traffic-memory.ts [spec files…]`: the app's resident memory (VmRSS) under real browser
 * traffic. It runs the browser suite (vitest.e2e.config.ts; the given spec files, or all of them), whose
 * global setup starts the app as `npm start` runs it (the production bundle with the start script's
 * flags, demo content, on PGlite), and reads that app process's memory from /proc every second while
 * the suite drives it. Prints its resident memory after TRAFFIC_MINUTES (default 10) of the suite's
 * traffic, at the last reading before the suite stopped it, and its peak (VmHWM). Target: at most 250 MB
 * after ten minutes on the embedded database.
 *
 * BENCH_DATABASE_URL=postgres://… (an admin connection) runs the suite's apps on new PostgreSQL
 * databases there instead (E2E_DATABASE_URL: tests/e2e/global-setup.ts, dropped afterwards). Builds nothing: run `npm run build &&
 * npm run build:server` first. Linux only (/proc). `npm run bench` runs the same (`trafficMemory`) on
 * both databases for its memory rows, and stops the suite once the reading after TRAFFIC_MINUTES is
 * taken.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { withClient } from './community.ts';
import { childrenOf, cpuMs, peakMb, rssMb } from './proc.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
/** the global setup's data folder (tests/e2e/global-setup.ts): mkdtemp's six characters after the prefix */
const SUITE_DATA_DIR = /(?:^|\0)DATA_DIR=[^\0]*\/bb-e2e-[A-Za-z0-9]{6}(?:\0|$)/;

/**
 * The suite's app processes among `root`'s descendants. The global setup runs for each project of the
 * config, so there are several; the one that served the suite is the one that used the most CPU.
 */
function suiteApps(root: number): number[] {
  const found: number[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    try {
      if (
        readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('dist/server/main.js') &&
        SUITE_DATA_DIR.test(readFileSync(`/proc/${pid}/environ`, 'utf8'))
      )
        found.push(pid);
    } catch {
      // the process ended between the listing and the read
    }
    queue.push(...childrenOf(pid));
  }
  return found;
}

/** an app's data folder and PostgreSQL database, from its environment */
function fromEnviron(environ: string): { dataDir: string; database: string | null } {
  const value = (name: string) => new RegExp(`(?:^|\\0)${name}=([^\\0]*)`).exec(environ)?.[1] ?? '';
  const url = value('DATABASE_URL');
  return { dataDir: value('DATA_DIR'), database: url ? new URL(url).pathname.slice(1) : null };
}

/** every process under `root`, deepest first, whatever process group each started */
function tree(root: number): number[] {
  return [...childrenOf(root).flatMap(tree), root];
}

export interface TrafficMemory {
  /** the suite's exit code, or null when it was stopped after the reading */
  exit: number | null;
  /** how long the app that served the suite ran, s */
  seconds: number;
  /** its RSS after `minutes` of traffic (null: the suite ended first), the last reading, and its peak, MB */
  atMark: number | null;
  last: number;
  peak: number;
}

/**
 * Run the browser suite (`specs`, or all of it) and read its app's memory; with `stopAtMark`, stop the
 * suite, its browsers and its apps once the reading after `minutes` is taken.
 */
export async function trafficMemory(opts: {
  minutes: number;
  adminUrl: string | null;
  specs?: string[];
  stopAtMark?: boolean;
}): Promise<TrafficMemory | null> {
  // with E2E_DATABASE_URL the suite's global setup gives each of its academies a new database there
  const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true', E2E_DATABASE_URL: opts.adminUrl ?? '' };
  const suite = spawn('npx', ['vitest', 'run', '--config', 'vitest.e2e.config.ts', ...(opts.specs ?? [])], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number>((resolve) => suite.once('exit', (code) => resolve(code ?? 1)));

  interface Readings {
    seenAt: number;
    atMark: number | null;
    rss: number;
    peak: number;
    seconds: number;
    /** CPU time so far, ms */
    cpu: number;
    dataDir: string;
    /** its PostgreSQL database, if it runs on one */
    database: string | null;
  }
  const apps = new Map<number, Readings>();
  let marked: () => void = () => undefined;
  const mark = new Promise<void>((resolve) => (marked = resolve));
  const sampler = setInterval(() => {
    for (const pid of suiteApps(suite.pid!)) {
      try {
        const app = apps.get(pid) ?? {
          seenAt: performance.now(),
          atMark: null,
          rss: 0,
          peak: 0,
          seconds: 0,
          cpu: 0,
          ...fromEnviron(readFileSync(`/proc/${pid}/environ`, 'utf8')),
        };
        apps.set(pid, app);
        Object.assign(app, {
          rss: rssMb(pid),
          peak: peakMb(pid),
          cpu: cpuMs(pid),
          seconds: (performance.now() - app.seenAt) / 1000,
        });
        if (app.atMark === null && app.seconds >= opts.minutes * 60) app.atMark = app.rss;
      } catch {
        // the suite has stopped this app: its last reading stands
      }
    }
    const busiest = [...apps.values()].sort((a, b) => b.cpu - a.cpu)[0];
    if (busiest?.atMark != null) marked();
  }, 1000);

  let exit: number | null;
  if (opts.stopAtMark) {
    exit = await Promise.race([exited, mark.then(() => null)]);
    if (exit === null) {
      // vitest's teardown would not run: end every process of the run, then the apps' data folders
      for (const pid of tree(suite.pid!)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await exited;
      for (const app of apps.values()) rmSync(app.dataDir, { recursive: true, force: true });
    }
  } else exit = await exited;
  clearInterval(sampler);
  if (opts.adminUrl && exit === null) {
    // stopped: the global setups' teardown did not drop their databases
    await withClient(opts.adminUrl, async (c) => {
      for (const app of apps.values())
        if (app.database) await c.query(`drop database if exists "${app.database}" with (force)`);
    });
  }

  const busiest = [...apps.values()].sort((a, b) => b.cpu - a.cpu)[0];
  if (!busiest) return null;
  return { exit, seconds: busiest.seconds, atMark: busiest.atMark, last: busiest.rss, peak: busiest.peak };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const minutes = Number(process.env.TRAFFIC_MINUTES ?? 10);
  const adminUrl = process.env.BENCH_DATABASE_URL ?? null;
  const r = await trafficMemory({ minutes, adminUrl, specs: process.argv.slice(2) });
  console.log(`${adminUrl ? 'PostgreSQL' : 'PGlite'}:`);
  if (!r) console.log('no app process of the suite was seen');
  else {
    console.log(
      `the browser suite ${r.exit === 0 ? 'passed' : `failed (exit ${r.exit})`}; its app ran ${r.seconds.toFixed(0)} s`,
    );
    console.log(
      r.atMark === null
        ? `after ${minutes} minutes: the suite ended before (last reading ${r.last.toFixed(0)} MB)`
        : `after ${minutes} minutes of traffic: RSS ${r.atMark.toFixed(0)} MB`,
    );
    console.log(`last reading: RSS ${r.last.toFixed(0)} MB; peak ${r.peak.toFixed(0)} MB`);
  }
  process.exit(r?.exit ?? 1);
}

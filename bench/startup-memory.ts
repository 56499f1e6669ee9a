/**
 * `npx tsx bench/startup-memory.ts`: the app's resident memory (VmRSS) as `npm start` runs it (the
 * production bundle with the start script's node flags, bench/proc.ts), right after a first start with
 * the demo content on a new DATA_DIR, and after a restart on the same DATA_DIR. On the embedded
 * database (PGlite) by default; BENCH_DATABASE_URL=postgres://… (an admin connection) runs the same on
 * a new PostgreSQL database per round instead, without the demo content (production on PostgreSQL
 * never seeds it: src/server/config.ts).
 *
 * "Right after" is SETTLE_MS (default 3000) after /healthz first answers; the peak (VmHWM) is printed
 * too. BENCH_ROUNDS (default 3) rounds; prints each round, then the medians and ranges.
 * BENCH_NODE_FLAGS adds node flags after the start script's own, which they override (to compare settings). Builds nothing:
 * run `npm run build && npm run build:server` first. `npm run bench` runs the same (`startupMemory`) on
 * both databases for its memory rows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { startServer } from '#test/server';
import { appCommand, peakMb, rssMb } from './proc.ts';
import { withClient } from './community.ts';

const SETTLE_MS = Number(process.env.SETTLE_MS ?? 3000);

export interface Reading {
  rss: number;
  peak: number;
  seconds: number;
}

async function startAndRead(env: Record<string, string>): Promise<Reading> {
  const command = appCommand((process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean));
  const started = performance.now();
  const app = await startServer(env, 180_000, command);
  const seconds = (performance.now() - started) / 1000;
  try {
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const pid = app.child.pid!;
    return { rss: rssMb(pid), peak: peakMb(pid), seconds };
  } finally {
    await app.stop();
  }
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
export const range = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;

/**
 * `rounds` rounds of a first start and a restart on the same data: on PGlite (a new DATA_DIR, the demo
 * content seeded), or with `adminUrl` on a new PostgreSQL database per round (no demo content).
 */
export async function startupMemory(
  rounds: number,
  adminUrl: string | null,
  progress: (line: string) => void = () => undefined,
): Promise<{ first: Reading[]; restart: Reading[] }> {
  const first: Reading[] = [];
  const restart: Reading[] = [];
  for (let round = 1; round <= rounds; round++) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'bb-startmem-'));
    const env: Record<string, string> = { NODE_ENV: 'production', DATA_DIR: dataDir, LOG_LEVEL: 'error' };
    let dropDatabase: (() => Promise<unknown>) | null = null;
    if (adminUrl) {
      const name = `bb_startmem_${randomBytes(4).toString('hex')}`;
      await withClient(adminUrl, (c) => c.query(`create database "${name}"`));
      dropDatabase = () => withClient(adminUrl, (c) => c.query(`drop database if exists "${name}" with (force)`));
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      Object.assign(env, {
        DATABASE_URL: url.toString(),
        REDIS_URL: '',
        SESSION_SECRET: randomBytes(16).toString('hex'),
      });
    }
    try {
      const a = await startAndRead(env);
      const b = await startAndRead(env);
      first.push(a);
      restart.push(b);
      progress(
        `round ${round}: first start ${a.rss.toFixed(0)} MB (peak ${a.peak.toFixed(0)}, healthy in ${a.seconds.toFixed(1)} s); ` +
          `restart ${b.rss.toFixed(0)} MB (peak ${b.peak.toFixed(0)}, ${b.seconds.toFixed(1)} s)`,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      await dropDatabase?.();
    }
  }
  return { first, restart };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const adminUrl = process.env.BENCH_DATABASE_URL ?? null;
  const { first, restart } = await startupMemory(rounds, adminUrl, (l) => console.error(l));
  const line = (name: string, rs: Reading[]) =>
    `${name}: RSS median ${median(rs.map((r) => r.rss)).toFixed(0)} MB (${range(rs.map((r) => r.rss))}), ` +
    `peak median ${median(rs.map((r) => r.peak)).toFixed(0)} MB (${range(rs.map((r) => r.peak))})`;
  console.log(`${adminUrl ? 'PostgreSQL' : 'PGlite'}, ${rounds} rounds, ${SETTLE_MS} ms after /healthz`);
  console.log(line(adminUrl ? 'first start' : 'first start with the demo content', first));
  console.log(line('restart on the same DATA_DIR', restart));
}

/**
 * Where a chat broadcast's server time goes: the fan-out of bench/fanout.ts on one app process (the
 * production bundle, as `npm start` runs it) and on the bare `ws` reference, alternated over rounds,
 * reporting the server's CPU time per message and, with PROFILE=1, a CPU profile of each server
 * summarised over the measured messages only (self time by function and by package).
 *
 * Usage: npx tsx bench/fanout-profile.ts (build the bundle first: npm run build:server)
 *   FANOUT_CLIENTS (3000), MESSAGES (30), ROUNDS (1), PROFILE=1,
 *   BUNDLES=dist/server/a.js,dist/server/b.js: compare several server bundles (default the one `npm start` runs)
 *   BARE=0: leave out the bare reference.
 * Needs PostgreSQL as bench/community.ts does.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startServer } from '#test/server';
import { benchAppEnv, createBenchDatabase, growTo, seedBase, signIn } from './community.ts';
import { largestProfile, selfTimes } from './cpu-profile.ts';
import { bareWs, connectApp, type Latency } from './fanout.ts';
import { appCommand, descendant, peakMb, rssMb } from './proc.ts';

const CLIENTS = Number(process.env.FANOUT_CLIENTS ?? 3000);
const MESSAGES = Number(process.env.MESSAGES ?? 30);
const ROUNDS = Number(process.env.ROUNDS ?? 1);
const PROFILE = process.env.PROFILE === '1';
const ROOT = path.resolve(import.meta.dirname, '..');
const BUNDLES = (process.env.BUNDLES ?? 'dist/server/main.js').split(',').map((b) => path.resolve(ROOT, b));
/** VARIANTS='name:node flags;name2:flags': each bundle run once per variant, the flags after the start script's own */
const VARIANTS = (process.env.VARIANTS ?? 'app:')
  .split(';')
  .map((v) => ({ name: v.split(':')[0]!, flags: v.split(':').slice(1).join(':').split(/\s+/).filter(Boolean) }));

const where = (url: string) => {
  if (!url) return '(native)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)(?:\/node_modules\/([^/]+))?/.exec(url);
  if (m) return m[2] ? `${m[1]}>${m[2]}` : m[1]!;
  if (url.startsWith('node:')) return url;
  const s = /\/((?:src|dist|bench)\/.*)$/.exec(url);
  return s ? s[1]! : url;
};

/** the largest profile in `dir` (a launcher's is tiny), summed over samples within `window` (µs, monotonic) */
function summarise(dir: string, window: [number, number], messages: number, viewers: number) {
  const { file, prof } = largestProfile(dir);
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = selfTimes(prof, window);
  const fns = new Map<string, number>();
  const groups = new Map<string, number>();
  let busy = 0;
  for (const [id, us] of self) {
    const n = byId.get(id)!;
    const name = n.callFrame.functionName || '(anonymous)';
    if (name === '(idle)' || name === '(program)') continue;
    busy += us;
    const key = `${name} ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
    const g = name.startsWith('(') ? name : where(n.callFrame.url);
    groups.set(g, (groups.get(g) ?? 0) + us);
  }
  const line = (us: number, what: string) =>
    `  ${((us / busy) * 100).toFixed(1).padStart(5)} %  ${((us / messages / viewers) * 1000).toFixed(0).padStart(6)} ns/viewer  ${what}`;
  console.log(
    `profile ${path.basename(file)}: ${(busy / 1000 / messages).toFixed(1)} ms sampled (not idle, not "program") per message`,
  );
  console.log(' by package / file:');
  for (const [g, us] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 14)) console.log(line(us, g));
  console.log(' top functions by self time:');
  for (const [f, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(line(us, f));
}

const database = await createBenchDatabase();
const dataDir = mkdtempSync(path.join(tmpdir(), 'bb-fanout-prof-'));
const db = new pg.Client({ connectionString: database.url });
const env = benchAppEnv(database.url, dataDir);
const results = new Map<string, number[]>();
const record = (name: string, l: Latency) => {
  results.set(name, [...(results.get(name) ?? []), l.cpuPerMessage[0]!]);
  console.log(
    `${name}: ${l.cpuPerMessage[0]!.toFixed(1)} ms CPU per message (${((l.cpuPerMessage[0]! / CLIENTS) * 1000).toFixed(1)} µs per viewer; the viewers' client threads ${l.clientCpuPerMessage.toFixed(1)} ms), p50 ${l.p50.toFixed(1)} / p99 ${l.p99.toFixed(1)} ms, ${l.delivered}/${l.expected} delivered, load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
};
try {
  await db.connect();
  let seeded = false;
  for (let round = 0; round < ROUNDS; round++) {
    for (const [bundle, variant] of BUNDLES.flatMap((b) => VARIANTS.map((v) => [b, v] as const))) {
      const name = `${path.basename(bundle)} ${variant.name}`;
      const profDir = path.join(dataDir, `prof-${round}-${name.replace(/\W+/g, '-')}`);
      const [file, args] = appCommand(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []);
      args.splice(args.length - 1, 1, ...variant.flags, bundle);
      const app = await startServer(env, undefined, [file, args]);
      try {
        if (!seeded) {
          await seedBase(db);
          await growTo(db, 1000);
          seeded = true;
        }
        const reader = await signIn(app.url);
        const senders = await Promise.all([101, 102, 103, 104, 105].map((m) => signIn(app.url, m)));
        const pid = descendant(app.child.pid!, 'main');
        const run = await connectApp(
          { urls: [app.url], reader, postUrl: app.url, senders, showId: 1, pids: [pid] },
          CLIENTS,
        );
        const l = await run.run(MESSAGES);
        record(name, l);
        console.log(
          `  ${name}: resident ${rssMb(pid).toFixed(0)} MB after the messages, peak ${peakMb(pid).toFixed(0)} MB`,
        );
        await app.stop();
        if (PROFILE) summarise(profDir, l.monotonicUs, MESSAGES, CLIENTS);
      } finally {
        await app.stop();
      }
    }
    if (process.env.BARE !== '0') {
      const profDir = path.join(dataDir, `prof-${round}-bare`);
      const before = process.env.NODE_OPTIONS;
      if (PROFILE) process.env.NODE_OPTIONS = `${before ?? ''} --cpu-prof --cpu-prof-dir=${profDir}`.trim();
      try {
        const l = await bareWs(CLIENTS, MESSAGES);
        record('bare ws', l);
        await new Promise((r) => setTimeout(r, 1000)); // the profile is written as the server exits
        if (PROFILE && readdirSync(profDir, { withFileTypes: true }).length)
          summarise(profDir, l.monotonicUs, MESSAGES, CLIENTS);
      } finally {
        if (before === undefined) delete process.env.NODE_OPTIONS;
        else process.env.NODE_OPTIONS = before;
      }
    }
  }
  console.log('\nCPU per message, ms, by round:');
  for (const [name, xs] of results) console.log(`  ${name}: ${xs.map((x) => x.toFixed(1)).join(', ')}`);
} finally {
  await db.end().catch(() => undefined);
  await database.drop();
  if (!process.env.KEEP) rmSync(dataDir, { recursive: true, force: true });
}

/**
 * What bounds a hot read: a CPU profile of the app process while autocannon reads one route on
 * PostgreSQL (the thread page by default), summarised as self time per package / source file and the
 * top functions. For docs/benchmarks.md's notes on missed targets.
 * Usage: npx tsx bench/profile-thread.ts [path, default /posts?type=forumtopic&id=1] [seconds, default 8]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { freePort } from '#test/server';
import { benchAppEnv, createBenchDatabase, growTo, seedBase, signIn } from './community.ts';
import { cpuMsOrNone, postgresCpuMs } from './proc.ts';
import { largestProfile, selfTimes, type ProfileNode } from './cpu-profile.ts';

const route = process.argv[2] ?? '/posts?type=forumtopic&id=1';
const seconds = Number(process.argv[3] ?? 8);

const nproc = availableParallelism();
/**
 * CPU time in ms (bench/proc.ts's cpuMs): the machine's busy and total time over all cores, the app
 * process, all postgres processes, this process. A process that ended between the listing and the
 * reading counts as none.
 */
function cpuTimes(appPid: number) {
  // /proc/stat counts clock ticks of 1/100 s, as cpuMs does
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = cpu.reduce((a, b) => a + b, 0) * 10;
  const busy = total - (cpu[3]! + cpu[4]!) * 10;
  return { total, busy, app: cpuMsOrNone(appPid), postgres: postgresCpuMs(), self: cpuMsOrNone(process.pid) };
}

const database = await createBenchDatabase();
const dataDir = mkdtempSync(path.join(tmpdir(), 'bb-prof-'));
const profDir = path.join(dataDir, 'prof');
const db = new pg.Client({ connectionString: database.url });
try {
  // node itself (not the tsx launcher), so that --cpu-prof applies to the app
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--import', 'tsx', 'src/server/main.ts'],
    {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: { ...process.env, ...benchAppEnv(database.url, dataDir), HOST: '127.0.0.1', PORT: String(port) },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const app = { url: `http://127.0.0.1:${port}` };
  for (
    let i = 0;
    !(await fetch(`${app.url}/healthz`).then(
      (r) => r.ok,
      () => false,
    ));
    i++
  ) {
    if (i > 600 || child.exitCode !== null) throw new Error('the app did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  await db.connect();
  await seedBase(db);
  await growTo(db, 1000);
  const { cookie } = await signIn(app.url);
  const headers = { cookie, accept: 'application/json' };
  // statements per request: PostgreSQL's committed transactions (each autocommit statement is one) over 200 reads
  const dbName = new URL(database.url).pathname.slice(1);
  const commits = async () => {
    await new Promise((r) => setTimeout(r, 11_000)); // an idle backend flushes its statistics within 10 s
    await db.query('select pg_stat_clear_snapshot()');
    return Number(
      (await db.query<{ n: string }>('select xact_commit as n from pg_stat_database where datname = $1', [dbName]))
        .rows[0]!.n,
    );
  };
  const c0 = await commits();
  for (let i = 0; i < 200; i++) await (await fetch(app.url + route, { headers })).arrayBuffer();
  const c1 = await commits();
  console.log(`about ${((c1 - c0 - 2) / 200).toFixed(1)} PostgreSQL transactions (statements) per request`);
  await autocannon({ url: app.url + route, connections: 10, duration: 2, headers });
  const cpu0 = cpuTimes(child.pid!);
  const r = await autocannon({ url: app.url + route, connections: 10, duration: seconds, headers });
  const cpu1 = cpuTimes(child.pid!);
  const share = (k: 'app' | 'postgres' | 'self') =>
    `${(((cpu1[k] - cpu0[k]) / (cpu1.busy - cpu0.busy)) * 100).toFixed(0)} %`;
  console.log(
    `machine busy ${(((cpu1.busy - cpu0.busy) / (cpu1.total - cpu0.total)) * 100).toFixed(0)} % of ${nproc} cores during the run; of the busy time: app process ${share('app')}, PostgreSQL backends ${share('postgres')}, this process (autocannon) ${share('self')}, other processes the rest`,
  );
  console.log(
    `app CPU per request: ${((cpu1.app - cpu0.app) / r.requests.total).toFixed(2)} ms; PostgreSQL CPU per request: ${((cpu1.postgres - cpu0.postgres) / r.requests.total).toFixed(2)} ms`,
  );
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  console.log(
    `${route}: ${r.requests.average.toFixed(0)} req/s, mean latency ${r.latency.average.toFixed(1)} ms, 10 connections, ${seconds} s (profiled, so slower than the benchmark)`,
  );
  // the app's profile is the largest one (the tsx launcher's is tiny)
  const { prof } = largestProfile(profDir);
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = selfTimes(prof);
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const where = (url: string) => {
    if (!url) return '(native / idle / gc)';
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    if (m) return m[1]!;
    if (url.startsWith('node:')) return 'node internals';
    const s = /\/(src\/.*)$/.exec(url);
    return s ? s[1]! : url;
  };
  const groups = new Map<string, number>();
  const fns = new Map<string, number>();
  for (const [id, us] of self) {
    const n = byId.get(id)!;
    const g =
      n.callFrame.functionName === '(idle)'
        ? '(idle)'
        : n.callFrame.functionName === '(garbage collector)'
          ? '(garbage collector)'
          : where(n.callFrame.url);
    groups.set(g, (groups.get(g) ?? 0) + us);
    const key = `${n.callFrame.functionName || '(anonymous)'} ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
  }
  const pct = (us: number) => `${((us / total) * 100).toFixed(1).padStart(5)} %`;
  console.log('\nself time by package / file (whole profile, including start-up):');
  for (const [g, us] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${pct(us)}  ${g}`);
  console.log('\ntop functions by self time:');
  for (const [f, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${pct(us)}  ${f}`);
  // who calls the top three functions: their most common caller chains
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: ProfileNode) =>
    `${n.callFrame.functionName || '(anonymous)'} ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  for (const [f] of [...fns]
    .sort((a, b) => b[1] - a[1])
    .filter(([k]) => !k.startsWith('('))
    .slice(0, 3)) {
    const chains = new Map<string, number>();
    for (const [id, us] of self) {
      if (label(byId.get(id)!) !== f) continue;
      const chain: string[] = [];
      for (let p = parent.get(id); p !== undefined && chain.length < 8; p = parent.get(p))
        chain.push(label(byId.get(p)!));
      const key = chain.join('\n      <- ');
      chains.set(key, (chains.get(key) ?? 0) + us);
    }
    console.log(`\ncallers of ${f}:`);
    for (const [c, us] of [...chains].sort((a, b) => b[1] - a[1]).slice(0, 2)) console.log(`  ${pct(us)}  <- ${c}`);
  }
} finally {
  await db.end().catch(() => undefined);
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}

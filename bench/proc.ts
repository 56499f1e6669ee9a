/**
 * The app process the bench measures, and reading processes from /proc (Linux): the app's node
 * process under a launcher, its memory and CPU time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * What `npm start` runs after its builds, read from package.json so that the bench cannot drift from
 * it: `sh scripts/start.sh <bundle>` (the launcher that sets node's flags and glibc's malloc settings,
 * decisions 0015 and 0021; the bundle is the one `npm run build:server` writes, scripts/build-server.ts),
 * as [file, args] with the launcher's and the bundle's paths made absolute and `extraFlags` (node flags,
 * to compare settings) after the launcher's own, so that they win. The launcher holds every setting but
 * NODE_ENV, which every caller sets, so a start script that sets anything else before it is refused
 * rather than run without it. The launcher execs node in its own place: the process started is node's.
 * run.ts builds the bundle first.
 */
export function appCommand(extraFlags: string[] = []): [file: string, args: string[]] {
  const start = (
    JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts.start!;
  const run = /(?:^|&&)\s*(?:NODE_ENV=\S*\s+)?sh\s+(\S+)\s+(\S+)\s*$/.exec(start);
  if (!run)
    throw new Error(
      `package.json's start script does not end in \`[NODE_ENV=…] sh <launcher> <bundle>\` (other settings belong in the launcher): ${start}`,
    );
  return ['/bin/sh', [path.resolve(ROOT, run[1]!), ...extraFlags, path.resolve(ROOT, run[2]!)]];
}

/** The processes `pid` started (from every one of its threads), [] once it has ended. */
export function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** The deepest descendant of `root` whose command line contains `marker` (tsx starts node as a child). */
export function descendant(root: number, marker: string): number {
  let pid = root;
  for (;;) {
    const next = childrenOf(pid).find((c) => {
      try {
        return readFileSync(`/proc/${c}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    });
    if (!next) return pid;
    pid = next;
  }
}

const statusKb = (pid: number, field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

/** Resident memory (VmRSS), MB. */
export const rssMb = (pid: number) => statusKb(pid, 'VmRSS') / 1024;

/** The most resident memory the process has had (VmHWM), MB. */
export const peakMb = (pid: number) => statusKb(pid, 'VmHWM') / 1024;

/** Resident memory split: anonymous (heaps, malloc) and file-backed (the node binary, shared libraries), MB. */
export const rssSplitMb = (pid: number) => ({
  anon: statusKb(pid, 'RssAnon') / 1024,
  file: statusKb(pid, 'RssFile') / 1024,
});

/** User + system CPU time of a process, ms (clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

/** cpuMs of a process, 0 for one that has ended */
export function cpuMsOrNone(pid: number): number {
  try {
    return cpuMs(pid);
  } catch {
    return 0;
  }
}

/**
 * CPU time of every PostgreSQL process on this machine (the server and its backends), ms. A backend
 * that ended between two readings takes its time with it, so read it around work on open connections.
 */
export function postgresCpuMs(): number {
  let ms = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let command = '';
    try {
      command = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    if (command === 'postgres') ms += cpuMsOrNone(Number(entry));
  }
  return ms;
}

/** share of CPU time the machine spent idle (all cores) between two readings of os.cpus() */
function idleShare(before: ReturnType<typeof cpus>, after: ReturnType<typeof cpus>): number {
  let idle = 0;
  let total = 0;
  after.forEach((cpu, i) => {
    const was = before[i]!.times;
    const now = cpu.times;
    idle += now.idle - was.idle;
    total += now.user - was.user + now.nice - was.nice + now.sys - was.sys + now.irq - was.irq + now.idle - was.idle;
  });
  return total > 0 ? idle / total : 1;
}

/**
 * Waits until the machine's cores have been at least `share` idle over one second, for `maxMs` at most.
 * Returns the seconds waited beyond that first second, or null when it gave up.
 */
export async function idleCores(share: number, maxMs: number): Promise<number | null> {
  const started = performance.now();
  for (;;) {
    const before = cpus();
    await new Promise((r) => setTimeout(r, 1000));
    if (idleShare(before, cpus()) >= share) return (performance.now() - started) / 1000 - 1;
    if (performance.now() - started > maxMs) return null;
  }
}

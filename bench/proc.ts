/** Reading processes from /proc (Linux): the app's node process under a launcher, its memory and CPU time. */
import { readFileSync } from 'node:fs';

/** The deepest descendant of `root` whose command line contains `marker` (tsx starts node as a child). */
export function descendant(root: number, marker: string): number {
  let pid = root;
  for (;;) {
    let children: number[] = [];
    try {
      children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return pid;
    }
    const next = children.find((c) => {
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

/** Resident memory (VmRSS), MB. */
export const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** User + system CPU time of a process, ms (clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

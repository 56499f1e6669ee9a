import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The parts of a V8 CPU profile (`node --cpu-prof`, a .cpuprofile file) the bench's profilers read. */
export interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
}
export interface Profile {
  nodes: ProfileNode[];
  /** µs on the monotonic clock */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The largest profile written to `dir` (a launcher's is tiny beside the app's), with its file's path. */
export function largestProfile(dir: string): { file: string; prof: Profile } {
  const file = readdirSync(dir)
    .map((f) => path.join(dir, f))
    .sort((a, b) => statSync(b).size - statSync(a).size)[0];
  if (!file) throw new Error(`no CPU profile in ${dir}`);
  return { file, prof: JSON.parse(readFileSync(file, 'utf8')) as Profile };
}

/** Self time of each node, µs: the whole profile, or only the samples taken within `window` (µs, monotonic). */
export function selfTimes(prof: Profile, window?: [from: number, to: number]): Map<number, number> {
  const self = new Map<number, number>();
  let t = prof.startTime;
  prof.samples.forEach((id, i) => {
    const delta = prof.timeDeltas[i] ?? 0;
    t += delta;
    if (window && (t < window[0] || t > window[1])) return;
    self.set(id, (self.get(id) ?? 0) + delta);
  });
  return self;
}

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

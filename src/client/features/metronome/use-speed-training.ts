import { useCallback, useRef, useState } from 'react';

/** where the scheduler stands when a run stops (Scheduler.current) */
interface Reached {
  bpm: number;
  countIn: boolean;
}

/**
 * A speed-training run, from where it started to the tempo it reached, for "Log to journal" once it
 * stops (docs/product/metronome.md). A run stopped during its count-in reached nothing.
 */
export function useSpeedTraining() {
  const current = useRef<{ from: number } | null>(null);
  const [run, setRun] = useState<{ from: number; to: number } | null>(null);

  /** a start: a speed-training run from `from`, or null for a plain start */
  const begin = useCallback((from: number | null) => {
    current.current = from === null ? null : { from };
    if (from !== null) setRun(null);
  }, []);

  const finish = useCallback((reached: Reached | null | undefined) => {
    if (current.current && reached && !reached.countIn) setRun({ from: current.current.from, to: reached.bpm });
    current.current = null;
  }, []);

  const clearRun = useCallback(() => setRun(null), []);

  return { run, begin, finish, clearRun };
}

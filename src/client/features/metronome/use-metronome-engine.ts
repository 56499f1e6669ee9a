import { useCallback, useEffect, useRef, useState } from 'react';
import { startableBpm, SUBDIVISIONS, type MetronomeSettings } from '#shared/metronome';
import type { Scheduler } from './engine.ts';
import type { SettingsUpdate } from './use-metronome-settings.ts';
import { useSpeedTraining } from './use-speed-training.ts';

// the audio engine loads on the first Start (or download): it is not part of the page's initial
// JavaScript (scripts/initial-js.ts)
const engine = () => import('./engine.ts');

/**
 * The metronome's sound: starts and stops the scheduler with the settings, follows its clock for the
 * visual beat, and restarts it when the meter or tempo changes while it plays (docs/product/metronome.md).
 * `bpmText` is what the tempo field shows: a start takes the tempo from it.
 */
export function useMetronomeEngine(s: MetronomeSettings, bpmText: string, update: SettingsUpdate) {
  const [playing, setPlaying] = useState(false);
  const [training, setTraining] = useState(false);
  const [beat, setBeat] = useState<{ beat: number; bpm: number } | null>(null);
  const audio = useRef<{ ctx: AudioContext; scheduler: Scheduler } | null>(null);
  const { run, begin, finish, clearRun } = useSpeedTraining();

  const stop = useCallback(() => {
    finish(audio.current?.scheduler.current());
    audio.current?.scheduler.stop();
    setPlaying(false);
    setTraining(false);
    setBeat(null);
  }, [finish]);

  const start = useCallback(
    async (withTraining: boolean) => {
      const bpm = startableBpm(withTraining ? s.speed.initialBpm : bpmText);
      if (bpm === null) return;
      if (!withTraining && bpm !== s.bpm) update({ bpm });
      if (!audio.current) {
        const ctx = new AudioContext({ latencyHint: 'interactive' });
        const { loadSoundSet, Scheduler } = await engine();
        audio.current = { ctx, scheduler: new Scheduler(ctx, await loadSoundSet(ctx, s.soundSet)) };
      }
      const { ctx, scheduler } = audio.current;
      await ctx.resume();
      scheduler.setVolume(s.volume);
      scheduler.start({
        bpm,
        accents: s.accents,
        subdivision: SUBDIVISIONS[s.subdiv] ?? [],
        speed: withTraining ? s.speed : null,
        rhythm: s.rhythm,
        countIn: s.countIn,
      });
      setPlaying(true);
      setTraining(withTraining);
      begin(withTraining ? s.speed.initialBpm : null);
    },
    [s, bpmText, update, begin],
  );

  // the visual beat follows the audio clock
  useEffect(() => {
    if (!playing) return;
    let frame = 0;
    const loop = () => {
      const c = audio.current?.scheduler.current();
      setBeat((old) => (c && (old?.beat !== c.beat || old.bpm !== c.bpm) ? { beat: c.beat, bpm: c.bpm } : old));
      frame = requestAnimationFrame(loop);
    };
    frame = requestAnimationFrame(loop);
    return () => cancelAnimationFrame(frame);
  }, [playing]);

  // changing beats, subdivision or bpm (when not training) restarts a playing metronome (docs/product/metronome.md)
  const restartKey = `${s.beats}|${s.subdiv}|${training ? '' : s.bpm}|${s.accents.join()}|${s.note}`;
  const lastKey = useRef(restartKey);
  useEffect(() => {
    if (lastKey.current !== restartKey && playing) void start(training);
    lastKey.current = restartKey;
  }, [restartKey, playing, training, start]);
  useEffect(() => audio.current?.scheduler.setVolume(s.volume), [s.volume]);
  // another sound set: load its samples into the running scheduler
  useEffect(() => {
    const current = audio.current;
    if (!current) return;
    let live = true;
    void engine()
      .then(({ loadSoundSet }) => loadSoundSet(current.ctx, s.soundSet))
      .then((buffers) => live && current.scheduler.setBuffers(buffers));
    return () => {
      live = false;
    };
  }, [s.soundSet]);
  useEffect(() => () => void audio.current?.ctx.close(), []);

  return { playing, training, beat, start, stop, run, clearRun };
}

export type MetronomeEngine = ReturnType<typeof useMetronomeEngine>;

/** Space bar: `toggle` (start or stop), unless a modal is open or the member is typing in a field. */
export function useSpaceBar(toggle: () => void) {
  const latest = useRef(toggle);
  useEffect(() => {
    latest.current = toggle;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.code !== 'Space' || document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      const target = e.target as HTMLElement;
      if (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT') return;
      e.preventDefault();
      latest.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

import { useEffect, useRef, useState, type RefObject } from 'react';
import { METRONOME_WORDS, type MetronomeSettings } from '#shared/metronome';
import type { MetronomeEngine } from './use-metronome-engine.ts';

/** How long the tempo has to stay put before it is said: a run of clicks on + is said once, at its end. */
export const TEMPO_SETTLE_MS = 600;

/**
 * What the metronome's polite live region says (docs/product/accessibility.md): the tempo once it has
 * settled, "Playing at 120 BPM, 4/4" and "Stopped", and each step speed training takes by itself.
 * A tempo changed while the tempo field has focus is not said again: the field's value text says it.
 */
export function useMetronomeAnnouncements(
  s: MetronomeSettings,
  { playing, training, beat }: Pick<MetronomeEngine, 'playing' | 'training' | 'beat'>,
  tempoField: RefObject<HTMLElement | null>,
): string {
  const [said, setSaid] = useState('');
  // the tempo the member last heard (or found on arrival): settling back on it says nothing
  const heardBpm = useRef(s.bpm);

  useEffect(() => {
    if (s.bpm === heardBpm.current) return;
    if (tempoField.current && tempoField.current === document.activeElement) {
      heardBpm.current = s.bpm;
      return;
    }
    const bpm = s.bpm;
    const timer = setTimeout(() => {
      // a start in the meantime has said it already
      if (bpm === heardBpm.current) return;
      heardBpm.current = bpm;
      setSaid(METRONOME_WORDS.tempo(bpm));
    }, TEMPO_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [s.bpm, tempoField]);

  const wasPlaying = useRef(playing);
  useEffect(() => {
    if (wasPlaying.current === playing) return;
    wasPlaying.current = playing;
    if (!playing) {
      setSaid(METRONOME_WORDS.stopped);
      return;
    }
    if (!training) heardBpm.current = s.bpm;
    setSaid(METRONOME_WORDS.playing(training ? s.speed.initialBpm : s.bpm, s.beats, s.note));
  }, [playing, training, s.bpm, s.speed.initialBpm, s.beats, s.note]);

  // speed training raises the tempo by itself: each new tempo is said once, as its first beat sounds
  const reached = playing && training && beat ? beat.bpm : null;
  const lastReached = useRef<number | null>(null);
  useEffect(() => {
    const before = lastReached.current;
    lastReached.current = reached;
    if (reached !== null && before !== null && reached > before) setSaid(METRONOME_WORDS.tempoUp(reached));
  }, [reached]);

  return said;
}

import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { START_UP, type MetronomeSettings } from '#shared/metronome';
import { TEMPO_SETTLE_MS, useMetronomeAnnouncements } from './use-metronome-announcements.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

type Engine = { playing: boolean; training: boolean; beat: { beat: number; bpm: number } | null };
const idle: Engine = { playing: false, training: false, beat: null };

function announcer(field: HTMLElement | null = null) {
  return renderHook(
    ({ settings, engine }: { settings: MetronomeSettings; engine: Engine }) =>
      useMetronomeAnnouncements(settings, engine, { current: field }),
    { initialProps: { settings: { ...START_UP, bpm: 120 }, engine: idle } },
  );
}

it('five quick tempo changes are said once, as the last tempo, after it settles', () => {
  const { result, rerender } = announcer();
  const said: string[] = [];
  for (const bpm of [121, 122, 123, 124, 125]) {
    rerender({ settings: { ...START_UP, bpm }, engine: idle });
    act(() => vi.advanceTimersByTime(TEMPO_SETTLE_MS / 3));
    said.push(result.current);
  }
  expect(said.every((s) => s === '')).toBe(true);
  act(() => vi.advanceTimersByTime(TEMPO_SETTLE_MS));
  expect(result.current).toBe('125 BPM');
});

it('a tempo changed while the tempo field has focus is left to the field', () => {
  const field = document.createElement('input');
  document.body.append(field);
  field.focus();
  const { result, rerender } = announcer(field);
  rerender({ settings: { ...START_UP, bpm: 121 }, engine: idle });
  act(() => vi.advanceTimersByTime(TEMPO_SETTLE_MS * 2));
  expect(result.current).toBe('');
  field.remove();
});

it('says the start with tempo and meter and the stop; a start does not say its tempo twice', () => {
  const { result, rerender } = announcer();
  // Start takes a typed tempo: the tempo changes, then the metronome plays
  rerender({ settings: { ...START_UP, bpm: 130 }, engine: idle });
  rerender({ settings: { ...START_UP, bpm: 130 }, engine: { ...idle, playing: true } });
  expect(result.current).toBe('Playing at 130 BPM, 4/4');
  act(() => vi.advanceTimersByTime(TEMPO_SETTLE_MS * 2));
  expect(result.current).toBe('Playing at 130 BPM, 4/4');
  rerender({ settings: { ...START_UP, bpm: 130 }, engine: idle });
  expect(result.current).toBe('Stopped');
});

it('speed training: each step up is said once, the first tempo not as a step', () => {
  const settings = { ...START_UP, speed: { initialBpm: 60, finalBpm: 80, step: 10, barsPerStep: 1 } };
  const { result, rerender } = announcer();
  const train = (beat: Engine['beat']) => rerender({ settings, engine: { playing: true, training: true, beat } });
  train(null);
  expect(result.current).toBe('Playing at 60 BPM, 4/4');
  train({ beat: 0, bpm: 60 });
  train({ beat: 1, bpm: 60 });
  expect(result.current).toBe('Playing at 60 BPM, 4/4');
  train({ beat: 0, bpm: 70 });
  expect(result.current).toBe('Tempo up to 70 BPM');
  const renders: string[] = [];
  for (const beat of [1, 2, 3]) {
    train({ beat, bpm: 70 });
    renders.push(result.current);
  }
  expect(renders).toEqual(['Tempo up to 70 BPM', 'Tempo up to 70 BPM', 'Tempo up to 70 BPM']);
  train({ beat: 0, bpm: 80 });
  expect(result.current).toBe('Tempo up to 80 BPM');
});

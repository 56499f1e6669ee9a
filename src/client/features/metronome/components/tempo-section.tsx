import { useRef, type RefObject } from 'react';
import { Minus, Pause, Play, Plus } from 'lucide-react';
import clsx from 'clsx';
import {
  digitsOnly,
  METRONOME,
  nextAccent,
  SOUND_SET_NAMES,
  startableBpm,
  tap,
  tempoName,
  type MetronomeSettings,
  type TapState,
} from '#shared/metronome';
import { inputClass } from '#client/components/ui/field.tsx';
import type { MetronomeEngine } from '../use-metronome-engine.ts';
import type { SettingsUpdate } from '../use-metronome-settings.ts';

/** keys that change the tempo by a step, as a slider or spinbutton does (docs/product/accessibility.md) */
const TEMPO_KEYS: Record<string, number> = { ArrowUp: 1, ArrowDown: -1, PageUp: 10, PageDown: -10 };

/**
 * The instrument itself: the tempo (slower, the big BPM field, faster), the beats with their
 * accents, Start and Tap, volume and sound.
 */
export function TempoSection({
  settings: s,
  engine,
  bpmText,
  onBpmText,
  update,
  setBpm,
  stepBpm,
  tempoField,
}: {
  settings: MetronomeSettings;
  engine: MetronomeEngine;
  /** what the tempo field shows */
  bpmText: string;
  onBpmText: (text: string) => void;
  update: SettingsUpdate;
  setBpm: (bpm: number) => void;
  stepBpm: (step: number) => void;
  /** the tempo field, for the live region to know when it has focus */
  tempoField?: RefObject<HTMLInputElement | null>;
}) {
  const { playing, training, beat, start, stop } = engine;
  // what the member typed into the tempo and has not committed yet (null: the field shows the tempo)
  const typedBpm = useRef<string | null>(null);
  const tapState = useRef<TapState>({ taps: [] });
  const shownBpm = training && beat ? beat.bpm : s.bpm;

  return (
    <section
      aria-label="Tempo"
      className="flex flex-col items-center gap-4 rounded-3xl border border-line bg-surface p-6 sm:p-8"
    >
      <div className="flex w-full items-center justify-center gap-4">
        <button
          type="button"
          aria-label="Slower"
          onClick={() => setBpm(s.bpm - 1)}
          className="grid size-16 shrink-0 place-items-center rounded-full border border-line text-fg hover:bg-surface-2"
        >
          <Minus aria-hidden className="size-7" />
        </button>
        <label className="flex flex-col items-center">
          <span className="sr-only">BPM</span>
          {/* a spinbutton that also takes typing: arrows ±1, Page Up/Down ±10; its value text says the tempo and its name */}
          <input
            ref={tempoField}
            aria-label="BPM"
            role="spinbutton"
            aria-valuemin={1}
            aria-valuemax={METRONOME.bpmMax}
            aria-valuenow={shownBpm}
            aria-valuetext={`${shownBpm} BPM, ${tempoName(shownBpm)}`}
            inputMode="numeric"
            value={training && beat ? String(beat.bpm) : bpmText}
            onChange={(e) => {
              typedBpm.current = digitsOnly(e.target.value);
              onBpmText(typedBpm.current);
            }}
            onKeyDown={(e) => {
              if (e.key === ' ') e.preventDefault();
              const step = TEMPO_KEYS[e.key];
              if (step === undefined || training) return;
              e.preventDefault();
              // from what the member is typing, else from the tempo itself: keys pressed faster than the
              // page redraws (a held arrow) each build on the one before
              const typed = typedBpm.current === null ? null : startableBpm(typedBpm.current);
              typedBpm.current = null;
              if (typed !== null) setBpm(typed + step);
              else stepBpm(step);
            }}
            onBlur={() => {
              typedBpm.current = null;
              const bpm = startableBpm(bpmText);
              if (bpm !== null) setBpm(bpm);
              else onBpmText(String(s.bpm));
            }}
            className="w-48 rounded-xl bg-transparent text-center text-8xl font-black tracking-tight text-fg tabular"
          />
          <span className="text-lg font-semibold text-accent-strong" data-testid="tempo-name">
            {tempoName(shownBpm)}
          </span>
        </label>
        <button
          type="button"
          aria-label="Faster"
          onClick={() => setBpm(s.bpm + 1)}
          className="grid size-16 shrink-0 place-items-center rounded-full border border-line text-fg hover:bg-surface-2"
        >
          <Plus aria-hidden className="size-7" />
        </button>
      </div>
      <div className="flex flex-wrap justify-center gap-2" aria-label="Beats and accents">
        {s.accents.map((level, i) => (
          <button
            key={i}
            type="button"
            aria-label={`Beat ${i + 1} accent ${level}`}
            onClick={() => update({ accents: s.accents.map((l, j) => (j === i ? nextAccent(l) : l)) })}
            className={clsx(
              'flex h-16 w-10 items-end justify-center rounded-lg border p-1',
              playing && beat?.beat === i ? 'border-accent ring-2 ring-accent' : 'border-line',
            )}
          >
            <span
              className={clsx('w-full rounded', level === 0 ? 'bg-transparent' : 'bg-accent')}
              style={{ height: `${(level / 3) * 100}%`, opacity: level === 0 ? 1 : 0.45 + level * 0.18 }}
            />
          </button>
        ))}
      </div>
      <div className="flex items-center gap-4">
        <button
          type="button"
          onClick={() => (playing ? stop() : void start(false))}
          aria-label={playing ? 'Stop' : 'Start'}
          className="grid size-24 place-items-center rounded-full bg-accent text-accent-fg shadow-lg hover:bg-accent-strong"
        >
          {playing ? <Pause aria-hidden className="size-10" /> : <Play aria-hidden className="size-10 translate-x-1" />}
        </button>
        <button
          type="button"
          onClick={() => {
            const result = tap(tapState.current, performance.now());
            tapState.current = result.state;
            if (result.bpm) setBpm(result.bpm);
          }}
          className="grid size-16 place-items-center rounded-full border border-line font-bold hover:bg-surface-2"
        >
          Tap
        </button>
      </div>
      <label className="flex w-full max-w-sm items-center gap-3 text-sm font-semibold">
        Volume
        <input
          type="range"
          min={0}
          max={METRONOME.volumeMax}
          value={s.volume}
          onChange={(e) => update({ volume: Number(e.target.value) })}
          className="flex-1 accent-[var(--accent)]"
        />
        <span className="w-8 tabular">{s.volume}</span>
      </label>
      <label className="flex w-full max-w-sm items-center gap-3 text-sm font-semibold">
        Sound
        <select
          className={`${inputClass} min-h-11 flex-1`}
          value={s.soundSet}
          onChange={(e) => update({ soundSet: Number(e.target.value) })}
        >
          {SOUND_SET_NAMES.map((name, i) => (
            <option key={name} value={i}>
              {name}
            </option>
          ))}
        </select>
      </label>
    </section>
  );
}

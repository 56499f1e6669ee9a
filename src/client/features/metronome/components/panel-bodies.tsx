import { lazy, Suspense, useEffect, useState } from 'react';
import { Minus, Plus } from 'lucide-react';
import {
  accentsFor,
  BOUNDS,
  clamp,
  digitsOnly,
  doubleNote,
  halveNote,
  SUBDIVISION_LABELS,
  type Bound,
  type MetronomeSettings,
} from '#shared/metronome';
import { inputClass } from '#client/components/ui/field.tsx';
import type { MetronomeEngine } from '../use-metronome-engine.ts';
import type { SettingsUpdate } from '../use-metronome-settings.ts';
import type { PanelName } from './settings-panels.tsx';

/*
 * What the Meter, Speed Training and Internal Rhythm Training panels hold: loaded when a panel first
 * opens, or as a pointer or focus reaches one (settings-panels.tsx). The page opens with every panel
 * closed, so none of this is part of its first JavaScript.
 */

// the run log loads after a speed-training run only
const SpeedRunLog = lazy(() => import('./speed-run-log.tsx').then((m) => ({ default: m.SpeedRunLog })));

export interface SettingsProps {
  settings: MetronomeSettings;
  update: SettingsUpdate;
}

/** The open panel's controls. */
export function PanelBody({
  panel,
  engine,
  ...props
}: SettingsProps & { panel: Exclude<PanelName, ''>; engine: MetronomeEngine }) {
  if (panel === 'meter') return <MeterSettings {...props} />;
  if (panel === 'speed') return <SpeedSettings {...props} engine={engine} />;
  return <RhythmSettings {...props} />;
}

/** A number field that takes digits only and clamps to its bound, saying so next to the field. */
export function BoundField({
  label,
  bound,
  value,
  onChange,
}: {
  label: string;
  bound: Bound;
  value: number;
  onChange: (v: number) => void;
}) {
  const [text, setText] = useState(String(value));
  const [min, max] = BOUNDS[bound];
  useEffect(() => setText(String(value)), [value]);
  return (
    <label className="flex flex-col gap-1 text-sm font-semibold">
      {label}
      <input
        className={`${inputClass} tabular`}
        inputMode="numeric"
        value={text}
        onChange={(e) => setText(digitsOnly(e.target.value))}
        onBlur={() => {
          const v = clamp(bound, Number(text || min));
          setText(String(v));
          onChange(v);
        }}
      />
      <span className="text-xs font-normal text-muted">
        {min}–{max}
      </span>
    </label>
  );
}

/** A value between a "less" and a "more" button, each given as its accessible name and what it does. */
function Stepper({
  label,
  value,
  less,
  more,
}: {
  label: string;
  value: number;
  less: [name: string, step: () => void];
  more: [name: string, step: () => void];
}) {
  const button = ([name, step]: [string, () => void], Icon: typeof Minus) => (
    <button
      type="button"
      aria-label={name}
      className="grid size-11 place-items-center rounded-full border border-line"
      onClick={step}
    >
      <Icon aria-hidden className="size-4" />
    </button>
  );
  return (
    <div className="flex items-center gap-2">
      <span className="font-semibold">{label}</span>
      {button(less, Minus)}
      <span className="w-8 text-center text-2xl font-black tabular">{value}</span>
      {button(more, Plus)}
    </div>
  );
}

function MeterSettings({ settings: s, update }: SettingsProps) {
  const beats = (n: number) => update({ beats: n, accents: accentsFor(n, s.accents) });
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-6">
        <Stepper
          label="Beats"
          value={s.beats}
          less={['Fewer beats', () => beats(Math.max(1, s.beats - 1))]}
          more={['More beats', () => beats(Math.min(16, s.beats + 1))]}
        />
        <Stepper
          label="Note value"
          value={s.note}
          less={['Halve note value', () => update({ note: halveNote(s.note) })]}
          more={['Double note value', () => update({ note: doubleNote(s.note) })]}
        />
      </div>
      <label className="flex flex-col gap-1 text-sm font-semibold">
        Subdivision
        <select className={inputClass} value={s.subdiv} onChange={(e) => update({ subdiv: Number(e.target.value) })}>
          {SUBDIVISION_LABELS.map((label, i) => (
            <option key={label} value={i}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-2 text-base">
        <input
          type="checkbox"
          className="size-5 accent-[var(--accent)]"
          checked={s.countIn}
          onChange={(e) => update({ countIn: e.target.checked })}
        />{' '}
        Count-in bar before the first beat
      </label>
    </div>
  );
}

function SpeedSettings({ settings: s, update, engine }: SettingsProps & { engine: MetronomeEngine }) {
  const { playing, training, start, stop, run, clearRun } = engine;
  const speed = (patch: Partial<MetronomeSettings['speed']>) => update({ speed: { ...s.speed, ...patch } });
  return (
    <div className="flex flex-col gap-4">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <BoundField
          label="Initial BPM"
          bound="initialBpm"
          value={s.speed.initialBpm}
          onChange={(v) => speed({ initialBpm: v })}
        />
        <BoundField
          label="Final BPM"
          bound="finalBpm"
          value={s.speed.finalBpm}
          onChange={(v) => speed({ finalBpm: v })}
        />
        <BoundField label="Increase BPM by" bound="step" value={s.speed.step} onChange={(v) => speed({ step: v })} />
        <BoundField
          label="Every X bars"
          bound="barsPerStep"
          value={s.speed.barsPerStep}
          onChange={(v) => speed({ barsPerStep: v })}
        />
      </div>
      <p className="text-muted">Space bar starts and stops speed training while this panel is open.</p>
      <button
        type="button"
        onClick={() => (playing ? stop() : void start(true))}
        className="min-h-12 self-start rounded-xl bg-accent px-5 font-semibold text-accent-fg"
      >
        {playing && training ? 'Stop speed training' : 'Start speed training'}
      </button>
      {run && !playing ? (
        <Suspense fallback={null}>
          <SpeedRunLog from={run.from} to={run.to} onDone={clearRun} />
        </Suspense>
      ) : null}
    </div>
  );
}

function RhythmSettings({ settings: s, update }: SettingsProps) {
  const rhythm = (patch: Partial<MetronomeSettings['rhythm']>) => update({ rhythm: { ...s.rhythm, ...patch } });
  return (
    <div className="flex flex-col gap-4">
      <label className="flex items-center gap-2 text-base">
        <input
          type="checkbox"
          className="size-5 accent-[var(--accent)]"
          checked={s.rhythm.enabled}
          onChange={(e) => rhythm({ enabled: e.target.checked })}
        />{' '}
        Internal rhythm training
      </label>
      <div className="grid grid-cols-2 gap-3">
        <BoundField
          label="Metronome on (bars)"
          bound="rhythmOn"
          value={s.rhythm.on}
          onChange={(v) => rhythm({ on: v })}
        />
        <BoundField label="Off (bars)" bound="rhythmOff" value={s.rhythm.off} onChange={(v) => rhythm({ off: v })} />
      </div>
      <label className="flex items-center gap-2 text-base">
        <input
          type="checkbox"
          role="switch"
          className="size-5 accent-[var(--accent)]"
          checked={s.rhythm.random}
          onChange={(e) => rhythm({ random: e.target.checked })}
        />{' '}
        Randomize
      </label>
    </div>
  );
}

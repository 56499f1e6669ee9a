import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from 'react';
import { ChevronDown, Minus, Pause, Play, Plus } from 'lucide-react';
import clsx from 'clsx';
import {
  accentsFor,
  BOUNDS,
  clamp,
  digitsOnly,
  doubleNote,
  halveNote,
  METRONOME,
  nextAccent,
  START_UP,
  startableBpm,
  SUBDIVISION_LABELS,
  SUBDIVISIONS,
  tap,
  tempoName,
  type Bound,
  type MetronomeSettings,
  type TapState,
  SOUND_SET_NAMES,
} from '#shared/metronome';
import { inputClass } from '#client/components/ui/field.tsx';
import { toast } from '#client/components/ui/toast.tsx';
import type { Scheduler } from '../engine.ts';
import { ClickTrackButton } from './click-track.tsx';
import { Playlist } from './playlist.tsx';
import { isolateText } from '#shared/display-text';

// the audio engine loads on the first Start (or download), and the run log after a speed-training run
// only: neither is part of the page's initial JavaScript (scripts/initial-js.ts)
const engine = () => import('../engine.ts');
const SpeedRunLog = lazy(() => import('./speed-run-log.tsx').then((m) => ({ default: m.SpeedRunLog })));

const STORAGE_KEY = 'bb.metronome.settings';
/** keys that change the tempo by a step, as a slider or spinbutton does (docs/product/accessibility.md) */
const TEMPO_KEYS: Record<string, number> = { ArrowUp: 1, ArrowDown: -1, PageUp: 10, PageDown: -10 };

function loadSettings(): MetronomeSettings {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<MetronomeSettings> | null;
    return saved
      ? {
          ...START_UP,
          ...saved,
          speed: { ...START_UP.speed, ...saved.speed },
          rhythm: { ...START_UP.rhythm, ...saved.rhythm },
        }
      : START_UP;
  } catch {
    return START_UP;
  }
}

/** A number field that takes digits only and clamps to its bound, saying so next to the field. */
function BoundField({
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

/**
 * One of the three settings panels: a heading with a disclosure button (aria-expanded, aria-controls)
 * and its region; one panel is open at a time (the page keeps which). A plain disclosure rather than
 * Radix Accordion keeps the page's initial JavaScript small (scripts/initial-js.ts).
 */
function Panel({
  title,
  open,
  onToggle,
  children,
}: {
  title: string;
  open: boolean;
  onToggle: () => void;
  children: React.ReactNode;
}) {
  const id = useId();
  return (
    <div className="rounded-2xl border border-line bg-surface">
      <h2>
        <button
          type="button"
          id={`${id}-trigger`}
          aria-expanded={open}
          aria-controls={`${id}-panel`}
          onClick={onToggle}
          className="flex min-h-14 w-full items-center justify-between px-5 text-lg font-bold"
        >
          {title}
          <ChevronDown aria-hidden className={clsx('size-5 transition-transform duration-150', open && 'rotate-180')} />
        </button>
      </h2>
      {open ? (
        <div id={`${id}-panel`} role="region" aria-labelledby={`${id}-trigger`} className="px-5 pb-5">
          {children}
        </div>
      ) : null}
    </div>
  );
}

export function Metronome() {
  const [s, setS] = useState<MetronomeSettings>(loadSettings);
  const [playing, setPlaying] = useState(false);
  const [training, setTraining] = useState(false);
  const [panel, setPanel] = useState<string>('');
  const [bpmText, setBpmText] = useState(String(s.bpm));
  // what the member typed into the tempo and has not committed yet (null: the field shows the tempo)
  const typedBpm = useRef<string | null>(null);
  const [beat, setBeat] = useState<{ beat: number; bpm: number } | null>(null);
  const tapState = useRef<TapState>({ taps: [] });
  const audio = useRef<{ ctx: AudioContext; scheduler: Scheduler } | null>(null);
  const update = (patch: Partial<MetronomeSettings>) => setS((old) => ({ ...old, ...patch }));

  useEffect(() => localStorage.setItem(STORAGE_KEY, JSON.stringify(s)), [s]);
  useEffect(() => setBpmText(String(s.bpm)), [s.bpm]);

  // a speed-training run: where it started, for "Log to journal" when it stops
  const trainingRun = useRef<{ from: number } | null>(null);
  const [run, setRun] = useState<{ from: number; to: number } | null>(null);

  const stop = useCallback(() => {
    const reached = audio.current?.scheduler.current();
    if (trainingRun.current && reached && !reached.countIn) setRun({ from: trainingRun.current.from, to: reached.bpm });
    trainingRun.current = null;
    audio.current?.scheduler.stop();
    setPlaying(false);
    setTraining(false);
    setBeat(null);
  }, []);

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
      trainingRun.current = withTraining ? { from: s.speed.initialBpm } : null;
      if (withTraining) setRun(null);
    },
    [s, bpmText],
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

  // space bar: start/stop (speed training in its view), not while a modal is open
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.code !== 'Space' || document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      const target = e.target as HTMLElement;
      if (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT') return;
      e.preventDefault();
      if (playing) stop();
      else void start(panel === 'speed');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [playing, panel, start, stop]);

  const setBpm = (bpm: number) => update({ bpm: Math.min(METRONOME.bpmMax, Math.max(1, bpm)) });
  const shownBpm = training && beat ? beat.bpm : s.bpm;
  const openPanel = (value: string) => {
    // opening the speed or internal rhythm panel stops the metronome (docs/product/metronome.md)
    if ((value === 'speed' || value === 'rhythm') && playing) stop();
    setPanel(value);
  };

  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6">
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
                setBpmText(typedBpm.current);
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
                else setS((old) => ({ ...old, bpm: Math.min(METRONOME.bpmMax, Math.max(1, old.bpm + step)) }));
              }}
              onBlur={() => {
                typedBpm.current = null;
                const bpm = startableBpm(bpmText);
                if (bpm !== null) setBpm(bpm);
                else setBpmText(String(s.bpm));
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
            {playing ? (
              <Pause aria-hidden className="size-10" />
            ) : (
              <Play aria-hidden className="size-10 translate-x-1" />
            )}
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

      <div className="flex flex-col gap-2">
        {[
          ['meter', 'Meter'],
          ['speed', 'Speed Training'],
          ['rhythm', 'Internal Rhythm Training'],
        ].map(([value, title]) => (
          <Panel
            key={value}
            title={title!}
            open={panel === value}
            onToggle={() => openPanel(panel === value ? '' : value!)}
          >
            {value === 'meter' ? (
              <div className="flex flex-col gap-4">
                <div className="flex flex-wrap items-center gap-6">
                  <div className="flex items-center gap-2">
                    <span className="font-semibold">Beats</span>
                    <button
                      type="button"
                      aria-label="Fewer beats"
                      className="grid size-11 place-items-center rounded-full border border-line"
                      onClick={() =>
                        update({
                          beats: Math.max(1, s.beats - 1),
                          accents: accentsFor(Math.max(1, s.beats - 1), s.accents),
                        })
                      }
                    >
                      <Minus aria-hidden className="size-4" />
                    </button>
                    <span className="w-8 text-center text-2xl font-black tabular">{s.beats}</span>
                    <button
                      type="button"
                      aria-label="More beats"
                      className="grid size-11 place-items-center rounded-full border border-line"
                      onClick={() =>
                        update({
                          beats: Math.min(16, s.beats + 1),
                          accents: accentsFor(Math.min(16, s.beats + 1), s.accents),
                        })
                      }
                    >
                      <Plus aria-hidden className="size-4" />
                    </button>
                  </div>
                  <div className="flex items-center gap-2">
                    <span className="font-semibold">Note value</span>
                    <button
                      type="button"
                      aria-label="Halve note value"
                      className="grid size-11 place-items-center rounded-full border border-line"
                      onClick={() => update({ note: halveNote(s.note) })}
                    >
                      <Minus aria-hidden className="size-4" />
                    </button>
                    <span className="w-8 text-center text-2xl font-black tabular">{s.note}</span>
                    <button
                      type="button"
                      aria-label="Double note value"
                      className="grid size-11 place-items-center rounded-full border border-line"
                      onClick={() => update({ note: doubleNote(s.note) })}
                    >
                      <Plus aria-hidden className="size-4" />
                    </button>
                  </div>
                </div>
                <label className="flex flex-col gap-1 text-sm font-semibold">
                  Subdivision
                  <select
                    className={inputClass}
                    value={s.subdiv}
                    onChange={(e) => update({ subdiv: Number(e.target.value) })}
                  >
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
            ) : value === 'speed' ? (
              <div className="flex flex-col gap-4">
                <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
                  <BoundField
                    label="Initial BPM"
                    bound="initialBpm"
                    value={s.speed.initialBpm}
                    onChange={(v) => update({ speed: { ...s.speed, initialBpm: v } })}
                  />
                  <BoundField
                    label="Final BPM"
                    bound="finalBpm"
                    value={s.speed.finalBpm}
                    onChange={(v) => update({ speed: { ...s.speed, finalBpm: v } })}
                  />
                  <BoundField
                    label="Increase BPM by"
                    bound="step"
                    value={s.speed.step}
                    onChange={(v) => update({ speed: { ...s.speed, step: v } })}
                  />
                  <BoundField
                    label="Every X bars"
                    bound="barsPerStep"
                    value={s.speed.barsPerStep}
                    onChange={(v) => update({ speed: { ...s.speed, barsPerStep: v } })}
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
                    <SpeedRunLog from={run.from} to={run.to} onDone={() => setRun(null)} />
                  </Suspense>
                ) : null}
              </div>
            ) : (
              <div className="flex flex-col gap-4">
                <label className="flex items-center gap-2 text-base">
                  <input
                    type="checkbox"
                    className="size-5 accent-[var(--accent)]"
                    checked={s.rhythm.enabled}
                    onChange={(e) => update({ rhythm: { ...s.rhythm, enabled: e.target.checked } })}
                  />{' '}
                  Internal rhythm training
                </label>
                <div className="grid grid-cols-2 gap-3">
                  <BoundField
                    label="Metronome on (bars)"
                    bound="rhythmOn"
                    value={s.rhythm.on}
                    onChange={(v) => update({ rhythm: { ...s.rhythm, on: v } })}
                  />
                  <BoundField
                    label="Off (bars)"
                    bound="rhythmOff"
                    value={s.rhythm.off}
                    onChange={(v) => update({ rhythm: { ...s.rhythm, off: v } })}
                  />
                </div>
                <label className="flex items-center gap-2 text-base">
                  <input
                    type="checkbox"
                    role="switch"
                    className="size-5 accent-[var(--accent)]"
                    checked={s.rhythm.random}
                    onChange={(e) => update({ rhythm: { ...s.rhythm, random: e.target.checked } })}
                  />{' '}
                  Randomize
                </label>
              </div>
            )}
          </Panel>
        ))}
      </div>

      <Playlist
        current={s}
        onLoad={(entry) => {
          setS({
            ...START_UP,
            ...entry,
            speed: { ...START_UP.speed, ...entry.speed },
            rhythm: { ...START_UP.rhythm, ...entry.rhythm },
          });
          toast(`Loaded “${isolateText(entry.name)}”.`);
        }}
      />
      <ClickTrackButton settings={s} />
    </div>
  );
}

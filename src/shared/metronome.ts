/**
 * Metronome rules and bounds (docs/product/metronome.md). Pure: the audio scheduler
 * and the page use these, and the tests prove them.
 */
import { z } from './zod.ts';
import { cleanDisplayText } from './display-text.ts';

export const METRONOME = {
  bpmDefault: 120,
  bpmMax: 400,
  beatsMin: 1,
  beatsMax: 16,
  noteMin: 2,
  noteMax: 8,
  volumeDefault: 45,
  volumeMax: 90,
  accentLevels: 4,
  accentsDefault: [3, 2, 2, 2],
  tapResetMs: 2000,
  /** bpm is set after MORE than this many taps */
  tapsBeforeSet: 3,
  soundSets: 3,
  samplesPerSet: 3,
  randomChance: 0.5,
} as const;

/** The three sound sets (`/metronome-assets/{set}_{n}.wav`), by name. */
export const SOUND_SET_NAMES = ['Click', 'Woodblock', 'Beep'] as const;

/** Subdivision options: the clicks between two beats; 1 sounds, 0 is silent. */
export const SUBDIVISIONS: ReadonlyArray<readonly number[]> = [[], [1], [1, 1], [0, 1], [1, 0], [1, 1, 1]];
export const SUBDIVISION_LABELS = ['None', 'Eighths', 'Triplets', 'Swing', 'Triplet pickup', 'Sixteenths'];

/** Bounds for the training panels, clamped on input (docs/product/metronome.md). */
export const BOUNDS = {
  bpm: [1, 400],
  beats: [1, 16],
  volume: [0, 90],
  initialBpm: [40, 400],
  finalBpm: [41, 400],
  step: [1, 99],
  barsPerStep: [1, 99],
  rhythmOn: [1, 10],
  rhythmOff: [0, 10],
} as const satisfies Record<string, readonly [number, number]>;
export type Bound = keyof typeof BOUNDS;

export function clamp(bound: Bound, value: number): number {
  const [min, max] = BOUNDS[bound];
  if (!Number.isFinite(value)) return min;
  return Math.min(max, Math.max(min, Math.round(value)));
}

/** Digits only, as the numeric inputs accept. */
export const digitsOnly = (text: string, maxLength = 3) => text.replace(/\D/g, '').slice(0, maxLength);

/** A bpm the metronome may start at: empty or 0 does not start; above 400 is clamped to 400. */
export function startableBpm(value: number | string | null | undefined): number | null {
  const n = typeof value === 'string' ? (value.trim() === '' ? NaN : Number(value)) : (value ?? NaN);
  if (!Number.isFinite(n) || n <= 0) return null;
  return Math.min(METRONOME.bpmMax, Math.round(n));
}

const TEMPO_BANDS: Array<[number, string]> = [
  [48, 'Largo'],
  [54, 'Lento'],
  [60, 'Adagio'],
  [72, 'Andante'],
  [96, 'Moderato'],
  [116, 'Allegretto'],
  [144, 'Allegro'],
  [176, 'Vivace'],
  [200, 'Presto'],
];
/** Tempo name by bpm: "under 48 Largo ... otherwise Prestissimo". */
export function tempoName(bpm: number): string {
  for (const [under, name] of TEMPO_BANDS) if (bpm < under) return name;
  return 'Prestissimo';
}

/** Note value halves or doubles between 2 and 8. */
/**
 * What the metronome's polite live region says (docs/product/accessibility.md): the tempo once it has
 * settled, the start and the stop, and each step speed training takes by itself.
 */
export const METRONOME_WORDS = {
  tempo: (bpm: number) => `${bpm} BPM`,
  playing: (bpm: number, beats: number, note: number) => `Playing at ${bpm} BPM, ${beats}/${note}`,
  stopped: 'Stopped',
  tempoUp: (bpm: number) => `Tempo up to ${bpm} BPM`,
};

export const halveNote = (note: number) => Math.max(METRONOME.noteMin, note / 2);
export const doubleNote = (note: number) => Math.min(METRONOME.noteMax, note * 2);

/** Accent levels cycle 0 → 1 → 2 → 3 → 0 (0 is silent). */
export const nextAccent = (level: number) => (level + 1) % METRONOME.accentLevels;

/** Accents for a number of beats: keeps the ones set, new beats get the default 2 (the first 3). */
export function accentsFor(beats: number, current: readonly number[]): number[] {
  return Array.from({ length: beats }, (_, i) => current[i] ?? (i === 0 ? 3 : 2));
}

// ---- tap tempo ----
export interface TapState {
  taps: number[];
}
/** Taps under 2000 ms apart are averaged; after more than 3 taps the bpm is set; a longer gap resets. */
export function tap(state: TapState, now: number): { state: TapState; bpm: number | null } {
  const last = state.taps.at(-1);
  const taps = last !== undefined && now - last < METRONOME.tapResetMs ? [...state.taps, now] : [now];
  if (taps.length <= METRONOME.tapsBeforeSet) return { state: { taps }, bpm: null };
  const intervals = taps.slice(1).map((t, i) => t - taps[i]!);
  const average = intervals.reduce((a, b) => a + b, 0) / intervals.length;
  return { state: { taps }, bpm: Math.min(METRONOME.bpmMax, Math.round(60_000 / average)) };
}

// ---- the click grid ----
export interface Click {
  /** seconds from the start of the bar */
  offset: number;
  beat: number;
  /** 0 for the beat itself, 1.. for subdivision clicks */
  sub: number;
  /** 0 silent .. 3 loudest; subdivision clicks are level 1 */
  level: number;
}

/** Every click of one bar: beats at 60/bpm seconds, subdivisions between them. */
export function barClicks(bpm: number, accents: readonly number[], subdivision: readonly number[]): Click[] {
  const beat = 60 / bpm;
  const parts = subdivision.length + 1;
  const clicks: Click[] = [];
  accents.forEach((level, b) => {
    clicks.push({ offset: b * beat, beat: b, sub: 0, level });
    subdivision.forEach((on, s) => {
      if (on) clicks.push({ offset: b * beat + ((s + 1) * beat) / parts, beat: b, sub: s + 1, level: 1 });
    });
  });
  return clicks;
}
export const barSeconds = (bpm: number, beats: number) => (60 / bpm) * beats;

// ---- speed training ----
export interface SpeedTraining {
  initialBpm: number;
  finalBpm: number;
  step: number;
  barsPerStep: number;
}
export const SPEED_DEFAULTS: SpeedTraining = { initialBpm: 60, finalBpm: 120, step: 10, barsPerStep: 2 };

/** The bpm of bar `bar` (0-based): +step after every barsPerStep bars, landing exactly on finalBpm. */
export function speedBpm(cfg: SpeedTraining, bar: number): number {
  const steps = Math.floor(bar / cfg.barsPerStep);
  if (cfg.finalBpm <= cfg.initialBpm) return cfg.initialBpm;
  return Math.min(cfg.finalBpm, cfg.initialBpm + steps * cfg.step);
}

// ---- internal rhythm ----
export interface InternalRhythm {
  enabled: boolean;
  on: number;
  off: number;
  random: boolean;
}
export const RHYTHM_DEFAULTS: InternalRhythm = { enabled: false, on: 1, off: 1, random: false };

/** Whether bar `bar` sounds: on-bars then off-bars in turn, or a coin toss per bar when random. */
export function barSounds(cfg: InternalRhythm, bar: number, random: () => number = Math.random): boolean {
  if (!cfg.enabled) return true;
  if (cfg.random) return random() < METRONOME.randomChance;
  const cycle = cfg.on + cfg.off;
  return cycle === 0 || bar % cycle < cfg.on;
}

// ---- saved settings ----
export interface MetronomeSettings {
  id: number;
  name: string;
  fav: boolean;
  bpm: number;
  beats: number;
  note: number;
  subdiv: number;
  volume: number;
  accents: number[];
  soundSet: number;
  speed: SpeedTraining;
  rhythm: InternalRhythm;
  countIn: boolean;
}
export const START_UP: MetronomeSettings = {
  id: 1,
  name: 'Start Up',
  fav: false,
  bpm: 120,
  beats: 4,
  note: 4,
  subdiv: 0,
  volume: 45,
  accents: [3, 2, 2, 2],
  soundSet: 0,
  speed: SPEED_DEFAULTS,
  rhythm: RHYTHM_DEFAULTS,
  countIn: false,
};
/** Master volume 0–90 scaled to 0–1 for the audio graph. */
export const gainFor = (volume: number) => clamp('volume', volume) / 100;

// ---- the timeline the scheduler plays ----
export interface TimedClick {
  /** seconds on the audio clock */
  time: number;
  level: number;
  bar: number;
  beat: number;
  sub: number;
  bpm: number;
  countIn: boolean;
}
export interface TimelineOptions {
  bpm: number;
  accents: readonly number[];
  subdivision: readonly number[];
  /** speed training instead of a fixed bpm */
  speed?: SpeedTraining | null;
  rhythm?: InternalRhythm;
  countIn?: boolean;
  random?: () => number;
}

/**
 * Every click from `start` on, bar after bar, as absolute times. Each bar starts exactly where the
 * previous one ended (sums of exact durations, never accumulated timer ticks), so a click's time is
 * the ideal grid whatever the main thread does. Silent clicks (level 0, or an off bar) are skipped.
 * A count-in bar (all beats, first accented) comes before bar 0 and does not count for training.
 */
export function* clickTimeline(start: number, o: TimelineOptions): Generator<TimedClick> {
  let barStart = start;
  if (o.countIn) {
    const countAccents = o.accents.map((_, i) => (i === 0 ? 3 : 2));
    const bpm = o.speed ? o.speed.initialBpm : o.bpm;
    for (const c of barClicks(bpm, countAccents, []))
      yield { time: barStart + c.offset, level: c.level, bar: -1, beat: c.beat, sub: 0, bpm, countIn: true };
    barStart += barSeconds(bpm, o.accents.length);
  }
  for (let bar = 0; ; bar++) {
    const bpm = o.speed ? speedBpm(o.speed, bar) : o.bpm;
    if (barSounds(o.rhythm ?? RHYTHM_DEFAULTS, bar, o.random)) {
      for (const c of barClicks(bpm, o.accents, o.subdivision)) {
        if (c.level > 0)
          yield { time: barStart + c.offset, level: c.level, bar, beat: c.beat, sub: c.sub, bpm, countIn: false };
      }
    }
    barStart += barSeconds(bpm, o.accents.length);
  }
}

/** The sample frame a click should start on at a sample rate. */
export const onsetFrame = (time: number, sampleRate: number) => Math.round(time * sampleRate);

// ---- the saved-settings playlist (docs/product/metronome.md)

export const PLAYLIST = {
  nameMax: 60,
  maxEntries: 100,
  nameRequired: 'Please give these settings a name.',
  /** local storage key of a visitor's playlist (a member's lives on the server) */
  storageKey: 'bb.metronome.playlist',
} as const;

const int = (label: string, min: number, max: number) =>
  z
    .number({ error: `The ${label} must be a number.` })
    .int(`The ${label} must be a whole number.`)
    .min(min, `The ${label} must be at least ${min}.`)
    .max(max, `The ${label} may not be greater than ${max}.`);
const boundInt = (label: string, bound: Bound) => int(label, BOUNDS[bound][0], BOUNDS[bound][1]);

// each schema is built in a pure function: the /metronome page reads this module's rules, not the
// server's schemas, and so loads no zod (a public page's initial JavaScript keeps to its budget: scripts/initial-js.ts)

/** Everything a saved entry holds besides its id, name and favourite flag. */
export const savedSettingsSchema = /* @__PURE__ */ (() =>
  z
    .object({
      bpm: boundInt('bpm', 'bpm'),
      beats: boundInt('beats', 'beats'),
      note: z.union([z.literal(2), z.literal(4), z.literal(8)], { error: 'The note value must be 2, 4 or 8.' }),
      subdiv: int('subdivision', 0, SUBDIVISIONS.length - 1),
      volume: boundInt('volume', 'volume'),
      accents: z
        .array(int('accent', 0, METRONOME.accentLevels - 1))
        .min(1)
        .max(BOUNDS.beats[1]),
      soundSet: int('sound set', 0, METRONOME.soundSets - 1),
      speed: z.object({
        initialBpm: boundInt('initial bpm', 'initialBpm'),
        finalBpm: boundInt('final bpm', 'finalBpm'),
        step: boundInt('step', 'step'),
        barsPerStep: boundInt('bars per step', 'barsPerStep'),
      }),
      rhythm: z.object({
        enabled: z.boolean(),
        on: boundInt('on bars', 'rhythmOn'),
        off: boundInt('off bars', 'rhythmOff'),
        random: z.boolean(),
      }),
      countIn: z.boolean(),
    })
    .refine((s) => s.accents.length === s.beats, {
      message: 'There must be one accent per beat.',
      path: ['accents'],
    }))();
export type SavedSettings = z.infer<typeof savedSettingsSchema>;

const entryName = /* @__PURE__ */ (() =>
  z
    .string({ error: PLAYLIST.nameRequired })
    .overwrite(cleanDisplayText)
    .trim()
    .min(1, PLAYLIST.nameRequired)
    .max(PLAYLIST.nameMax, `The name may not be greater than ${PLAYLIST.nameMax} characters.`))();
export const playlistCreateSchema = /* @__PURE__ */ (() =>
  z.object({ name: entryName, fav: z.boolean().default(false), settings: savedSettingsSchema }))();
export const playlistUpdateSchema = /* @__PURE__ */ (() =>
  z
    .object({ name: entryName.optional(), fav: z.boolean().optional(), settings: savedSettingsSchema.optional() })
    .refine((b) => b.name !== undefined || b.fav !== undefined || b.settings !== undefined, 'Nothing to change.'))();

/** A saved entry as the API answers it; `id` is the server's (members) or a local number (visitors). */
export const playlistEntrySchema = /* @__PURE__ */ (() =>
  z.object({
    id: z.number(),
    name: z.string(),
    fav: z.boolean(),
    bpm: z.number(),
    beats: z.number(),
    note: z.number(),
    subdiv: z.number(),
    volume: z.number(),
    accents: z.array(z.number()),
    soundSet: z.number(),
    speed: z.object({ initialBpm: z.number(), finalBpm: z.number(), step: z.number(), barsPerStep: z.number() }),
    rhythm: z.object({ enabled: z.boolean(), on: z.number(), off: z.number(), random: z.boolean() }),
    countIn: z.boolean(),
  }))();
export type PlaylistEntry = z.infer<typeof playlistEntrySchema>;
/** GET /api/metronome_settings */
export const playlistResponseSchema = /* @__PURE__ */ (() => z.object({ data: z.array(playlistEntrySchema) }))();
/** POST /api/metronome_settings (201), PATCH /api/metronome_settings/:id */
export const playlistEntryResponseSchema = /* @__PURE__ */ (() => z.object({ data: playlistEntrySchema }))();
/** DELETE /api/metronome_settings/:id */
export const playlistDeletedSchema = /* @__PURE__ */ (() => z.object({ deleted: z.literal(true) }))();

/** Split a full settings object into the part a saved entry stores. */
export function settingsPart(s: MetronomeSettings): SavedSettings {
  const { id: _id, name: _name, fav: _fav, ...rest } = s;
  return { ...rest, note: rest.note as 2 | 4 | 8 };
}

import { z } from './zod.ts';
import { cleanDisplayText } from './display-text.ts';

/** Foot-speed diagnostic (docs/product/diagnostic.md). */
export const DIAGNOSTIC = {
  steps: 9,
  tempoThreshold: 130,
  scoreScale: 6,
  nameEmailRequired: 'Name and email are both required.',
  /** the last step's fields, left empty: each one's message under it */
  nameRequired: 'Please enter your first name.',
  emailRequired: 'Please enter your email address.',
  resultTitle: 'Your Diagnostic Result',
} as const;

export const SKILLS = ['Beginner', 'Intermediate', 'Advanced'] as const;
export type Skill = (typeof SKILLS)[number];
export const PEDALS = ['Single Pedal', 'Double Pedal'] as const;
export type Pedal = (typeof PEDALS)[number];
/** Tie order for the primary progress killer. */
export const AREAS = ['technique', 'control', 'coordination', 'independence'] as const;
export type Area = (typeof AREAS)[number];
export const AREA_LABELS: Record<Area, string> = {
  technique: 'Technique',
  control: 'Control',
  coordination: 'Coordination',
  independence: 'Limb Independence',
};
export type Scores = Record<Area, number>;

export interface Effect {
  skill?: Skill;
  pedal?: Pedal;
  add?: Partial<Scores>;
  backToBeginner?: boolean;
  bumpDownRank?: boolean;
  /** jump to this step (1-based) instead of the next */
  skipTo?: number;
}
export type Step =
  | { kind: 'choice'; title: string; options: Array<{ text: string; effect: Effect }> }
  | { kind: 'tempo'; title: string }
  | { kind: 'contact'; title: string };

export const DONT_KNOW_16THS = "I don't know what 16th notes are";
const PEDAL_STEP = 7;

export const DIAGNOSTIC_STEPS: Step[] = [
  {
    kind: 'choice',
    title: 'How would you describe your drumming today?',
    options: [
      { text: 'Beginner: I am learning my first grooves', effect: { skill: 'Beginner' } },
      { text: 'Intermediate: I play songs and simple fills', effect: { skill: 'Intermediate' } },
      { text: 'Advanced: I gig, record or teach', effect: { skill: 'Advanced' } },
    ],
  },
  {
    kind: 'choice',
    title: 'Can you play steady 16th notes on the bass drum?',
    options: [
      { text: 'Yes, for a whole song', effect: {} },
      { text: 'Only for a bar or two', effect: { bumpDownRank: true, add: { control: 1 } } },
      { text: DONT_KNOW_16THS, effect: { backToBeginner: true, skipTo: PEDAL_STEP } },
    ],
  },
  {
    kind: 'tempo',
    title: 'What is the fastest tempo (bpm) at which you can play 16th notes with one foot for 30 seconds?',
  },
  {
    kind: 'choice',
    title: 'When you push the tempo, what goes first?',
    options: [
      { text: 'My leg tightens up and burns', effect: { add: { technique: 2 } } },
      { text: 'The notes get uneven or flammed', effect: { add: { control: 2 } } },
      { text: 'My feet drift away from my hands', effect: { add: { coordination: 2 } } },
      { text: 'My hands stop doing their own thing', effect: { add: { independence: 2 } } },
    ],
  },
  {
    kind: 'choice',
    title: 'How do quiet notes with your feet feel?',
    options: [
      { text: 'Easy, I can play any volume', effect: {} },
      { text: 'Everything comes out loud', effect: { add: { control: 1, technique: 1 } } },
      { text: 'I never tried on purpose', effect: { add: { control: 1 } } },
    ],
  },
  {
    kind: 'choice',
    title: 'Playing a groove while your feet play a steady pattern, you...',
    options: [
      { text: 'Stay locked in', effect: {} },
      { text: 'Lose the pattern when the hands get busy', effect: { add: { independence: 2 } } },
      { text: 'Speed up or slow down together', effect: { add: { coordination: 1, independence: 1 } } },
    ],
  },
  {
    kind: 'choice',
    title: 'Which pedal setup do you play?',
    options: [
      { text: 'Single pedal', effect: { pedal: 'Single Pedal' } },
      { text: 'Double pedal', effect: { pedal: 'Double Pedal' } },
    ],
  },
  {
    kind: 'choice',
    title: 'How long can you keep fast feet going before they tire?',
    options: [
      { text: 'Several minutes', effect: {} },
      { text: 'About a minute', effect: { add: { technique: 1 } } },
      { text: 'Under 30 seconds', effect: { add: { technique: 2 }, bumpDownRank: true } },
    ],
  },
  { kind: 'contact', title: 'Where should we send your result?' },
];

export interface DiagnosticState {
  step: number;
  skill: Skill;
  pedal: Pedal;
  tempo: number | null;
  scores: Scores;
}
export const initialDiagnostic = (): DiagnosticState => ({
  step: 1,
  skill: 'Intermediate',
  pedal: 'Single Pedal',
  tempo: null,
  scores: { technique: 0, control: 0, coordination: 0, independence: 0 },
});

const bumpDown = (skill: Skill): Skill => (skill === 'Advanced' ? 'Intermediate' : 'Beginner');

/** One answered step: choice index, or the tempo text for the tempo step. Returns the next state. */
export function answerStep(state: DiagnosticState, answer: number | string): DiagnosticState {
  const step = DIAGNOSTIC_STEPS[state.step - 1];
  if (!step || step.kind === 'contact') return state;
  const next: DiagnosticState = { ...state, scores: { ...state.scores }, step: state.step + 1 };
  if (step.kind === 'tempo') {
    // on entering step 4: 130 or less adds to technique, above adds to control; not a number is ignored
    const text = String(answer).trim();
    const tempo = /^\d{1,4}$/.test(text) ? Number(text) : NaN;
    if (Number.isFinite(tempo) && tempo > 0) {
      next.tempo = tempo;
      if (tempo <= DIAGNOSTIC.tempoThreshold) next.scores.technique += 1;
      else next.scores.control += 1;
    }
    return next;
  }
  const option = step.options[Number(answer)];
  if (!option) return state;
  const e = option.effect;
  if (e.skill) next.skill = e.skill;
  if (e.pedal) next.pedal = e.pedal;
  for (const area of AREAS) next.scores[area] += e.add?.[area] ?? 0;
  if (e.backToBeginner) next.skill = 'Beginner';
  if (e.bumpDownRank) next.skill = bumpDown(next.skill);
  if (e.skipTo) next.step = e.skipTo;
  return next;
}

/** Replays a list of answers from the start (the server does this; it does not trust scores). */
export function replay(answers: Array<number | string>): DiagnosticState {
  let state = initialDiagnostic();
  for (const a of answers) {
    if (DIAGNOSTIC_STEPS[state.step - 1]?.kind === 'contact') break;
    state = answerStep(state, a);
  }
  return state;
}

/** The highest score; ties go to technique, control, coordination, then limb independence. */
export function primaryKiller(scores: Scores): Area {
  return AREAS.reduce((best, area) => (scores[area] > scores[best] ? area : best), AREAS[0]);
}

/** Bar width in percent: each score over 6. */
export const barPercent = (score: number) =>
  Math.round((Math.min(Math.max(score, 0), DIAGNOSTIC.scoreScale) / DIAGNOSTIC.scoreScale) * 100);

export const planKey = (skill: Skill, pedal: Pedal) => `${skill}|${pedal}`;
/** The six practice-plan links by skill level and pedal setup (configurable on the server). */
export const DEFAULT_PLAN_LINKS: Record<string, string> = Object.fromEntries(
  SKILLS.flatMap((s) =>
    PEDALS.map((p) => [
      planKey(s, p),
      `/courses/double-kick-basics?plan=${s.toLowerCase()}-${p.startsWith('Single') ? 'single' : 'double'}`,
    ]),
  ),
);

// built in a pure function: the /diagnostic page reads this module's steps, not the server's schema,
// and so loads no zod (a public page's initial JavaScript stays within its budget: scripts/initial-js.ts)
/** POST /placement/foot-speed/save (201): the server's scoring of the answers and the plan to follow */
export const footSpeedResultSchema = /* @__PURE__ */ (() =>
  z.object({
    skill: z.enum(SKILLS),
    pedal: z.enum(PEDALS),
    tempo: z.number().nullable(),
    scores: z.object({
      technique: z.number(),
      control: z.number(),
      coordination: z.number(),
      independence: z.number(),
    }),
    primary: z.enum(AREAS),
    primary_label: z.string(),
    link: z.string(),
  }))();
export type FootSpeedResult = z.infer<typeof footSpeedResultSchema>;

export const footSpeedSaveSchema = /* @__PURE__ */ (() =>
  z.object({
    name: z
      .string({ error: DIAGNOSTIC.nameEmailRequired })
      .overwrite(cleanDisplayText)
      .trim()
      .min(1, DIAGNOSTIC.nameEmailRequired)
      .max(100),
    email: z
      .string({ error: DIAGNOSTIC.nameEmailRequired })
      .trim()
      .min(1, DIAGNOSTIC.nameEmailRequired)
      .max(254)
      .pipe(z.email('The email must be a valid email address.')),
    /** the answers in order: option indexes, and the tempo text at the tempo step */
    answers: z
      .array(z.union([z.number().int().min(0).max(20), z.string().max(10)]))
      .min(1)
      .max(DIAGNOSTIC.steps),
  }))();

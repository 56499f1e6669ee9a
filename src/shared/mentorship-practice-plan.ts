import { z } from './zod.ts';
import { cleanDisplayText } from './display-text.ts';
import { idSchema } from './http.ts';

// The mentorship practice plan (docs/product/mentorship.md): its limits, wording, schemas and progress.

export const PRACTICE_PLAN_PHASES = ['phase1', 'phase2', 'phase3'] as const;
export type PracticePlanPhase = (typeof PRACTICE_PLAN_PHASES)[number];
/** Default day titles follow weekday names: the n-th day of a week is titled DAY_TITLES[n % 7]. */
export const DAY_TITLES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export const defaultDayTitle = (index: number) => DAY_TITLES[((index % 7) + 7) % 7]!;
export const PRACTICE_PLAN_AUTOSAVE_MS = 200;
export const PRACTICE_PLAN_LIMITS = {
  weeksPerPhase: 52,
  daysPerWeek: 7,
  exercisesPerDay: 30,
  title: 200,
  link: 2000,
  notes: 5000,
  digits: 4,
} as const;
export const PRACTICE_PLAN_COLUMNS = [
  'Exercise',
  'Goal',
  'Ending Tempo 1',
  'Ending Tempo 2',
  'Ending Tempo 3',
  'Ending Tempo 4',
  'Time Played w/o Mistakes',
] as const;
export const EMPTY_WEEK_MESSAGE =
  "There isn't anything here yet. Your mentor is building your Practice Plan right now.";

/** Fields a student's save may change; everything else belongs to the mentor (admin). */
export const STUDENT_EXERCISE_FIELDS = [
  'endingTempo1',
  'endingTempo2',
  'endingTempo3',
  'endingTempo4',
  'timeWithoutMistakes',
] as const;
export const STUDENT_DAY_FIELDS = ['complete'] as const;

export const PRACTICE_PLAN_MESSAGES = {
  conflict:
    'Another mentor changed this practice plan while you were editing. Your last change was not saved; the plan now shows their version.',
  studentConflict:
    'This practice plan was saved in another window while you were editing. Your last change was not saved; the plan now shows the saved version.',
  digitsOnly: 'Numbers only, up to 4 digits.',
  notFound: 'This practice plan does not exist.',
} as const;

/** a BPM or minutes field: digits only, '' when empty */
const digits = z
  .string()
  .max(PRACTICE_PLAN_LIMITS.digits, PRACTICE_PLAN_MESSAGES.digitsOnly)
  .regex(/^\d*$/, PRACTICE_PLAN_MESSAGES.digitsOnly);
/** ids are made by the client (crypto.randomUUID or similar) so both sides can merge by id */
const itemId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);
const httpLink = z
  .string()
  .max(PRACTICE_PLAN_LIMITS.link)
  .refine((v) => v === '' || /^https?:\/\//i.test(v), 'Links must start with http:// or https://');

export const exerciseSchema = z.object({
  id: itemId,
  title: z.string().overwrite(cleanDisplayText).max(PRACTICE_PLAN_LIMITS.title),
  link: httpLink,
  notes: z.string().max(PRACTICE_PLAN_LIMITS.notes),
  goal: digits,
  endingTempo1: digits,
  endingTempo2: digits,
  endingTempo3: digits,
  endingTempo4: digits,
  timeWithoutMistakes: digits,
});
export type Exercise = z.infer<typeof exerciseSchema>;

export const daySchema = z.object({
  id: itemId,
  title: z.string().overwrite(cleanDisplayText).max(PRACTICE_PLAN_LIMITS.title),
  complete: z.boolean(),
  exercises: z.array(exerciseSchema).max(PRACTICE_PLAN_LIMITS.exercisesPerDay),
});
export type PracticeDay = z.infer<typeof daySchema>;

/** a week is a list of days */
export const weekSchema = z.array(daySchema).max(PRACTICE_PLAN_LIMITS.daysPerWeek);
export type PracticeWeek = z.infer<typeof weekSchema>;

export const practicePlanPhasesSchema = z.object({
  phase1: z.array(weekSchema).max(PRACTICE_PLAN_LIMITS.weeksPerPhase),
  phase2: z.array(weekSchema).max(PRACTICE_PLAN_LIMITS.weeksPerPhase),
  phase3: z.array(weekSchema).max(PRACTICE_PLAN_LIMITS.weeksPerPhase),
});
export type PracticePlanPhases = z.infer<typeof practicePlanPhasesSchema>;

/** the `practice_plan` of POST /mentorship/practice-plan */
export const practicePlanSchema = practicePlanPhasesSchema.extend({ onlyShowLatest: z.boolean().optional() });
export type PracticePlan = z.infer<typeof practicePlanSchema>;

/** POST /mentorship/practice-plan: `id` is the plan's id; the versions are the ones the editor started from. */
export const savePracticePlanBodySchema = z.object({
  practice_plan: practicePlanSchema,
  id: idSchema,
  admin_version: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
  student_version: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
});

/** the plan as GET /mentorship/practice-plan and the save answer it */
export const practicePlanAnswerSchema = z.object({
  id: z.number(),
  student: z.object({ id: z.number(), name: z.string(), slug: z.string() }),
  practice_plan: practicePlanSchema,
  admin_version: z.number(),
  student_version: z.number(),
  updated_at: z.string(),
});
export type PracticePlanAnswer = z.infer<typeof practicePlanAnswerSchema>;
/** POST /mentorship/practice-plan: the plan as saved; `merged` when a stale save was merged into a newer one */
export const practicePlanSaveAnswerSchema = practicePlanAnswerSchema.extend({ merged: z.boolean() });
export type PracticePlanSaveAnswer = z.infer<typeof practicePlanSaveAnswerSchema>;
/** the 409 of a stale save: why, and the plan as it stands now (the editor loads it) */
export const practicePlanConflictSchema = z.object({ message: z.string(), current: practicePlanAnswerSchema });
export type PracticePlanConflict = z.infer<typeof practicePlanConflictSchema>;

/** a reusable day's exercise (title, link, notes, goal) */
export const reusableDayExerciseSchema = z.object({
  title: z.string().overwrite(cleanDisplayText).max(PRACTICE_PLAN_LIMITS.title),
  link: httpLink,
  notes: z.string().max(PRACTICE_PLAN_LIMITS.notes),
  goal: digits,
});
export type ReusableDayExercise = z.infer<typeof reusableDayExerciseSchema>;

/** GET /mentorship/practice-plan-days: the mentors' saved days, by title */
export const savedDaySummarySchema = z.object({ id: z.number(), title: z.string() });
export type SavedDaySummary = z.infer<typeof savedDaySummarySchema>;
export const savedDaysAnswerSchema = z.object({ days: z.array(savedDaySummarySchema) });
/** one saved day with its exercises (read, created, edited) */
export const savedDaySchema = savedDaySummarySchema.extend({ exercises: z.array(reusableDayExerciseSchema) });
export type SavedDay = z.infer<typeof savedDaySchema>;
export const savedDayDeletedSchema = z.object({ deleted: z.literal(true) });

export const reusableDayBodySchema = z.object({
  title: z.string().overwrite(cleanDisplayText).trim().min(1, 'Give the day a title.').max(PRACTICE_PLAN_LIMITS.title),
  exercises: z.array(reusableDayExerciseSchema).max(PRACTICE_PLAN_LIMITS.exercisesPerDay),
});

export const emptyPracticePlan = (): PracticePlan => ({ phase1: [], phase2: [], phase3: [], onlyShowLatest: false });

/** days complete / total over the three phases; the current week is the first with an incomplete day */
export const planProgressSchema = z.object({
  daysComplete: z.number(),
  daysTotal: z.number(),
  currentWeek: z
    .object({ phase: z.number(), week: z.number(), daysComplete: z.number(), daysTotal: z.number() })
    .nullable(),
});
export type PlanProgress = z.infer<typeof planProgressSchema>;

export function planProgress(phases: PracticePlanPhases | null | undefined): PlanProgress {
  let daysComplete = 0;
  let daysTotal = 0;
  let currentWeek: PlanProgress['currentWeek'] = null;
  PRACTICE_PLAN_PHASES.forEach((key, p) => {
    (phases?.[key] ?? []).forEach((week, w) => {
      const done = week.filter((d) => d.complete).length;
      daysComplete += done;
      daysTotal += week.length;
      if (!currentWeek && done < week.length)
        currentWeek = { phase: p + 1, week: w + 1, daysComplete: done, daysTotal: week.length };
    });
  });
  return { daysComplete, daysTotal, currentWeek };
}

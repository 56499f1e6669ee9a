import {
  defaultDayTitle,
  PRACTICE_PLAN_LIMITS,
  PRACTICE_PLAN_PHASES,
  type Exercise,
  type PracticeDay,
  type PracticePlan,
  type PracticePlanPhase,
  type PracticeWeek,
  type ReusableDayExercise,
} from '#shared/mentorship';

// Pure helpers of the practice plan editor: new ids, edits that return a new plan, and what the
// student is shown (phases with content, the current week, tempo progress).

/** an id for a new day or exercise: random, so both sides' saves merge by id */
export function newId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export const newExercise = (from: Partial<ReusableDayExercise> = {}): Exercise => ({
  id: newId(),
  title: from.title ?? '',
  link: from.link ?? '',
  notes: from.notes ?? '',
  goal: from.goal ?? '',
  endingTempo1: '',
  endingTempo2: '',
  endingTempo3: '',
  endingTempo4: '',
  timeWithoutMistakes: '',
});

/** a new day: the next weekday title, one empty exercise to fill in */
export const newDay = (
  index: number,
  exercises: Exercise[] = [newExercise()],
  title: string = defaultDayTitle(index),
): PracticeDay => ({ id: newId(), title, complete: false, exercises });

/** digits only, at most `max` of them (number fields accept digit keys only) */
export const onlyDigits = (text: string, max: number = PRACTICE_PLAN_LIMITS.digits) =>
  text.replace(/\D/g, '').slice(0, max);

/** where a day sits */
export interface DayAt {
  phase: PracticePlanPhase;
  week: number;
  day: number;
}

const mapWeeks = (
  plan: PracticePlan,
  phase: PracticePlanPhase,
  fn: (weeks: PracticeWeek[]) => PracticeWeek[],
): PracticePlan => ({ ...plan, [phase]: fn(plan[phase]) });
const mapDay = (plan: PracticePlan, at: DayAt, fn: (day: PracticeDay) => PracticeDay): PracticePlan =>
  mapWeeks(plan, at.phase, (weeks) =>
    weeks.map((w, wi) => (wi === at.week ? w.map((d, di) => (di === at.day ? fn(d) : d)) : w)),
  );

export const edit = {
  addWeek: (plan: PracticePlan, phase: PracticePlanPhase) =>
    mapWeeks(plan, phase, (weeks) =>
      weeks.length >= PRACTICE_PLAN_LIMITS.weeksPerPhase ? weeks : [...weeks, [newDay(0)]],
    ),
  removeWeek: (plan: PracticePlan, phase: PracticePlanPhase, week: number) =>
    mapWeeks(plan, phase, (weeks) => weeks.filter((_, i) => i !== week)),
  addDay: (plan: PracticePlan, phase: PracticePlanPhase, week: number, day?: PracticeDay) =>
    mapWeeks(plan, phase, (weeks) =>
      weeks.map((w, i) =>
        i === week && w.length < PRACTICE_PLAN_LIMITS.daysPerWeek ? [...w, day ?? newDay(w.length)] : w,
      ),
    ),
  removeDay: (plan: PracticePlan, at: DayAt) =>
    mapWeeks(plan, at.phase, (weeks) =>
      weeks.map((w, wi) => (wi === at.week ? w.filter((_, di) => di !== at.day) : w)),
    ),
  setDay: (plan: PracticePlan, at: DayAt, patch: Partial<Omit<PracticeDay, 'id' | 'exercises'>>) =>
    mapDay(plan, at, (d) => ({ ...d, ...patch })),
  addExercise: (plan: PracticePlan, at: DayAt) =>
    mapDay(plan, at, (d) =>
      d.exercises.length >= PRACTICE_PLAN_LIMITS.exercisesPerDay
        ? d
        : { ...d, exercises: [...d.exercises, newExercise()] },
    ),
  removeExercise: (plan: PracticePlan, at: DayAt, exerciseId: string) =>
    mapDay(plan, at, (d) => ({ ...d, exercises: d.exercises.filter((e) => e.id !== exerciseId) })),
  setExercise: (plan: PracticePlan, at: DayAt, exerciseId: string, patch: Partial<Omit<Exercise, 'id'>>) =>
    mapDay(plan, at, (d) => ({
      ...d,
      exercises: d.exercises.map((e) => (e.id === exerciseId ? { ...e, ...patch } : e)),
    })),
};

/** a saved (reusable) day as a new day of a plan: fresh ids, no student values */
export const dayFromSaved = (title: string, exercises: ReusableDayExercise[]): PracticeDay =>
  newDay(
    0,
    exercises.map((e) => newExercise(e)),
    title,
  );

// -- what the student sees ------------------------------------------------------------------

export const weekExerciseCount = (week: PracticeWeek) => week.reduce((n, d) => n + d.exercises.length, 0);
/** a phase has content when any of its days has an exercise */
export const phaseHasContent = (plan: PracticePlan, phase: PracticePlanPhase) =>
  plan[phase].some((w) => weekExerciseCount(w) > 0);
/** a week is done when it has days and every one is complete */
export const weekComplete = (week: PracticeWeek) => week.length > 0 && week.every((d) => d.complete);

/** onlyShowLatest: the first week (across phases, in order) that is not complete; null when all are */
export function firstIncompleteWeek(plan: PracticePlan): { phase: PracticePlanPhase; week: number } | null {
  for (const phase of PRACTICE_PLAN_PHASES) {
    const i = plan[phase].findIndex((w) => !weekComplete(w));
    if (i >= 0) return { phase, week: i };
  }
  return null;
}

/** the best of an exercise's ending tempos, or null when none is filled */
export function bestTempo(
  ex: Pick<Exercise, 'endingTempo1' | 'endingTempo2' | 'endingTempo3' | 'endingTempo4'>,
): number | null {
  const values = [ex.endingTempo1, ex.endingTempo2, ex.endingTempo3, ex.endingTempo4]
    .filter((v) => v !== '')
    .map(Number)
    .filter(Number.isFinite);
  return values.length ? Math.max(...values) : null;
}

export interface TempoSeries {
  title: string;
  /** one point per time the exercise appears in the plan, in plan order (null: no tempo logged) */
  points: { label: string; tempo: number | null }[];
  /** the latest goal set for it, if any */
  goal: number | null;
}

/** Tempo progress per exercise (same title, case and spacing ignored), for exercises with a logged tempo. */
export function tempoSeries(plan: PracticePlan): TempoSeries[] {
  const byTitle = new Map<string, TempoSeries>();
  PRACTICE_PLAN_PHASES.forEach((phase, pi) => {
    plan[phase].forEach((week, wi) => {
      for (const day of week) {
        for (const ex of day.exercises) {
          const key = ex.title.trim().toLowerCase().replace(/\s+/g, ' ');
          if (!key) continue;
          let series = byTitle.get(key);
          if (!series) byTitle.set(key, (series = { title: ex.title.trim(), points: [], goal: null }));
          series.points.push({ label: `Phase ${pi + 1}, Week ${wi + 1}, ${day.title || 'Day'}`, tempo: bestTempo(ex) });
          if (ex.goal !== '') series.goal = Number(ex.goal);
        }
      }
    });
  });
  return [...byTitle.values()].filter((s) => s.points.some((p) => p.tempo !== null));
}

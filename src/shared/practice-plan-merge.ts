import {
  PRACTICE_PLAN_PHASES,
  STUDENT_EXERCISE_FIELDS,
  type Exercise,
  type PracticeDay,
  type PracticePlan,
} from './mentorship.ts';

// Merge rules of the practice plan, shared by the server's save and the editors' live
// updates. Two people edit one plan: the mentor (admin) owns the structure and every field; the
// student owns only `complete` of days and the STUDENT_EXERCISE_FIELDS of exercises. Days and
// exercises carry ids, so the two sides' fields are matched by id, never by position.

export type StudentExerciseField = (typeof STUDENT_EXERCISE_FIELDS)[number];
type StudentExerciseValues = Pick<Exercise, StudentExerciseField>;

/** Every day and every exercise of a plan, by id (the first one wins if an id repeats). */
export function indexPlan(plan: PracticePlan): { days: Map<string, PracticeDay>; exercises: Map<string, Exercise> } {
  const days = new Map<string, PracticeDay>();
  const exercises = new Map<string, Exercise>();
  for (const phase of PRACTICE_PLAN_PHASES) {
    for (const week of plan[phase]) {
      for (const day of week) {
        if (!days.has(day.id)) days.set(day.id, day);
        for (const ex of day.exercises) if (!exercises.has(ex.id)) exercises.set(ex.id, ex);
      }
    }
  }
  return { days, exercises };
}

/** the ids used more than once in a plan (days and exercises share one id space) */
export function duplicateIds(plan: PracticePlan): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const phase of PRACTICE_PLAN_PHASES) {
    for (const week of plan[phase]) {
      for (const day of week) {
        for (const id of [day.id, ...day.exercises.map((e) => e.id)]) {
          if (seen.has(id)) dup.add(id);
          seen.add(id);
        }
      }
    }
  }
  return [...dup];
}

const studentValues = (ex: Exercise): StudentExerciseValues => {
  const out = {} as StudentExerciseValues;
  for (const f of STUDENT_EXERCISE_FIELDS) out[f] = ex[f];
  return out;
};

/** `plan` with its student fields replaced, where `pick` gives a value, by id. */
function mapStudentFields(
  plan: PracticePlan,
  pickDay: (day: PracticeDay) => boolean | undefined,
  pickExercise: (ex: Exercise) => Partial<StudentExerciseValues> | undefined,
): PracticePlan {
  const out: PracticePlan = { ...plan };
  for (const phase of PRACTICE_PLAN_PHASES) {
    out[phase] = plan[phase].map((week) =>
      week.map((day) => {
        const complete = pickDay(day);
        return {
          ...day,
          complete: complete ?? day.complete,
          exercises: day.exercises.map((ex) => ({ ...ex, ...pickExercise(ex) })),
        };
      }),
    );
  }
  return out;
}

/**
 * A student's save: the stored plan, with only the student's fields taken from `incoming`, matched
 * by id. Structure, titles, links, notes, goals and onlyShowLatest stay as stored; unknown ids are
 * ignored.
 */
export function applyStudentSave(stored: PracticePlan, incoming: PracticePlan): PracticePlan {
  const theirs = indexPlan(incoming);
  return mapStudentFields(
    stored,
    (day) => theirs.days.get(day.id)?.complete,
    (ex) => {
      const match = theirs.exercises.get(ex.id);
      return match ? studentValues(match) : undefined;
    },
  );
}

/**
 * A mentor's save that started before the student's latest save: the mentor's plan as sent, but for
 * every day and exercise that exists in the stored plan the STORED student fields (the student's
 * newer values win). New days and exercises keep what the mentor typed.
 */
export function keepStoredStudentFields(adminPlan: PracticePlan, stored: PracticePlan): PracticePlan {
  const mine = indexPlan(stored);
  return mapStudentFields(
    adminPlan,
    (day) => mine.days.get(day.id)?.complete,
    (ex) => {
      const match = mine.exercises.get(ex.id);
      return match ? studentValues(match) : undefined;
    },
  );
}

/**
 * The editor's merge when the other side saved (or a save answered): `local` is what this editor
 * shows (maybe with unsaved edits), `base` the server's plan the editor last knew, `remote` the
 * server's plan now. Nothing this editor changed since `base` is lost:
 * - a student editor takes the remote structure and mentor fields (students never change those)
 *   and, per student field, keeps its own value where it differs from base, else the remote one;
 * - a mentor editor keeps its own structure and mentor fields, and per student field of an id the
 *   remote plan has, keeps its own value where it differs from base, else takes the remote one.
 * (A mentor editor that hears another mentor's save reloads instead: see the editor hook.)
 */
export function mergeTheirs(
  local: PracticePlan,
  base: PracticePlan,
  remote: PracticePlan,
  me: 'admin' | 'student',
): PracticePlan {
  const l = indexPlan(local);
  const b = indexPlan(base);
  const r = indexPlan(remote);
  const changedDay = (id: string) => {
    const mine = l.days.get(id);
    if (!mine) return false;
    const was = b.days.get(id);
    return !was || was.complete !== mine.complete;
  };
  const changedField = (id: string, f: StudentExerciseField) => {
    const mine = l.exercises.get(id);
    if (!mine) return false;
    const was = b.exercises.get(id);
    return !was || was[f] !== mine[f];
  };
  const pickExercise = (ex: Exercise, source: 'local' | 'remote') => {
    const other = source === 'local' ? l.exercises.get(ex.id) : r.exercises.get(ex.id);
    if (!other) return undefined;
    const out: Partial<StudentExerciseValues> = {};
    for (const f of STUDENT_EXERCISE_FIELDS) {
      const localWins = changedField(ex.id, f);
      if (source === 'local' ? localWins : !localWins) out[f] = other[f];
    }
    return out;
  };
  if (me === 'student') {
    return mapStudentFields(
      remote,
      (day) => (changedDay(day.id) ? l.days.get(day.id)!.complete : undefined),
      (ex) => pickExercise(ex, 'local'),
    );
  }
  return mapStudentFields(
    local,
    (day) => (changedDay(day.id) ? undefined : r.days.get(day.id)?.complete),
    (ex) => pickExercise(ex, 'remote'),
  );
}

/** true when the two plans are the same (structure and every field) */
export const samePlan = (a: PracticePlan, b: PracticePlan) =>
  JSON.stringify(normalise(a)) === JSON.stringify(normalise(b));
const normalise = (p: PracticePlan) => ({
  phase1: p.phase1,
  phase2: p.phase2,
  phase3: p.phase3,
  onlyShowLatest: p.onlyShowLatest ?? false,
});

import type { Tx } from '#server/db/client';
import { practicePlanDays, practicePlans } from '#server/db/schema/index';
import { defaultDayTitle, type Exercise, type PracticeDay, type ReusableDayExercise } from '#shared/mentorship';
import type { DemoPeople } from './community.ts';

const yt = (q: string) => `https://www.youtube.com/results?search_query=${encodeURIComponent(q)}`;

const SINGLES: ReusableDayExercise = {
  title: 'Single strokes (8th notes)',
  link: yt('single stroke roll 8th notes'),
  notes: 'Relaxed wrists, sticks rebound to the same height.',
  goal: '120',
};
const DOUBLES: ReusableDayExercise = {
  title: 'Double strokes',
  link: yt('double stroke roll drum lesson'),
  notes: 'Second stroke as loud as the first.',
  goal: '100',
};
const PARADIDDLE: ReusableDayExercise = {
  title: 'Paradiddles',
  link: yt('paradiddle drum lesson'),
  notes: 'Accent the first note of each group.',
  goal: '110',
};
const ROCK_BEAT: ReusableDayExercise = {
  title: 'Rock beat with 8th-note hats',
  link: yt('basic rock beat drum lesson'),
  notes: 'Play along with the click for two minutes without stopping.',
  goal: '100',
};
const KICK_VARIATIONS: ReusableDayExercise = {
  title: 'Kick variations',
  link: yt('bass drum variations rock beat'),
  notes: 'Four variations, eight bars each.',
  goal: '90',
};
const FILLS: ReusableDayExercise = {
  title: 'One-bar fill and back',
  link: yt('one bar drum fill lesson'),
  notes: 'Land on the crash on beat one.',
  goal: '90',
};

let seq = 0;
const id = (prefix: string) => `demo-${prefix}-${++seq}`;
const exercise = (e: ReusableDayExercise, tempos: [string?, string?, string?, string?] = [], time = ''): Exercise => ({
  id: id('ex'),
  ...e,
  endingTempo1: tempos[0] ?? '',
  endingTempo2: tempos[1] ?? '',
  endingTempo3: tempos[2] ?? '',
  endingTempo4: tempos[3] ?? '',
  timeWithoutMistakes: time,
});
const day = (n: number, exercises: Exercise[], complete = false): PracticeDay => ({
  id: id('day'),
  title: defaultDayTitle(n),
  complete,
  exercises,
});

/** The demo student's practice plan (phase 1: two weeks, some tempos, a completed day) and three reusable days. */
export async function seedPracticePlan(tx: Tx, { admin, student }: DemoPeople) {
  const week1 = [
    day(0, [exercise(SINGLES, ['92', '96', '100', '104'], '6'), exercise(ROCK_BEAT, ['80', '84', '88'], '4')], true),
    day(1, [exercise(DOUBLES, ['76', '80'], '3'), exercise(KICK_VARIATIONS, ['70'])]),
    day(3, [exercise(SINGLES, ['100', '104'], '5'), exercise(FILLS)]),
    day(5, [exercise(PARADIDDLE), exercise(ROCK_BEAT)]),
  ];
  const week2 = [
    day(0, [exercise(SINGLES), exercise(PARADIDDLE)]),
    day(2, [exercise(DOUBLES), exercise(FILLS)]),
    day(4, [exercise(SINGLES), exercise(KICK_VARIATIONS), exercise(ROCK_BEAT)]),
  ];
  await tx.insert(practicePlans).values({
    studentId: student.id,
    phases: { phase1: [week1, week2], phase2: [], phase3: [] },
    adminVersion: 1,
    studentVersion: 1,
    updatedBy: admin.id,
  });
  await tx.insert(practicePlanDays).values([
    { title: 'Hands: rudiments day', exercises: [SINGLES, DOUBLES, PARADIDDLE], createdBy: admin.id },
    { title: 'Grooves day', exercises: [ROCK_BEAT, KICK_VARIATIONS], createdBy: admin.id },
    { title: 'Fills day', exercises: [FILLS, SINGLES], createdBy: admin.id },
  ]);
}

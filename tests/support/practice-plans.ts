import type { Exercise, PracticeDay, PracticePlan } from '#shared/mentorship';
import { uniq } from './ids.ts';

/**
 * A practice plan's parts with everything filled, for the API tests and the browser specs alike: this
 * module imports nothing of the server's.
 */
export const exercise = (over: Partial<Exercise> = {}): Exercise => ({
  id: uniq('ex'),
  title: 'Single strokes',
  link: 'https://example.com/singles',
  notes: 'Relaxed wrists',
  goal: '120',
  endingTempo1: '',
  endingTempo2: '',
  endingTempo3: '',
  endingTempo4: '',
  timeWithoutMistakes: '',
  ...over,
});
export const practiceDay = (over: Partial<PracticeDay> = {}): PracticeDay => ({
  id: uniq('day'),
  title: 'Monday',
  complete: false,
  exercises: [exercise()],
  ...over,
});
export const practicePlan = (over: Partial<PracticePlan> = {}): PracticePlan => ({
  phase1: [[practiceDay(), practiceDay({ title: 'Tuesday' })]],
  phase2: [],
  phase3: [],
  onlyShowLatest: false,
  ...over,
});

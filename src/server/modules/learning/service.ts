import type { Database } from '#server/db/client';
import { createCourses } from './courses.ts';
import { createLessons } from './lessons.ts';
import { createProfile } from './profile.ts';
import { createStages } from './stages.ts';

/** The academy: courses, lessons (bookmarks, completions, paths, quizzes), stages and the member's own status and timezone. */
export function createLearningService(deps: { db: Database }) {
  return {
    ...createCourses(deps),
    ...createLessons(deps),
    ...createProfile(deps),
    ...createStages(deps),
  };
}
export type LearningService = ReturnType<typeof createLearningService>;

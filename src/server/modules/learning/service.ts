import type { Database } from '#server/db/client';
import { createCourses } from './courses.ts';
import { createLessons } from './lessons.ts';
import { createStages } from './stages.ts';

/** The academy: courses, lessons (bookmarks, completions, paths, quizzes) and stages. */
export function createLearningService(deps: { db: Database }) {
  return {
    ...createCourses(deps),
    ...createLessons(deps),
    ...createStages(deps),
  };
}
export type LearningService = ReturnType<typeof createLearningService>;

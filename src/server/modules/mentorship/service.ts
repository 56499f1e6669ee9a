import { createAccountability } from './accountability.ts';
import { createMentorshipLessons } from './lessons.ts';
import { createMentorViews } from './mentors.ts';
import { createOverview } from './overview.ts';
import { createStudentFacts, type MentorshipDeps } from './student-facts.ts';

/**
 * The mentorship area (docs/product/mentorship.md): the dashboard overview, mentorship lessons, accountability links
 * and the mentors' student views. Who may call what is checked by the routes (guards); this service
 * checks what the data says (a mentorship lesson, a mentorship student, an admin as mentor).
 */
export function createMentorshipService(deps: MentorshipDeps) {
  const facts = createStudentFacts(deps);
  return {
    ...createOverview(deps, facts),
    ...createMentorshipLessons(deps),
    ...createAccountability(deps, facts),
    ...createMentorViews(deps, facts),
  };
}
export type MentorshipService = ReturnType<typeof createMentorshipService>;

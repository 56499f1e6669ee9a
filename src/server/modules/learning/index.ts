/** The learning module's front door: what other modules and the app may use of it. */
export { PLACEMENT_QUESTIONS_SCHEMA, placementQuestions } from './placement.ts';
export { learningRoutes } from './routes.ts';
export { canWatch } from './access.ts';
export { createLearningService } from './service.ts';
export { stepHash } from './stages.ts';

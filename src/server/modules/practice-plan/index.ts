/** The practice-plan module's front door: what other modules and the app may use of it. */
export { practicePlanRoutes } from './routes.ts';
export { createPracticePlanService } from './service.ts';

/** The mentorship module's front door: what other modules and the app may use of it. */
export { mentorshipRoutes } from './routes.ts';
export { createMentorshipService } from './service.ts';

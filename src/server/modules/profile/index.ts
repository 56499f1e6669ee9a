/** The profile module's front door: what other modules and the app may use of it. */
export { profileRoutes } from './routes.ts';
export { createProfileService } from './service.ts';

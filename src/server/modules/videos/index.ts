/** The videos module's front door: what other modules and the app may use of it. */
export { videoRoutes } from './routes.ts';
export { createVideoService } from './service.ts';

/** The posts module's front door: what other modules and the app may use of it. */
export { postRoutes } from './routes.ts';
export { createPostService } from './service.ts';

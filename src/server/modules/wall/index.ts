/** The wall module's front door: what other modules and the app may use of it. */
export { wallRoutes } from './routes.ts';
export { createWallService } from './service.ts';

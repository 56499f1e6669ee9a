/** The songmapper module's front door: what other modules and the app may use of it. */
export { songmapperRoutes } from './routes.ts';
export { createSongService } from './service.ts';

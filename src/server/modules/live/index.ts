/** The live module's front door: what other modules and the app may use of it. */
export { liveRoutes } from './routes.ts';
export { createLiveService, type LiveService, videoEmbed } from './service.ts';

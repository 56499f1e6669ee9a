/** The forums module's front door: what other modules and the app may use of it. */
export { forumRoutes } from './routes.ts';
export { createForumService } from './service.ts';

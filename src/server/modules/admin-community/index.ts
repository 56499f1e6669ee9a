/** The admin-community module's front door: what other modules and the app may use of it. */
export { adminCommunityRoutes } from './routes.ts';
export { createAdminCommunityService } from './service.ts';

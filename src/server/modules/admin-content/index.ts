/** The admin-content module's front door: what other modules and the app may use of it. */
export { adminContentRoutes } from './routes.ts';
export { createAdminContentService } from './service.ts';

/** The admin-members module's front door: what other modules and the app may use of it. */
export { adminMembersRoutes } from './routes.ts';
export { leadsPage, reviewsPage } from './leads-reviews.ts';
export { createAdminMembersService } from './service.ts';

/** The reports module's front door: what other modules and the app may use of it. */
export { reportRoutes } from './routes.ts';
export { createReportService, postLink } from './service.ts';

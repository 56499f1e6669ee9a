/** The diagnostic module's front door: what other modules and the app may use of it. */
export { diagnosticRoutes } from './routes.ts';
export { PLAN_LINKS_SCHEMA, planLinks } from './service.ts';

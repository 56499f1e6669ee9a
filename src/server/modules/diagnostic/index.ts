/** The diagnostic module's front door: what other modules and the app may use of it. */
export { diagnosticRoutes, PLAN_LINKS_SCHEMA, planLinks } from './routes.ts';

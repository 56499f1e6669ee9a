/** The contact module's front door: what other modules and the app may use of it. */
export { contactRoutes } from './routes.ts';

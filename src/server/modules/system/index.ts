/** The system module's front door: what other modules and the app may use of it. */
export { systemRoutes } from './routes.ts';

/** The metronome module's front door: what other modules and the app may use of it. */
export { metronomeRoutes } from './routes.ts';
export { createMetronomeService } from './service.ts';

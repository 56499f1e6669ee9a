/** The journal module's front door: what other modules and the app may use of it. */
export { journalRoutes } from './routes.ts';
export { createJournalService, type JournalService } from './service.ts';

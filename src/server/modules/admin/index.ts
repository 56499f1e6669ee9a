/** The admin module's front door: what other modules and the app may use of it. */
export { type Actor, type AuditInput, createAuditService, recordAudit } from './audit.ts';
export { containing, countAll, pageEnvelope, pageOf, pageOfSelect, sortOf } from './list.ts';
export { adminRoutes } from './routes.ts';
export { createSettingsService, type SettingsService } from './settings.ts';
export { guardSlug } from './unique.ts';

/** The mail module's front door: sending mail (docs/mail.md), its routes, and what other modules word a mail with. */
export * from './service.ts';
export { mailRoutes } from './routes.ts';
export { mailExcerpt, mentionedSlugs } from './excerpt.ts';
export { createPreferences } from './preferences.ts';

// The community pages of the admin console, loaded together on first visit (see ../lazy.ts).
export { ModerationPage } from './moderation.tsx';
export { ReportsPage } from './reports.tsx';
export { CategoriesPage } from './categories.tsx';
export { LiveShowsPage } from './live.tsx';

import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lazy-routes.tsx';

// one loader per module: the built page keeps one copy of each module's preload list
const pagesModule = () => import('./pages.tsx');

const pages = pagesModule;

/** Admin console pages: community. Each page is loaded on first visit (see ../../lazy-routes.tsx). */
export const communityRoutes: RouteObject[] = [
  { path: '/admin/moderation', lazy: lazyPage(pages, 'ModerationPage') },
  { path: '/admin/reports', lazy: lazyPage(pages, 'ReportsPage') },
  { path: '/admin/categories', lazy: lazyPage(pages, 'CategoriesPage') },
  { path: '/admin/live', lazy: lazyPage(pages, 'LiveShowsPage') },
];

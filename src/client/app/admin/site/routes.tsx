import type { RouteObject } from 'react-router';
import { lazyPage } from '../lazy.ts';

/** Admin console pages about the site itself. Each page is loaded on first visit (see ../lazy.ts). */
export const siteRoutes: RouteObject[] = [
  { path: '/admin/mail', lazy: lazyPage(() => import('./mail.tsx'), 'AdminMailPage') },
  { path: '/admin/jobs', lazy: lazyPage(() => import('./jobs.tsx'), 'AdminJobsPage') },
];

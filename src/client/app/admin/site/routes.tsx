import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lazy-routes.tsx';

// one loader per module: the built page keeps one copy of each module's preload list
const mailModule = () => import('./mail.tsx');
const jobsModule = () => import('./jobs.tsx');

/** Admin console pages about the site itself. Each page is loaded on first visit (see ../../lazy-routes.tsx). */
export const siteRoutes: RouteObject[] = [
  { path: '/admin/mail', lazy: lazyPage(mailModule, 'AdminMailPage') },
  { path: '/admin/jobs', lazy: lazyPage(jobsModule, 'AdminJobsPage') },
];

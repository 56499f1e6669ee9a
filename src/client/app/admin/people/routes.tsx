import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lazy-routes.tsx';

// one loader per module: the built page keeps one copy of each module's preload list
const pagesModule = () => import('./pages.tsx');

const pages = pagesModule;

/** Admin console pages: people. Each page is loaded on first visit (see ../../lazy-routes.tsx). */
export const peopleRoutes: RouteObject[] = [
  { path: '/admin/members', lazy: lazyPage(pages, 'MembersPage') },
  { path: '/admin/members/:id', lazy: lazyPage(pages, 'MemberPage') },
  { path: '/admin/mentors', lazy: lazyPage(pages, 'MentorsPage') },
  { path: '/admin/leads', lazy: lazyPage(pages, 'LeadsPage') },
  { path: '/admin/reviews', lazy: lazyPage(pages, 'ReviewsPage') },
  { path: '/admin/accessibility-reports', lazy: lazyPage(pages, 'BarrierReportsPage') },
  { path: '/admin/audit-log', lazy: lazyPage(pages, 'AuditLogPage') },
];

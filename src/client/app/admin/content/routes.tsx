import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lazy-routes.tsx';

// one loader per module: the built page keeps one copy of each module's preload list
const pagesModule = () => import('./pages.tsx');

const load = pagesModule;

/** Admin console pages: content. Each page is loaded on first visit (see ../../lazy-routes.tsx). */
export const contentRoutes: RouteObject[] = [
  { path: '/admin/courses', lazy: lazyPage(load, 'AdminCoursesPage') },
  { path: '/admin/courses/:id', lazy: lazyPage(load, 'AdminCourseEditPage') },
  { path: '/admin/lessons/:id', lazy: lazyPage(load, 'AdminLessonEditPage') },
  { path: '/admin/stages', lazy: lazyPage(load, 'AdminStagesPage') },
  { path: '/admin/stages/:id', lazy: lazyPage(load, 'AdminStageEditPage') },
  { path: '/admin/achievements', lazy: lazyPage(load, 'AdminAchievementsPage') },
  { path: '/admin/achievements/:id', lazy: lazyPage(load, 'AdminAchievementEditPage') },
  { path: '/admin/placement', lazy: lazyPage(load, 'AdminPlacementPage') },
  { path: '/admin/foot-speed', lazy: lazyPage(load, 'AdminFootSpeedPage') },
];

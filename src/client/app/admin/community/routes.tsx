import type { RouteObject } from 'react-router';
import { lazyPage } from '../lazy.ts';

/** Admin console pages: community (issue 10). Each page is loaded on first visit (see ../lazy.ts). */
export const communityRoutes: RouteObject[] = [{ path: '/admin/reports', lazy: lazyPage(() => import('../../pages/admin.tsx'), 'AdminReportsPage') }];

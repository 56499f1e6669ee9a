import type { RouteObject } from 'react-router';
import { lazyPage } from '../lazy.ts';

/** Admin console pages: commerce (issue 10). Each page is loaded on first visit (see ../lazy.ts). */
export const commerceRoutes: RouteObject[] = [{ path: '/admin/cancellations', lazy: lazyPage(() => import('../../pages/billing.tsx'), 'AdminCancellationsPage') }];

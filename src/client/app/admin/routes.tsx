import type { RouteObject } from 'react-router';
import { lazyPage } from '../lazy-routes.tsx';
import { contentRoutes } from './content/routes.tsx';
import { communityRoutes } from './community/routes.tsx';
import { commerceRoutes } from './commerce/routes.tsx';
import { peopleRoutes } from './people/routes.tsx';
import { siteRoutes } from './site/routes.tsx';

/**
 * The admin console's pages (docs/admin.md), in its own frame (src/client/app/router.tsx's `routeArea`):
 * admins only (src/shared/pages.ts; the server checks calls). This table and each page are loaded on
 * first visit, so members never download the console.
 */
export const routes: RouteObject[] = [
  { path: '/admin', lazy: lazyPage(() => import('./overview.tsx'), 'AdminOverviewPage') },
  ...contentRoutes,
  ...communityRoutes,
  ...commerceRoutes,
  ...peopleRoutes,
  ...siteRoutes,
];

import type { RouteObject } from 'react-router';
import { AppLayout } from '../layout/app-layout.tsx';
import { lazyPage } from './lazy.ts';
import { contentRoutes } from './content/routes.tsx';
import { communityRoutes } from './community/routes.tsx';
import { commerceRoutes } from './commerce/routes.tsx';
import { peopleRoutes } from './people/routes.tsx';
import { siteRoutes } from './site/routes.tsx';

/** The admin console (docs/product/admin-console.md): admins only (src/shared/pages.ts; the server checks calls). */
export const adminRoute: RouteObject = {
  element: <AppLayout admin />,
  children: [
    { path: '/admin', lazy: lazyPage(() => import('./overview.tsx'), 'AdminOverviewPage') },
    ...contentRoutes,
    ...communityRoutes,
    ...commerceRoutes,
    ...peopleRoutes,
    ...siteRoutes,
  ],
};

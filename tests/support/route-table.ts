import type { RouteObject } from 'react-router';
import { routes } from '#client/app/router.tsx';
import { routes as adminRoutes } from '#client/app/admin/routes.tsx';
import { routes as mentorshipRoutes } from '#client/app/mentorship/routes.tsx';

/** Each area's table (router.tsx's `routeArea`), by the address its route covers. */
const AREAS: Record<string, RouteObject[]> = { '/admin/*': adminRoutes, '/mentorship/*': mentorshipRoutes };

const withAreas = (table: RouteObject[]): RouteObject[] =>
  table.flatMap((route) => {
    const area = route.path ? AREAS[route.path] : undefined;
    if (area) return area;
    return route.children ? [{ ...route, children: withAreas(route.children) }] : [route];
  });

/**
 * Every page of the client router with its full address: the academy's table
 * (src/client/app/router.tsx) with each area's own table (the admin console, the mentorship area) in place
 * of the route that loads it, as React Router would match them if the app loaded them all at once.
 */
export const ALL_ROUTES: RouteObject[] = withAreas(routes);

import type { RouteObject } from 'react-router';

/** Admin console pages: people (issue 10). Each page is loaded on first visit (see ../lazy.ts). */
export const peopleRoutes: RouteObject[] = [];

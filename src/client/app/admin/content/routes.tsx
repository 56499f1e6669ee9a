import type { RouteObject } from 'react-router';

/** Admin console pages: content (issue 10). Each page is loaded on first visit (see ../lazy.ts). */
export const contentRoutes: RouteObject[] = [];

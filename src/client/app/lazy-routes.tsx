import { Suspense, type ComponentType } from 'react';
import { matchRoutes, useRoutes, type RouteMatch, type RouteObject } from 'react-router';
import { preloadableLazy } from '#client/lib/preloadable-lazy.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { NotFoundPage } from './pages/error.tsx';

/** What a page shows while its code loads (the page frame stays: no blank page). */
export const PAGE_LOADING = (
  <div className="grid min-h-[40vh] place-items-center">
    <Spinner label="Loading page" className="[&_svg]:size-8" />
  </div>
);

export type LazyRoute = (() => Promise<{ Component?: ComponentType | null }>) & { plain?: boolean };

/**
 * A route's page loaded on first visit, from its own chunk.
 * `{ path: '/admin/x', lazy: lazyPage(() => import('./x/pages.tsx'), 'XPage') }`
 */
export const lazyPage =
  <M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string): LazyRoute =>
  async () => ({ Component: (await load())[name] as ComponentType });

/** A page that uses no server data (TanStack Query): its visit does not load the query library. */
export const plainPage: typeof lazyPage = (load, name) => Object.assign(lazyPage(load, name), { plain: true });

/** How a route's code is fetched before it renders: `preloadPage` (router.tsx) calls it for each matched route. */
export interface PageHandle {
  preload: (pathname: string) => Promise<unknown>;
}

/** Loads the code of each matched route; resolves when each has loaded or failed. */
export async function preloadMatches(matches: RouteMatch[], pathname: string): Promise<void> {
  await Promise.allSettled(matches.map((m) => (m.route.handle as PageHandle | undefined)?.preload(pathname)));
}

/**
 * The routes as plain elements: a `lazy` page (`lazyPage(...)`) becomes a React.lazy component in a
 * Suspense boundary with the Spinner, inside the shared query cache unless it is a `plainPage`. The
 * declarative router (BrowserRouter + useRoutes) is some 16 KB gzip lighter than the data router, and no
 * page uses loaders or actions.
 */
export const withLoading = (routes: RouteObject[]): RouteObject[] =>
  routes.map((route) => {
    const { lazy: load, children, ...rest } = route;
    const out = { ...rest } as RouteObject;
    if (children) out.children = withLoading(children);
    if (typeof load === 'function') {
      const loader = load as LazyRoute;
      const Page = preloadableLazy(async () => {
        const [page, query] = await Promise.all([loader(), loader.plain ? null : import('./query.tsx')]);
        const Component: ComponentType = page.Component ?? (() => null);
        return { default: query ? query.withQuery(Component) : Component };
      });
      out.handle = { preload: Page.preload } satisfies PageHandle;
      out.element = (
        <Suspense fallback={PAGE_LOADING}>
          <Page />
        </Suspense>
      );
    }
    return out;
  });

/**
 * A route table written with full addresses (`/admin/orders`) as the table of a route `prefix/*` sees it:
 * `prefix` itself is its index, `prefix/x` is `x`.
 */
export function underPrefix(prefix: string, routes: RouteObject[]): RouteObject[] {
  return routes.map((route) => {
    const { path, children } = route;
    if (children)
      throw new Error(`An area's route (${path ?? 'a layout'}) has children: give each page its own route.`);
    if (path === prefix) return { ...route, path: undefined, index: true } as RouteObject;
    if (!path?.startsWith(`${prefix}/`)) throw new Error(`The route ${path ?? '(no path)'} is not under ${prefix}.`);
    return { ...route, path: path.slice(prefix.length + 1) };
  });
}

/**
 * An area of the app (the admin console, the mentorship area) whose route table is a chunk of its own,
 * loaded with the first of its pages: a visit elsewhere, and above all a first visit to a public page,
 * does not download the area's addresses (a public page's initial JavaScript: scripts/initial-js.ts).
 * `load` gives the table written with full addresses under `prefix`; an address under `prefix` that
 * names none of its pages shows the not-found page in the area's frame. Preloading an address loads the
 * table, then that page's code.
 */
export function routeArea(prefix: string, load: () => Promise<{ routes: RouteObject[] }>): RouteObject {
  let table: RouteObject[] = [];
  const Area = preloadableLazy(async () => {
    table = [...withLoading(underPrefix(prefix, (await load()).routes)), { path: '*', element: <NotFoundPage /> }];
    return { default: AreaRoutes };
  });
  function AreaRoutes() {
    return useRoutes(table);
  }
  return {
    path: `${prefix}/*`,
    element: (
      <Suspense fallback={PAGE_LOADING}>
        <Area />
      </Suspense>
    ),
    handle: {
      async preload(pathname) {
        await Area.preload();
        await preloadMatches(matchRoutes(table, pathname.slice(prefix.length) || '/') ?? [], pathname);
      },
    } satisfies PageHandle,
  };
}

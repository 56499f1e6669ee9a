import { describe, expect, it } from 'vitest';
import { matchRoutes, type RouteObject } from 'react-router';
import { ALL_PAGES, DIALOGS, rolesFor } from '../../../tests/support/a11y-pages.ts';
import { routes } from './router.tsx';

/** Every route path the table names, console and mentorship area included. */
const paths = (table: RouteObject[]): string[] =>
  table.flatMap((route) => [...(route.path ? [route.path] : []), ...paths(route.children ?? [])]);

describe('the accessibility sweep opens every page of the router (tests/support/a11y-pages.ts)', () => {
  const routed = paths(routes);

  it('lists every route, once, with an address that opens it', () => {
    const listed = ALL_PAGES.map((p) => p.path);
    expect(
      routed.filter((path) => !listed.includes(path)),
      'routes the sweep does not open',
    ).toEqual([]);
    expect(
      listed.filter((path) => !routed.includes(path)),
      'listed paths the router lacks',
    ).toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
    for (const page of ALL_PAGES) {
      const leaf = matchRoutes(routes, new URL(page.url, 'http://x').pathname)?.at(-1)?.route.path;
      expect(leaf, page.url).toBe(page.path);
    }
  });

  it('opens each page as at least one person who sees it', () => {
    for (const page of ALL_PAGES) {
      const roles = rolesFor(page);
      expect(roles.length, page.url).toBeGreaterThan(0);
      for (const role of roles) expect(page.roles, page.url).toContain(role);
    }
  });

  it('opens each dialog on a listed page, as someone who sees that page', () => {
    for (const dialog of DIALOGS) {
      const leaf = matchRoutes(routes, new URL(dialog.url, 'http://x').pathname)?.at(-1)?.route.path;
      const page = ALL_PAGES.find((p) => p.path === leaf);
      expect(page?.roles ?? [], dialog.name).toContain(dialog.role);
    }
  });
});

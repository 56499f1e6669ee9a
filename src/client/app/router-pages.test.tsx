import { describe, expect, it } from 'vitest';
import { matchRoutes, type RouteObject } from 'react-router';
import { accessFor, type PageAccess } from '#shared/pages';
import { ROLES, ROUTER_PAGES, type Role } from '#test/router-pages';
import { ALL_ROUTES as routes } from '#test/route-table';

/** Every route path the table names, console and mentorship area included. */
const paths = (table: RouteObject[]): string[] =>
  table.flatMap((route) => [...(route.path ? [route.path] : []), ...paths(route.children ?? [])]);

/** Who the server lets open an address of each kind (src/server/plugins/pages.ts checkAccess). */
const ADMITTED: Record<PageAccess, Role[]> = {
  public: ['visitor', 'free', 'member', 'student', 'admin'],
  guest: ['visitor'],
  member: ['free', 'member', 'student', 'admin'],
  subscriber: ['free', 'member', 'student', 'admin'],
  mentorship: ['student', 'admin'],
  admin: ['admin'],
};

describe('ROUTER_PAGES (tests/support/router-pages.ts): every page of the router', () => {
  const routed = paths(routes);

  it('lists every route of the router, once', () => {
    expect(routed.length).toBeGreaterThan(90);
    const listed = ROUTER_PAGES.map((p) => p.path);
    expect(routed.filter((path) => !listed.includes(path))).toEqual([]);
    expect(listed.filter((path) => !routed.includes(path))).toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
    const names = ROUTER_PAGES.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z0-9-]+$/);
  });

  it('gives each an address that opens that route, not another one', () => {
    for (const page of ROUTER_PAGES) {
      const leaf = matchRoutes(routes, new URL(page.url, 'http://x').pathname)?.at(-1)?.route.path;
      expect(leaf, page.url).toBe(page.path);
    }
  });

  it('names only people the server lets open the address', () => {
    for (const page of ROUTER_PAGES) {
      expect(page.roles.length, page.url).toBeGreaterThan(0);
      const access = accessFor(new URL(page.url, 'http://x').pathname) ?? 'public';
      for (const role of page.roles) {
        expect(ROLES).toContain(role);
        expect(ADMITTED[access], `${role} at ${page.url} (${access})`).toContain(role);
      }
    }
  });
});

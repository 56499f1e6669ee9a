import { describe, expect, it } from 'vitest';
import { matchRoutes } from 'react-router';
import { DIALOGS, rolesFor } from '#test/a11y-pages';
import { ROUTER_PAGES } from '#test/router-pages';
import { routes } from './router.tsx';

describe('the accessibility sweep opens every page of the router (tests/support/a11y-pages.ts)', () => {
  it('opens each page as at least one person who sees it', () => {
    for (const page of ROUTER_PAGES) {
      const roles = rolesFor(page);
      expect(roles.length, page.url).toBeGreaterThan(0);
      for (const role of roles) expect(page.roles, page.url).toContain(role);
    }
  });

  it('opens each dialog on a listed page, as someone who sees that page', () => {
    for (const dialog of DIALOGS) {
      const leaf = matchRoutes(routes, new URL(dialog.url, 'http://x').pathname)?.at(-1)?.route.path;
      const page = ROUTER_PAGES.find((p) => p.path === leaf);
      expect(page?.roles ?? [], dialog.name).toContain(dialog.role);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { matchRoutes } from 'react-router';
import { DIALOGS } from '#test/a11y-pages';
import { ROUTER_PAGES } from '#test/router-pages';
import { ALL_ROUTES as routes } from '#test/route-table';

describe('the accessibility sweep’s dialogs (tests/support/a11y-pages.ts)', () => {
  it('opens each dialog on a listed page, as someone who sees that page', () => {
    for (const dialog of DIALOGS) {
      const leaf = matchRoutes(routes, new URL(dialog.url, 'http://x').pathname)?.at(-1)?.route.path;
      const page = ROUTER_PAGES.find((p) => p.path === leaf);
      expect(page?.roles ?? [], dialog.name).toContain(dialog.role);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { matchRoutes, type RouteObject } from 'react-router';
import { matchAddress, routes } from './router.tsx';

/** Every address the table names, with its parameters filled in (and an optional one left out). */
function addresses(table: RouteObject[]): string[] {
  return table.flatMap((route) => {
    const own = route.path
      ? [
          route.path.replace(/\/:\w+\?$/, ''),
          route.path
            .replace(/:(\w+)\?/g, 'x7')
            .replace(/:\w+/g, '12')
            .replace(/\*$/, 'a/b'),
        ]
      : [];
    return [...own, ...addresses(route.children ?? [])];
  });
}

const size = (table: RouteObject[]): number => table.reduce((n, r) => n + 1 + size(r.children ?? []), 0);

const leaf = (matches: { route: RouteObject; params: object }[] | null) => {
  const last = matches?.at(-1);
  return last ? { path: last.route.path, params: last.params } : null;
};

describe('route matching once per address (matchAddress)', () => {
  const all = [
    ...new Set([...addresses(routes), '/nope', '/forums/topic/1/extra', '/lessons', '/admin/nope', '/mentorship/nope']),
  ];

  it('finds the page React Router finds in the whole table, for every address of the table', () => {
    expect(all.length).toBeGreaterThan(60);
    for (const address of all) {
      expect(leaf(matchAddress(address).matches), address).toEqual(leaf(matchRoutes(routes, address)));
    }
  });

  it('hands useRoutes a branch that matches the same route objects and parameters as the whole table', () => {
    for (const address of all) {
      const { matches, branch } = matchAddress(address);
      const again = matchRoutes(branch, address) ?? [];
      expect(
        again.map((m) => m.route.element ?? m.route.path),
        address,
      ).toEqual(matches.map((m) => m.route.element ?? m.route.path));
      expect(again.at(-1)?.route, address).toBe(matches.at(-1)?.route);
      expect(again.at(-1)?.params, address).toEqual(matches.at(-1)?.params);
      // and only that branch: one route per level, so useRoutes' own matching costs next to nothing
      if (matches.length) expect(size(branch), address).toBe(matches.length);
    }
  });

  it('keeps one branch per address: the same answer again, without matching again', () => {
    const first = matchAddress('/forums/topic/1');
    expect(matchAddress('/forums/topic/1')).toBe(first);
    expect(matchAddress('/forums/topic/2')).not.toBe(first);
    expect(matchAddress('/forums/topic/2').matches.at(-1)?.params).toEqual({ id: '2' });
  });
});

import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, matchRoutes, useParams, useRoutes, type RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { plainPage, preloadMatches, routeArea, underPrefix } from './lazy-routes.tsx';

const StudioHome = () => <h1>Studio home</h1>;
const Recording = () => <h1>Recording {useParams().id}</h1>;

/** An area at /studio whose table is written with full addresses, as the admin console's and the mentorship area's are. */
function studioArea() {
  const loadTable = vi.fn(async () => ({
    routes: [
      { path: '/studio', lazy: plainPage(async () => ({ StudioHome }), 'StudioHome') },
      { path: '/studio/recordings/:id', lazy: plainPage(async () => ({ Recording }), 'Recording') },
    ] satisfies RouteObject[],
  }));
  const table: RouteObject[] = [{ path: '/', element: <h1>Academy</h1> }, routeArea('/studio', loadTable)];
  function App() {
    return useRoutes(table);
  }
  const open = (at: string) =>
    render(
      <MemoryRouter initialEntries={[at]}>
        <App />
      </MemoryRouter>,
    );
  const preload = (at: string) => preloadMatches(matchRoutes(table, at) ?? [], at);
  return { loadTable, open, preload };
}

describe('an area whose route table loads with its first page (routeArea)', () => {
  it('loads nothing of the area for a page outside it', () => {
    const studio = studioArea();
    studio.open('/');
    expect(screen.getByRole('heading', { name: 'Academy' })).toBeTruthy();
    expect(studio.loadTable).not.toHaveBeenCalled();
  });

  it('opens the area’s own address, a page under it with its parameters, and says when an address names none', async () => {
    const studio = studioArea();
    const home = studio.open('/studio');
    expect(await screen.findByRole('heading', { name: 'Studio home' })).toBeTruthy();
    home.unmount();

    const recording = studio.open('/studio/recordings/42');
    expect(await screen.findByRole('heading', { name: 'Recording 42' })).toBeTruthy();
    recording.unmount();

    studio.open('/studio/nope');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(studio.loadTable).toHaveBeenCalledTimes(1);
  });

  it('once preloaded, shows the page at once, without the loading state', async () => {
    const studio = studioArea();
    await act(() => studio.preload('/studio/recordings/7'));
    studio.open('/studio/recordings/7');
    expect(screen.getByRole('heading', { name: 'Recording 7' })).toBeTruthy();
    expect(screen.queryByLabelText('Loading page')).toBeNull();
  });
});

describe('underPrefix', () => {
  it('gives the area’s own address as its index and the rest relative to it', () => {
    const table = underPrefix('/studio', [
      { path: '/studio', element: null },
      { path: '/studio/recordings/:id?', element: null },
    ]);
    expect(table.map((r) => [r.index ?? false, r.path])).toEqual([
      [true, undefined],
      [false, 'recordings/:id?'],
    ]);
  });

  it('refuses a route outside the area, so a page is never silently out of reach', () => {
    expect(() => underPrefix('/studio', [{ path: '/studios', element: null }])).toThrow(
      'The route /studios is not under /studio.',
    );
  });
});

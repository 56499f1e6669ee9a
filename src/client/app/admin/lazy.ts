import type { ComponentType } from 'react';

/**
 * A route's page loaded on first visit: the console's code is its own chunk, never in the
 * academy's or the public pages' JavaScript.
 * `{ path: '/admin/x', lazy: lazyPage(() => import('./x/pages.tsx'), 'XPage') }`
 */
export const lazyPage =
  <M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) =>
  async () => ({ Component: (await load())[name] as ComponentType });

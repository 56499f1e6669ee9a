import { lazy, type ComponentType } from 'react';

type Loaded<T> = { default: T };

/**
 * `React.lazy` whose code can be asked for ahead of the render (`preload()`). Once it has loaded, the
 * component renders at once: React's lazy accepts any thenable, and this one calls back synchronously,
 * so nothing suspends. A plain lazy suspends at least once even when its module is already in the
 * browser, and a first render that suspends commits its Suspense fallback, which React then keeps on
 * screen for at least 300 ms (its fallback throttle) before it shows the page.
 */
export function preloadableLazy<P extends object>(load: () => Promise<Loaded<ComponentType<P>>>) {
  type T = ComponentType<P>;
  let loaded: Loaded<T> | undefined;
  let pending: Promise<Loaded<T>> | undefined;
  const preload = (): Promise<Loaded<T>> =>
    (pending ??= load().then(
      (m) => (loaded = m),
      (err: unknown) => {
        // a failed load (a network error) may be tried again by the next render
        pending = undefined;
        throw err;
      },
    ));
  const now = (m: Loaded<T>) =>
    ({ then: (resolve: (value: Loaded<T>) => void) => resolve(m) }) as unknown as Promise<Loaded<T>>;
  const Component = lazy(() => (loaded ? now(loaded) : preload()));
  return Object.assign(Component, { preload });
}

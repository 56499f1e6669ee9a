import { useEffect, useState } from 'react';

/**
 * Runs `fn` in a task of its own once the browser is idle, and no later than `timeout` ms from now;
 * returns a function that cancels it. Work the first view does not need (the realtime connection, the
 * daily time-zone report, the header's menus) stays out of the tasks that render the page: run from an
 * effect, it would share the task of React's first commit, one of the page's long tasks (total
 * blocking time; docs/decisions/0013-first-commit.md).
 */
export function whenIdle(fn: () => void, timeout = 500): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(() => fn(), { timeout });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(fn, 1);
  return () => clearTimeout(id);
}

const idleOnce = new Set<string>();

/**
 * False until the browser has been idle after the component's first commit (`whenIdle`), then true. Per
 * `key`, only the first mount in a page's life waits: a later one (a frame mounted again on moving to
 * another area of the site) starts at true.
 */
export function useWhenIdle(key: string): boolean {
  const [ready, setReady] = useState(() => idleOnce.has(key));
  useEffect(() => {
    if (ready) return;
    return whenIdle(() => {
      idleOnce.add(key);
      setReady(true);
    });
  }, [key, ready]);
  return ready;
}

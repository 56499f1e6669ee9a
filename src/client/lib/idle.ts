/**
 * Runs `fn` in a task of its own once the browser is idle, and no later than `timeout` ms from now;
 * returns a function that cancels it. Work nobody sees (the realtime connection, the daily time-zone
 * report) stays out of the tasks that render the page: run from an effect, it would share the task of
 * React's first commit and delay what the member sees and clicks (docs/decisions/0013-first-commit.md).
 */
export function whenIdle(fn: () => void, timeout = 500): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(() => fn(), { timeout });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(fn, 1);
  return () => clearTimeout(id);
}

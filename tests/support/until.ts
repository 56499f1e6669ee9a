import { setTimeout as delay } from 'node:timers/promises';

export interface UntilOptions {
  /** how long the event may take before the test fails (ms) */
  timeoutMs?: number;
  /** pause between two checks (ms) */
  intervalMs?: number;
  /** more of what the test saw, added to the failure (a process's output, the rows so far) */
  seen?: () => unknown;
}

/**
 * Waits for an event by checking for it until it has happened: `check` returns something truthy (which
 * `until` returns) once it has, and something falsy or throws (an `expect` that does not hold yet)
 * while it has not. When it never happens the test fails with what it saw: the description, the
 * check's last result or error and `seen()`.
 */
export async function until<T>(
  what: string,
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  options: UntilOptions | number = {},
): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 20, seen } = typeof options === 'number' ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let last: unknown;
    try {
      const value = await check();
      if (value) return value;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      const lastText = last instanceof Error ? last.message : JSON.stringify(last);
      const extra = seen ? `\nSeen: ${describe(seen())}` : '';
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}; the last check gave ${lastText}${extra}`);
    }
    await delay(intervalMs);
  }
}

function describe(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

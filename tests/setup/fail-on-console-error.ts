import { afterEach, beforeEach, vi, type MockInstance } from 'vitest';

// A test that makes the code under test print console.error fails: errors must be asserted, not ignored.
let errors: unknown[][] = [];
let spy: MockInstance<typeof console.error> | null = null;
beforeEach(() => {
  errors = [];
  spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  spy?.mockRestore();
  spy = null;
  if (errors.length > 0) {
    const first = errors[0]!.map((a) => (a instanceof Error ? a.stack : String(a))).join(' ');
    throw new Error(`console.error was called ${errors.length} time(s); first: ${first}`);
  }
});

import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Unit, component and API integration tests. Browser (Playwright) specs live in tests/e2e and run
// through vitest.e2e.config.ts.
export default defineConfig({
  plugins: [react()],
  test: {
    // Vitest runs one file per core less one, which on a two-core machine is one file at a time. These
    // files spend most of their time waiting on the database, the network and real timers rather than on
    // a core, so two at once finish sooner even there. Each file has its own database, app, port and
    // Redis key namespace (tests/support/api-harness.ts), so files running side by side do not meet.
    maxWorkers: Math.max(availableParallelism() - 1, 2),
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          // Files share one module graph per worker instead of importing the app anew for each file: each
          // file builds its own app, database and mocks (tests/support/api-harness.ts), and none changes a
          // module's state for the next.
          isolate: false,
          include: ['src/**/*.test.ts', 'tests/node/**/*.test.ts', 'scripts/**/*.test.ts'],
          setupFiles: ['tests/setup/fail-on-console-error.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          // Each file runs in a VM context of its own (its own modules, mocks and document) inside a worker
          // thread the files share: starting a worker for each file, which then imports React, Radix and
          // the app's modules, costs more than the tests themselves (docs/decisions/0026).
          pool: 'vmThreads',
          include: ['src/**/*.test.tsx'],
          setupFiles: ['tests/setup/fail-on-console-error.ts', 'tests/setup/dom.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});

import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Unit, component and API integration tests. Browser (Playwright) specs live in tests/e2e and run
// through vitest.e2e.config.ts.
export default defineConfig({
  plugins: [react()],
  test: {
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
          include: ['src/**/*.test.tsx'],
          setupFiles: ['tests/setup/fail-on-console-error.ts', 'tests/setup/dom.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});

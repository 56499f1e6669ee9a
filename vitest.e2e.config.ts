import { defineConfig } from 'vitest/config';

/**
 * Browser suite: Playwright (playwright-core) drives a real Chromium against a real server process,
 * started by the global setup once per project.
 *
 * Spec files run one at a time: each starts its own Chromium, whose software rendering keeps a core
 * busy, so a second file at once on a small machine only makes both slower. Each spec creates the
 * members and data it changes. The specs that move the payment sandbox's clock (renewals, trial ends,
 * dunning) get an academy of their own and run after the others: moving that clock changes every
 * subscription on the server, so a spec after them would see its new subscription judged by dates
 * days away from the clock it was bought on.
 */
const CLOCK_SPECS = ['tests/e2e/billing.spec.ts', 'tests/e2e/dunning.spec.ts'];

export default defineConfig({
  test: {
    environment: 'node',
    setupFiles: ['tests/setup/fail-on-console-error.ts'],
    globalSetup: ['tests/e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.spec.ts'],
          exclude: CLOCK_SPECS,
          fileParallelism: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e-clock',
          include: CLOCK_SPECS,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});

import { defineConfig } from 'vitest/config';

/**
 * Browser suite: Playwright (playwright-core) drives a real Chromium against a real server process,
 * started by the global setup once per project.
 *
 * Two spec files at a time share one academy; each spec creates the members and data it changes.
 * The specs that move the payment sandbox's clock (renewals, trial ends, dunning) get an academy of
 * their own and run one at a time after the others: moving that clock changes every subscription on
 * the server, so a spec running beside them would see its own subscription renewed or expired.
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
          maxWorkers: 2,
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

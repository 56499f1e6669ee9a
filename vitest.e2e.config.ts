import { defineConfig } from 'vitest/config';

// Browser suite: Playwright (playwright-core) drives a real Chromium against a real server process.
export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['tests/e2e/**/*.spec.ts'],
    setupFiles: ['tests/setup/fail-on-console-error.ts'],
    globalSetup: ['tests/e2e/global-setup.ts'],
    // two spec files at a time, each with its own browser, against the one server: the server and the
    // browsers wait on each other, so two keep both cores busy. Another spec may be changing the demo
    // accounts meanwhile: a spec asserts on what it made itself (newDrummer) or on what no spec changes.
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

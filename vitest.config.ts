import { configDefaults, defineConfig } from 'vitest/config';

/**
 * One vitest run, six projects. The integration and e2e projects share one local stage, started once
 * per run by tests/setup/local-stage.ts on its own ports and data directory.
 */
const COUNT_ASSERTIONS = 'tests/setup/count-assertions.ts';

export default defineConfig({
  test: {
    // Where a run's time goes, per file and project, with its tests and expect() calls (docs/testing.md).
    reporters: ['default', './tests/support/timing-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          setupFiles: [COUNT_ASSERTIONS],
          sequence: { groupOrder: 0 },
          include: [
            'shared/**/*.test.ts',
            'functions/**/*.test.ts',
            'tests/unit/**/*.test.ts',
            // The web app's pure modules (rules, parsing, the assistant's understanding); screens are
            // tested in a browser (e2e).
            'web/src/**/*.test.ts',
            // tests/local/first-run.test.ts starts stages of its own: beside the integration files, below.
            'tests/local/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          exclude: [...configDefaults.exclude, 'tests/local/first-run.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          // The screens' logic (Testing Library in jsdom) against the mock provider's handlers: no stage, no browser
          // (docs/web-mock.md). Browser journeys stay in e2e, against the local stage.
          name: 'web-components',
          environment: 'jsdom',
          sequence: { groupOrder: 0 },
          include: ['web/src/**/*.test.tsx'],
          setupFiles: [COUNT_ASSERTIONS, 'web/src/mock/component-setup.ts'],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          // Three fresh stages under a CPU load of its own: beside the integration files (one at a time, mostly
          // waiting on the stage) rather than the unit and infra files, which keep both cores busy.
          name: 'first-run',
          environment: 'node',
          setupFiles: [COUNT_ASSERTIONS],
          include: ['tests/local/first-run.test.ts'],
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'infra',
          environment: 'node',
          setupFiles: [COUNT_ASSERTIONS],
          sequence: { groupOrder: 0 },
          include: ['tests/infra/**/*.test.ts'],
          testTimeout: 240_000,
          hookTimeout: 240_000,
        },
      },
      {
        test: {
          name: 'integration',
          environment: 'node',
          setupFiles: [COUNT_ASSERTIONS],
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/setup/local-stage.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // The files share one stage and some change invoices and counters: one file at a time.
          fileParallelism: false,
          // After the unit and infra projects, and never beside the e2e files, which share the stage.
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          setupFiles: [COUNT_ASSERTIONS],
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/setup/local-stage.ts'],
          testTimeout: 90_000,
          hookTimeout: 90_000,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});

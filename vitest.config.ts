import { configDefaults, defineConfig } from 'vitest/config';
import { STAGE_WORKERS, WORKERS } from './tests/setup/parallelism.js';
import LongestFirstSequencer from './tests/setup/sequencer.js';

/**
 * One vitest run, in two groups (docs/testing.md):
 * 1. what needs no shared stage (unit, web-components, infra, first-run), WORKERS files at once, and beside them,
 *    one at a time, the stage files that must be alone on it;
 * 2. the integration and e2e files, STAGE_WORKERS at once on the one local stage, each on a test tenant of its own.
 * The stage is started once per run by tests/setup/local-stage.ts on its own ports and data directory, and Chromium
 * once by tests/setup/browser-server.ts.
 */
const COUNT_ASSERTIONS = 'tests/setup/count-assertions.ts';
const STAGE = 'tests/setup/local-stage.ts';
const STAGE_READY = 'tests/setup/stage-ready.ts';
const TENANT = 'tests/setup/tenant.ts';
const ALONE = 'tests/setup/alone-on-stage.ts';
const BROWSER = 'tests/setup/browser-server.ts';

/**
 * Stage files that change what every other file on it sees: the stage's clock (the Ley 29623 clock's tests), or the
 * daily digest, which goes to the staff of every company. They run alone on the stage.
 */
const ALONE_ON_STAGE = {
  integration: [
    'tests/integration/acquirer-conformity.test.ts',
    'tests/integration/ap-journey.test.ts',
    'tests/integration/daily-digest.test.ts',
  ],
  e2e: ['tests/e2e/acquirer-conformity.test.ts'],
};

/**
 * expect.poll's own second is shorter than a call and a screen's reload take with four files at once on two cores:
 * a poll waits as long as a page's waits do.
 */
const POLL = { poll: { timeout: 15_000, interval: 100 } } as const;
/**
 * `npm run test:quick` (tests/run-all.sh --quick): the projects that need no browser, without the files that restart
 * a stage (docs/testing.md).
 */
const QUICK = process.env.TEST_TIER === 'quick';
const RESTARTS_A_STAGE = ['tests/local/kill-restart.test.ts', 'tests/local/kill-restart-jobs.test.ts'];

/**
 * The projects without a stage run their files one after another in a worker that keeps its modules: CDK, the SDK,
 * React and Cloudscape are loaded and compiled once per worker, not once per file (the infra files took half the CPU
 * with it, docs/testing.md). Their files keep no state in modules between them; the stage projects do (the file's
 * tenant), so they stay isolated.
 */
const SHARED_MODULES = { isolate: false } as const;
/**
 * Unit files that need modules of their own: a module mocked (vi.mock) or read at load after the file set the
 * environment. Beside a shared module cache the mock would not apply, or would leak into the next file.
 */
const FRESH_MODULES = ['functions/src/http/wrapper.test.ts', 'functions/src/handlers/system/route-not-found.test.ts'];

const INTEGRATION = { environment: 'node', testTimeout: 30_000, hookTimeout: 60_000, expect: POLL } as const;
const E2E = { environment: 'node', testTimeout: 90_000, hookTimeout: 90_000, expect: POLL } as const;

export default defineConfig({
  test: {
    // Where a run's time goes, per file and project, with its tests and expect() calls (docs/testing.md).
    reporters: ['default', './tests/support/timing-reporter.ts'],
    // Each group's files longest first, by tests/durations.json.
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          ...SHARED_MODULES,
          environment: 'node',
          setupFiles: [COUNT_ASSERTIONS],
          sequence: { groupOrder: 0 },
          maxWorkers: WORKERS,
          include: [
            'shared/**/*.test.ts',
            'functions/**/*.test.ts',
            'tests/unit/**/*.test.ts',
            // The web app's pure modules (rules, parsing, the assistant's understanding); screens are
            // tested in a browser (e2e).
            'web/src/**/*.test.ts',
            // tests/local/first-run.test.ts starts stages of its own under a CPU load: a project of its own.
            'tests/local/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          exclude: [
            ...configDefaults.exclude,
            'tests/local/first-run.test.ts',
            ...FRESH_MODULES,
            ...(QUICK ? RESTARTS_A_STAGE : []),
          ],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'unit-isolated',
          environment: 'node',
          setupFiles: [COUNT_ASSERTIONS],
          sequence: { groupOrder: 0 },
          maxWorkers: WORKERS,
          include: FRESH_MODULES,
          testTimeout: 20_000,
        },
      },
      {
        test: {
          // The screens' logic (Testing Library in jsdom) against the mock provider's handlers: no stage, no browser
          // (docs/web-mock.md). Browser journeys stay in e2e, against the local stage.
          name: 'web-components',
          ...SHARED_MODULES,
          environment: 'jsdom',
          sequence: { groupOrder: 0 },
          maxWorkers: WORKERS,
          include: ['web/src/**/*.test.tsx'],
          setupFiles: [COUNT_ASSERTIONS, 'web/src/mock/component-setup.ts'],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          // Three fresh stages of its own, one after another, under a CPU load at the lowest priority.
          name: 'first-run',
          environment: 'node',
          setupFiles: [COUNT_ASSERTIONS],
          include: ['tests/local/first-run.test.ts'],
          sequence: { groupOrder: 0 },
          maxWorkers: WORKERS,
        },
      },
      {
        test: {
          name: 'infra',
          ...SHARED_MODULES,
          environment: 'node',
          setupFiles: [COUNT_ASSERTIONS],
          sequence: { groupOrder: 0 },
          maxWorkers: WORKERS,
          include: ['tests/infra/**/*.test.ts'],
          testTimeout: 240_000,
          hookTimeout: 240_000,
        },
      },
      {
        test: {
          ...INTEGRATION,
          name: 'integration-alone',
          include: ALONE_ON_STAGE.integration,
          globalSetup: [STAGE],
          setupFiles: [COUNT_ASSERTIONS, STAGE_READY, ALONE, TENANT],
          sequence: { groupOrder: 0 },
          maxWorkers: WORKERS,
        },
      },
      {
        test: {
          ...E2E,
          name: 'e2e-alone',
          include: ALONE_ON_STAGE.e2e,
          globalSetup: [STAGE, BROWSER],
          setupFiles: [COUNT_ASSERTIONS, STAGE_READY, ALONE, TENANT],
          sequence: { groupOrder: 0 },
          maxWorkers: WORKERS,
        },
      },
      {
        test: {
          ...INTEGRATION,
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...ALONE_ON_STAGE.integration],
          globalSetup: [STAGE],
          setupFiles: [COUNT_ASSERTIONS, STAGE_READY, TENANT],
          sequence: { groupOrder: 1 },
          maxWorkers: STAGE_WORKERS,
        },
      },
      {
        test: {
          ...E2E,
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...ALONE_ON_STAGE.e2e],
          globalSetup: [STAGE, BROWSER],
          setupFiles: [COUNT_ASSERTIONS, STAGE_READY, TENANT],
          sequence: { groupOrder: 1 },
          maxWorkers: STAGE_WORKERS,
        },
      },
    ],
  },
});

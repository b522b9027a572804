/**
 * How many test files run at once (vitest.config.ts), and how many test tenants the shared stage seeds for them
 * (tests/setup/local-stage.ts). TEST_WORKERS and TEST_STAGE_WORKERS override them, e.g. to find a file that fails
 * only beside others.
 */

/**
 * The first group: the unit, web-components and infra files, which keep the cores busy, and the stage files that
 * must be alone on it, which mostly wait; three at once on two cores.
 */
export const WORKERS = Number(process.env.TEST_WORKERS) || 3;

/** The second group: the integration and e2e files sharing the stage, each on its own tenant. */
export const STAGE_WORKERS = Number(process.env.TEST_STAGE_WORKERS) || 4;

/**
 * Test tenants beside the demo world (TEST_TENANTS overrides it): twice the files that run on the stage at once, so
 * that a file mostly gets a tenant no file used before it in the run (tests/support/tenant-claims.ts). With none,
 * every file runs on the demo world itself, one at a time (`npm run screenshots`).
 */
export const TEST_TENANTS = Math.min(
  99,
  process.env.TEST_TENANTS ? Number(process.env.TEST_TENANTS) : 2 * Math.max(WORKERS, STAGE_WORKERS),
);

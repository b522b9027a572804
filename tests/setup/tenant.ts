import { afterAll } from 'vitest';
import { stageOutputs } from '../support/stage-outputs.js';
import { claimTenant } from '../support/tenant-claims.js';

/**
 * Setup of every file that runs on the shared local stage (integration, e2e): the file takes a test tenant of its own
 * (a world of companies, suppliers and accounts the stage seeded, seed-data.ts tenantParties) before it is imported,
 * and gives it back when it ends. tests/support/tenant.ts reads which one; no other file running at the same time
 * holds it, and a tenant no file has used yet is taken first.
 */
const { dataDir, tenants } = stageOutputs();
const claim = claimTenant(dataDir, tenants);
process.env.PORTAL_TEST_TENANT = String(claim.tenant);

afterAll(() => {
  claim.release();
});

import { demoAccountOf, type LocalOutputs } from '../../local/runtime/outputs.js';
import { stageOutputs } from './stage-outputs.js';
import { DEMO_USERS, tenantUsername } from './tenant.js';

/**
 * The running local stage of this test run (started once by tests/setup/local-stage.ts), as this file's tenant sees
 * it: `demoUsers` are the tenant's accounts (tests/support/tenant.ts), which play the demo accounts' parts.
 */
export function stage(): LocalOutputs {
  const outputs = stageOutputs();
  return {
    ...outputs,
    demoUsers: DEMO_USERS.map(demoAccountOf),
  };
}

export function demoUser(role: LocalOutputs['demoUsers'][number]['role'], opts: { withoutTaxId?: boolean } = {}) {
  const user = stage().demoUsers.find(
    (candidate) =>
      candidate.role === role && (role === 'ADMIN' || (candidate.taxId === null) === Boolean(opts.withoutTaxId)),
  );
  if (!user) throw new Error(`No demo user with role ${role}${opts.withoutTaxId ? ' without taxId' : ''}`);
  return user;
}

/** The tenant's account that plays the demo account `username` (e.g. 'proveedor2@demo.pe'). */
export function demoAccount(username: string) {
  const user = stage().demoUsers.find((candidate) => candidate.username === tenantUsername(username));
  if (!user) throw new Error(`No demo account ${username}`);
  return user;
}

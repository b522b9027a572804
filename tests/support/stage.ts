import { inject } from 'vitest';
import type { LocalOutputs } from '../../infra/local/outputs.js';

declare module 'vitest' {
  export interface ProvidedContext {
    localStage: LocalOutputs;
  }
}

/** The running local stage of this test run (started once by tests/setup/local-stage.ts). */
export function stage(): LocalOutputs {
  return inject('localStage');
}

export function demoUser(role: LocalOutputs['demoUsers'][number]['role'], opts: { withoutTaxId?: boolean } = {}) {
  const user = stage().demoUsers.find(
    (candidate) =>
      candidate.role === role && (role === 'ADMIN' || (candidate.taxId === null) === Boolean(opts.withoutTaxId)),
  );
  if (!user) throw new Error(`No demo user with role ${role}${opts.withoutTaxId ? ' without taxId' : ''}`);
  return user;
}

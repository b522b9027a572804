import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isAlive } from '../../local/stand-ins/types.js';

export interface TenantClaim {
  readonly tenant: number;
  release(): void;
}

/**
 * Takes one of a stage's worlds (0, the demo's, to `tenants`) for this process until released: a lock directory per
 * world under the stage's data directory, holding the claiming process's id (a lock of a process that died is free
 * again). A world no file has claimed yet in this stage's life is taken before one that was used and given back.
 * Synchronous: a file's setup claims before the test module, which reads its tenant on import, is loaded.
 */
export function claimTenant(dataDir: string, tenants: number): TenantClaim {
  const dir = path.join(dataDir, 'tenants');
  mkdirSync(dir, { recursive: true });
  const lock = (tenant: number) => path.join(dir, `${tenant}.lock`);
  const used = (tenant: number) => path.join(dir, `${tenant}.used`);
  const take = (tenant: number): boolean => {
    try {
      mkdirSync(lock(tenant));
    } catch {
      const pidFile = path.join(lock(tenant), 'pid');
      const owner = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8') || 0) : 0;
      // A lock without its pid is being written by the process that just took it.
      if (!owner || isAlive(owner)) return false;
      rmSync(lock(tenant), { recursive: true, force: true });
      try {
        mkdirSync(lock(tenant));
      } catch {
        return false;
      }
    }
    writeFileSync(path.join(lock(tenant), 'pid'), String(process.pid));
    writeFileSync(used(tenant), String(process.pid));
    return true;
  };
  const all = Array.from({ length: tenants + 1 }, (_, tenant) => tenant);
  const tenant =
    all.filter((candidate) => !existsSync(used(candidate))).find(take) ?? all.find((candidate) => take(candidate));
  if (tenant === undefined) {
    throw new Error(
      `Every test tenant of the stage (${tenants + 1}) is held by a file running now: give the stage more ` +
        '(LOCAL_TEST_TENANTS, tests/setup/local-stage.ts) or run fewer files at once.',
    );
  }
  return {
    tenant,
    release() {
      rmSync(lock(tenant), { recursive: true, force: true });
    },
  };
}

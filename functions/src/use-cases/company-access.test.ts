import { describe, expect, it } from 'vitest';
import type { Client } from '@portal/shared';
import type { Caller } from '../http/caller.js';
import { assertCompanyAccess, canActFor } from './company-access.js';

const MANAGED = '20100070970';
const OTHER = '20603415800';
const UNKNOWN = '20999999990';
const group: Record<string, Client> = {
  [MANAGED]: { taxId: MANAGED, name: 'Uno', address: 'Lima', logo: null, system_name: 'UNO' },
  [OTHER]: { taxId: OTHER, name: 'Dos', address: 'Lima', logo: null, system_name: 'DOS' },
};
const reads: string[] = [];
const clients = {
  get: async (taxId: string) => (reads.push(taxId), group[taxId] ?? null),
};
const caller = (level: Caller['level'], taxIds: string[]) => ({ level, taxIds });

describe('acting for a company of the group', () => {
  it('lets a manager act only for the companies of its taxId list, and an admin for any', () => {
    expect(canActFor(caller('MANAGER', [MANAGED]), MANAGED)).toBe(true);
    expect(canActFor(caller('MANAGER', [MANAGED]), OTHER)).toBe(false);
    expect(canActFor(caller('SUPPLIER', [MANAGED]), OTHER)).toBe(false);
    expect(canActFor(caller('ADMIN', []), OTHER)).toBe(true);
  });

  it('answers the company when the caller may act for it', async () => {
    await expect(assertCompanyAccess(caller('MANAGER', [MANAGED]), MANAGED, clients)).resolves.toEqual(group[MANAGED]);
    await expect(assertCompanyAccess(caller('ADMIN', []), OTHER, clients)).resolves.toEqual(group[OTHER]);
  });

  it('refuses another company before looking it up, so a manager learns nothing of it', async () => {
    reads.length = 0;
    await expect(assertCompanyAccess(caller('MANAGER', [MANAGED]), UNKNOWN, clients)).rejects.toMatchObject({
      statusCode: 403,
      code: 'ERROR_COMPANY_NOT_ALLOWED',
      errors: [{ code: 'ERROR_COMPANY_NOT_ALLOWED', parameters: { companyId: UNKNOWN } }],
    });
    expect(reads).toEqual([]);
  });

  it('answers 404 for a company outside the group', async () => {
    await expect(assertCompanyAccess(caller('ADMIN', []), UNKNOWN, clients)).rejects.toMatchObject({
      statusCode: 404,
      code: 'ERROR_CLIENT_NOT_FOUND',
    });
  });
});

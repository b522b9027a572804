import { describe, expect, it } from 'vitest';
import type { Caller } from '../http/caller.js';
import type { InvoiceFilter, InvoiceScope } from '../repositories/invoice-queries.js';
import type { InvoiceRepository } from '../repositories/invoices.js';
import { makeListInvoices } from './list-invoices.js';

const calls: { scope: InvoiceScope; filter: InvoiceFilter }[] = [];
const fakeRepo: InvoiceRepository = {
  list: async (scope, filter) => (calls.push({ scope, filter }), { items: [], nextCursor: null }),
  count: async (scope, filter) => (calls.push({ scope, filter }), { count: 0, exact: true }),
};
const list = makeListInvoices({ invoices: fakeRepo });

const caller = (level: Caller['level'], taxIds: string[]): Caller => ({
  sub: 's',
  username: 's',
  email: 'e',
  firstName: 'f',
  lastName: 'l',
  level,
  taxIds,
  groups: [],
  activeCompany: taxIds[0] ?? null,
  expiresAt: 0,
  signIn: 'PASSWORD',
  txId: 'test-tx',
});
const SUPPLIER = '20456178325';
const CLIENT_A = '20100070970';
const CLIENT_B = '20603415800';

async function run(who: Caller, query: Record<string, unknown>) {
  calls.length = 0;
  await list(who, { limit: 20, ...query } as never);
  return calls[0];
}

describe('listing invoices within the caller reach', () => {
  it('keeps a supplier to what it issued, at any client or at the client asked for', async () => {
    expect((await run(caller('SUPPLIER', [SUPPLIER]), {}))?.scope).toEqual({ kind: 'SUPPLIER', supplierId: SUPPLIER });
    expect((await run(caller('SUPPLIER', [SUPPLIER]), { client: CLIENT_A }))?.scope).toEqual({
      kind: 'SUPPLIER',
      supplierId: SUPPLIER,
      client: CLIENT_A,
    });
    expect((await run(caller('SUPPLIER', [SUPPLIER]), { acquirer: CLIENT_A }))?.scope).toMatchObject({
      client: CLIENT_A,
    });
    await expect(run(caller('SUPPLIER', [SUPPLIER]), { issuer: '20608172352' })).rejects.toMatchObject({
      statusCode: 403,
    });
    expect((await run(caller('SUPPLIER', [SUPPLIER]), { issuer: SUPPLIER }))?.scope).toMatchObject({
      supplierId: SUPPLIER,
    });
  });

  it('keeps a manager to its own companies', async () => {
    expect((await run(caller('MANAGER', [CLIENT_A]), {}))?.scope).toEqual({ kind: 'COMPANY', client: CLIENT_A });
    expect(await run(caller('MANAGER', [CLIENT_A]), { issuer: SUPPLIER })).toMatchObject({
      scope: { kind: 'COMPANY', client: CLIENT_A },
      filter: { issuer: SUPPLIER },
    });
    await expect(run(caller('MANAGER', [CLIENT_A]), { client: CLIENT_B })).rejects.toMatchObject({
      statusCode: 403,
      code: 'ERROR_COMPANY_NOT_ALLOWED',
    });
    await expect(run(caller('MANAGER', [CLIENT_A]), { acquirer: CLIENT_B })).rejects.toMatchObject({
      statusCode: 403,
    });
  });

  it('lets an admin read any company it names, and asks it to name one', async () => {
    expect((await run(caller('ADMIN', []), { client: CLIENT_B }))?.scope).toEqual({
      kind: 'COMPANY',
      client: CLIENT_B,
    });
    await expect(run(caller('ADMIN', []), {})).rejects.toMatchObject({
      statusCode: 400,
      code: 'ERROR_MISSING_PARAMETER',
    });
  });

  it('refuses a client and an acquirer that disagree', async () => {
    await expect(
      run(caller('MANAGER', [CLIENT_A, CLIENT_B]), { client: CLIENT_A, acquirer: CLIENT_B }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'ERROR_INVALID_PARAMETER' });
  });

  it('hands every filter of spec §3 to the repository instead of refusing it', async () => {
    const filters = {
      search: 'F001',
      responsible: 'E1001',
      office: 'Sede Central',
      invoiceStatus: ['PENDING', 'PAID'],
      invoiceType: ['FACTURA'],
    };
    expect((await run(caller('MANAGER', [CLIENT_A]), filters))?.filter).toEqual({
      search: 'F001',
      responsible: 'E1001',
      office: 'Sede Central',
      statuses: ['PENDING', 'PAID'],
      types: ['FACTURA'],
      issuer: undefined,
    });
    expect((await run(caller('SUPPLIER', [SUPPLIER]), filters))?.filter).toMatchObject({
      statuses: ['PENDING', 'PAID'],
      types: ['FACTURA'],
    });
  });
});

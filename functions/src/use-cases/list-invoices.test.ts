import { describe, expect, it } from 'vitest';
import type { Caller } from '../http/caller.js';
import type { InvoiceRepository } from '../repositories/invoices.js';
import { makeListInvoices } from './list-invoices.js';

const calls: string[] = [];
const fakeRepo: InvoiceRepository = {
  listByClient: async (client) => (calls.push(`client:${client}`), { items: [], nextCursor: null }),
  listBySupplier: async (supplier) => (calls.push(`supplier:${supplier}`), { items: [], nextCursor: null }),
  listByClientAndSupplier: async (client, supplier) => (
    calls.push(`pair:${client}/${supplier}`),
    { items: [], nextCursor: null }
  ),
};
const list = makeListInvoices({ invoices: fakeRepo });

const caller = (level: Caller['level'], taxIds: string[]): Caller => ({
  sub: 's',
  email: 'e',
  firstName: 'f',
  lastName: 'l',
  level,
  taxIds,
  groups: [],
  activeCompany: taxIds[0] ?? null,
  expiresAt: 0,
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
    expect(await run(caller('SUPPLIER', [SUPPLIER]), {})).toBe(`supplier:${SUPPLIER}`);
    expect(await run(caller('SUPPLIER', [SUPPLIER]), { client: CLIENT_A })).toBe(`pair:${CLIENT_A}/${SUPPLIER}`);
    await expect(run(caller('SUPPLIER', [SUPPLIER]), { issuer: '20608172352' })).rejects.toMatchObject({
      statusCode: 403,
    });
  });

  it('keeps a manager to its own companies', async () => {
    expect(await run(caller('MANAGER', [CLIENT_A]), {})).toBe(`client:${CLIENT_A}`);
    expect(await run(caller('MANAGER', [CLIENT_A]), { issuer: SUPPLIER })).toBe(`pair:${CLIENT_A}/${SUPPLIER}`);
    await expect(run(caller('MANAGER', [CLIENT_A]), { client: CLIENT_B })).rejects.toMatchObject({
      statusCode: 403,
      code: 'ERROR_COMPANY_NOT_ALLOWED',
    });
  });

  it('lets an admin read any company it names, and asks it to name one', async () => {
    expect(await run(caller('ADMIN', []), { client: CLIENT_B })).toBe(`client:${CLIENT_B}`);
    await expect(run(caller('ADMIN', []), {})).rejects.toMatchObject({
      statusCode: 400,
      code: 'ERROR_MISSING_PARAMETER',
    });
  });

  it('refuses filters it cannot serve yet instead of ignoring them', async () => {
    await expect(run(caller('MANAGER', [CLIENT_A]), { invoiceStatus: ['PENDING'] })).rejects.toMatchObject({
      statusCode: 501,
    });
  });
});

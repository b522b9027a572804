import { describe, expect, it } from 'vitest';
import { routes, type InvoiceSummary } from '@portal/shared';
import { CLIENTS, buildWorld, stageCompanies } from '../support/tenant.js';
import { call, idTokenOf } from '../support/api.js';
import { demoUser } from '../support/stage.js';

const world = buildWorld();
const tokenOf = async (role: 'SUPPLIER' | 'MANAGER' | 'ADMIN', opts: { withoutTaxId?: boolean } = {}) => {
  const user = demoUser(role, opts);
  return idTokenOf(user.username, user.password);
};

/** Walks every page of a listing, as a user paging through the table would. */
async function listAll(
  token: string,
  query: Record<string, string | number> = {},
  headers: Record<string, string> = {},
) {
  const items: InvoiceSummary[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await call(routes.listInvoices, { token, query: { limit: 7, ...query, cursor }, headers });
    expect(page.status).toBe(200);
    expect(page.body.items.length).toBeLessThanOrEqual(Number(query.limit ?? 7));
    items.push(...page.body.items);
    cursor = page.body.nextCursor ?? undefined;
    pages += 1;
  } while (cursor && pages < 100);
  return items;
}

const idOf = (invoice: InvoiceSummary) => `${invoice.supplierId}/${invoice.type}/${invoice.id}`;
const idsOf = (invoices: InvoiceSummary[]) => invoices.map(idOf).sort();

/**
 * A company's list holds every one of its seeded invoices once, and nothing of another company. Other test
 * files register invoices for every company while this one runs, so the list may hold more of the company's own.
 */
function expectExactlyTheCompany(items: InvoiceSummary[], client: string): void {
  expect(items.filter((invoice) => invoice.client !== client).map(idOf)).toEqual([]);
  expect(new Set(items.map(idOf)).size).toBe(items.length);
  expect(idsOf(items)).toEqual(
    expect.arrayContaining(idsOf(world.invoices.filter((invoice) => invoice.client === client))),
  );
}

describe('GET /invoices is tenant-scoped', () => {
  it('shows a supplier the invoices it issued, to every client, newest received first', async () => {
    const supplier = demoUser('SUPPLIER');
    const items = await listAll(await tokenOf('SUPPLIER'));
    const expected = world.invoices.filter((invoice) => invoice.supplierId === supplier.taxId);
    expect(expected.length).toBeGreaterThan(10);
    // The intake tests add documents of this supplier: every seeded one is there, and nothing of anyone else.
    expect(items.every((invoice) => invoice.supplierId === supplier.taxId)).toBe(true);
    expect(idsOf(items)).toEqual(expect.arrayContaining(idsOf(expected)));
    const received = items.map((invoice) => invoice.receivedAt);
    expect(received).toEqual([...received].sort().reverse());
  });

  it('narrows a supplier to one client when asked', async () => {
    const supplier = demoUser('SUPPLIER');
    // A company the intake tests do not send documents to, so that the comparison is exact.
    const client = CLIENTS[2]!.taxId;
    const items = await listAll(await tokenOf('SUPPLIER'), { client });
    const expected = world.invoices.filter(
      (invoice) => invoice.supplierId === supplier.taxId && invoice.client === client,
    );
    expect(idsOf(items)).toEqual(idsOf(expected));
  });

  it("never shows a supplier another supplier's invoices", async () => {
    const other = demoUser('SUPPLIER').taxId;
    const items = await listAll(await tokenOf('SUPPLIER'));
    expect(items.every((invoice) => invoice.supplierId === other)).toBe(true);
    const supplier2 = world.invoices.filter((invoice) => invoice.supplierId !== other);
    expect(items.some((invoice) => supplier2.some((theirs) => idOf(theirs) === idOf(invoice)))).toBe(false);
  });

  it("shows a manager its active company's invoices, and the other company it manages on request", async () => {
    const manager = demoUser('MANAGER');
    const [first, second] = manager.taxId!.split(',') as [string, string];
    const token = await tokenOf('MANAGER');
    // The review and export tests add invoices of their own to the first company (over a thousand): the seed's are
    // all there, and nothing else. Pages of 100, so that walking them stays within listAll's hundred pages.
    const firstItems = await listAll(token, { limit: 100 });
    expect(firstItems.every((invoice) => invoice.client === first)).toBe(true);
    expect(idsOf(firstItems)).toEqual(
      expect.arrayContaining(idsOf(world.invoices.filter((invoice) => invoice.client === first))),
    );
    for (const items of [
      await listAll(token, {}, { 'x-company-id': second }),
      await listAll(token, { client: second }),
    ]) {
      expectExactlyTheCompany(items, second);
    }
  });

  it('refuses a manager a company it does not manage, by query or by header', async () => {
    const manager = demoUser('MANAGER');
    const foreign = world.invoices.find((invoice) => !manager.taxId!.split(',').includes(invoice.client))!.client;
    const token = await tokenOf('MANAGER');
    for (const response of [
      await call(routes.listInvoices, { token, query: { client: foreign } }),
      await call(routes.listInvoices, { token, headers: { 'x-company-id': foreign } }),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        statusCode: 403,
        message: `No tiene acceso a la sociedad ${foreign}.`,
        txId: response.requestId,
        errors: [{ code: 'ERROR_COMPANY_NOT_ALLOWED', parameters: { companyId: foreign } }],
      });
    }
  });

  it('lets an admin read any company, and asks it to name one', async () => {
    const token = await tokenOf('ADMIN');
    // A company of a few hundred invoices (the daily-use tests give the third one thousands).
    const client = CLIENTS[1]!.taxId;
    expectExactlyTheCompany(await listAll(token, { client }), client);
    const unnamed = await call(routes.listInvoices, { token });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.message).toBe('Falta el parámetro obligatorio «client».');
    expect(unnamed.body.txId).toBe(unnamed.requestId);
  });

  it('refuses users without a taxId, who belong on their forbidden page', async () => {
    for (const role of ['SUPPLIER', 'MANAGER'] as const) {
      const response = await call(routes.listInvoices, { token: await tokenOf(role, { withoutTaxId: true }) });
      expect(response.status).toBe(403);
      expect(response.body.message).toBe('Sesión inválida.');
    }
  });
});

describe('pagination cursors', () => {
  it('pages without repeating or losing an invoice', async () => {
    const items = await listAll(await tokenOf('SUPPLIER'));
    expect(new Set(items.map(idOf)).size).toBe(items.length);
  });

  it('refuses a cursor that is garbage or belongs to another listing', async () => {
    const token = await tokenOf('SUPPLIER');
    const garbage = await call(routes.listInvoices, { token, query: { cursor: 'not-a-cursor' } });
    expect(garbage.status).toBe(400);
    expect(garbage.body.errors[0].code).toBe('ERROR_INVALID_CURSOR');

    const manager = await tokenOf('MANAGER');
    const managerPage = await call(routes.listInvoices, { token: manager, query: { limit: 2 } });
    const foreignCursor = managerPage.body.nextCursor as string;
    expect(foreignCursor).toBeTruthy();
    const replayed = await call(routes.listInvoices, { token, query: { cursor: foreignCursor } });
    expect(replayed.status).toBe(400);
    expect(replayed.body.errors[0].code).toBe('ERROR_INVALID_CURSOR');
  });
});

describe('GET /clients', () => {
  it("lists the group's companies for every signed-in role", async () => {
    // The group's companies on this stage: the demo world's and every test tenant's, this file's among them.
    const companies = stageCompanies().map((client) => client.taxId);
    expect(companies).toEqual(expect.arrayContaining([...new Set(world.invoices.map((invoice) => invoice.client))]));
    for (const role of ['SUPPLIER', 'MANAGER', 'ADMIN'] as const) {
      const response = await call(routes.listClients, { token: await tokenOf(role) });
      expect(response.status).toBe(200);
      expect(response.body.items.map((client: { taxId: string }) => client.taxId).sort()).toEqual(
        [...companies].sort(),
      );
    }
  });
});

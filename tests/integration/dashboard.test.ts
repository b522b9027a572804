import { describe, expect, it } from 'vitest';
import { routes, type InvoiceSummary } from '@portal/shared';
import { CLIENTS, buildWorld } from '../support/tenant.js';
import { call, idTokenOf, type CallResult } from '../support/api.js';
import { demoUser } from '../support/stage.js';
import { countsOf } from '../support/views.js';

/**
 * The dashboard (spec §2) counts a company's invoices by status and by operation type. Other test
 * files approve, reject and add invoices, so the expected counts come from the invoices as the API
 * lists them in the same test; the seed says which invoices must at least be there. The company is
 * CLIENTS[1], managed by the demo manager, which the review tests leave alone.
 */
const world = buildWorld();
const COMPANY = CLIENTS[1]!.taxId;
const FOREIGN = CLIENTS[2]!.taxId;

const manager = () => idTokenOf(demoUser('MANAGER').username, demoUser('MANAGER').password);

const keyOf = (invoice: Pick<InvoiceSummary, 'supplierId' | 'type' | 'id'>) =>
  `${invoice.supplierId}/${invoice.type}/${invoice.id}`;

/** Every invoice of the company, read through GET /invoices as the invoices screen would. */
async function invoicesOfCompany(token: string): Promise<InvoiceSummary[]> {
  const items: InvoiceSummary[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await call(routes.listInvoices, { token, query: { client: COMPANY, limit: 100, cursor } });
    expect(page.status).toBe(200);
    items.push(...page.body.items);
    cursor = page.body.nextCursor ?? undefined;
    pages += 1;
  } while (cursor && pages < 50);
  expect(items.map(keyOf)).toEqual(
    expect.arrayContaining(world.invoices.filter((invoice) => invoice.client === COMPANY).map(keyOf)),
  );
  return items;
}

/** MM/YYYY of the month in which the seed issued most of the company's invoices. */
function busiestMonth(): { period: string; month: string } {
  const perMonth = new Map<string, number>();
  for (const invoice of world.invoices.filter((candidate) => candidate.client === COMPANY)) {
    const month = invoice.issuedAt.slice(0, 7);
    perMonth.set(month, (perMonth.get(month) ?? 0) + 1);
  }
  const [month] = [...perMonth.entries()].sort((a, b) => b[1] - a[1])[0]!;
  const [year, mm] = month.split('-');
  return { period: `${mm}/${year}`, month };
}

function expectError(response: CallResult, status: number, code: string, parameters?: Record<string, unknown>) {
  expect({ status: response.status, code: response.body?.errors?.[0]?.code }).toEqual({ status, code });
  if (parameters) expect(response.body.errors[0].parameters).toMatchObject(parameters);
  expect(response.body.txId).toBe(response.requestId);
}

describe('GET /dashboard', () => {
  it("counts all of the company's invoices by status and by type", async () => {
    const token = await manager();
    const invoices = await invoicesOfCompany(token);

    const response = await call(routes.getDashboard, { token, query: { client: COMPANY } });

    expect(response.status).toBe(200);
    expect(response.body).toEqual(countsOf(invoices));
    expect(response.body.pending + response.body.completed).toBeGreaterThan(0);
  });

  it('counts one month of issue when given a period', async () => {
    const token = await manager();
    const { period, month } = busiestMonth();
    const invoices = (await invoicesOfCompany(token)).filter((invoice) => invoice.issuedAt.startsWith(month));
    expect(invoices.length).toBeGreaterThan(1);

    const response = await call(routes.getDashboard, { token, query: { client: COMPANY, period } });

    expect(response.status).toBe(200);
    expect(response.body).toEqual(countsOf(invoices));
  });

  it('answers zeros for a month without invoices', async () => {
    const response = await call(routes.getDashboard, {
      token: await manager(),
      query: { client: COMPANY, period: '01/2001' },
    });

    expect(response.status).toBe(200);
    expect(response.body).toEqual(countsOf([]));
  });

  it('names the period when it is not MM/YYYY', async () => {
    const token = await manager();
    for (const period of ['13/2026', '2026-10', '1/2026']) {
      const response = await call(routes.getDashboard, { token, query: { client: COMPANY, period } });
      expectError(response, 400, 'ERROR_INVALID_PARAMETER', { parameter: 'period' });
    }
  });

  it('names the missing client', async () => {
    expectError(await call(routes.getDashboard, { token: await manager() }), 400, 'ERROR_MISSING_PARAMETER', {
      parameter: 'client',
    });
  });

  it('refuses a manager the dashboard of a company it does not manage', async () => {
    const response = await call(routes.getDashboard, { token: await manager(), query: { client: FOREIGN } });

    expectError(response, 403, 'ERROR_COMPANY_NOT_ALLOWED', { companyId: FOREIGN });
  });
});

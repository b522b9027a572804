import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { routes, type InvoiceSummary } from '@portal/shared';
import { CLIENTS, buildWorld } from '../support/tenant.js';
import { call } from '../support/api.js';
import { HEADER_TEXT, signedIn, tokenOf, visit } from '../support/header.js';
import { demoUser } from '../support/stage.js';
import { INVOICES_TITLE, inBrowser, settledInvoices } from '../support/web.js';

// Daily use: the table says how many invoices match, and the header search finds any part of a number.

const world = buildWorld();

/** Every invoice of a listing through the API, page by page (the truth the screen must show). */
async function everyInvoice(role: 'SUPPLIER' | 'MANAGER', query: Record<string, string>): Promise<InvoiceSummary[]> {
  const token = await tokenOf(role);
  const items: InvoiceSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await call<{ items: InvoiceSummary[]; nextCursor: string | null }>(routes.listInvoices, {
      token,
      query: { ...query, limit: 100, ...(cursor ? { cursor } : {}) },
    });
    expect(page.status).toBe(200);
    items.push(...page.body.items);
    cursor = page.body.nextCursor ?? undefined;
  } while (cursor);
  return items;
}

/** The title of the invoices table with its counter, as a person reads it: "Mis comprobantes (12)". */
async function title(page: Page): Promise<string> {
  const heading = page.getByRole('heading', { level: 1, name: INVOICES_TITLE });
  await expect.poll(async () => /\(\d/.test((await heading.innerText()) ?? ''), { timeout: 15_000 }).toBe(true);
  return (await heading.innerText()).replace(/\s+/g, ' ').trim();
}

describe('how many invoices match, and search by any part', () => {
  test('a supplier reads how many of its invoices are paid, as many as the list holds', async () => {
    const paid = await everyInvoice('SUPPLIER', { invoiceStatus: 'PAID' });
    expect(paid.length).toBeGreaterThan(1);

    await inBrowser('invoices-count', async (page) => {
      await signedIn(page, 'SUPPLIER');
      await visit(page, '/invoices?invoiceStatus=PAID');
      await settledInvoices(page);

      expect(await title(page)).toBe(`Mis comprobantes (${paid.length})`);
    });
  });

  test('a manager finds an invoice by the middle of its number from the header, and reads how many match', async () => {
    const manager = demoUser('MANAGER');
    const company = CLIENTS.find((client) => manager.taxId?.split(',')[0] === client.taxId)!;
    const sample = world.invoices.find((invoice) => invoice.client === company.taxId && invoice.numericId.length >= 3)!;
    const part = sample.numericId.slice(1);
    const expected = await everyInvoice('MANAGER', { client: company.taxId, search: part });
    expect(expected.map((invoice) => invoice.id)).toContain(sample.id);

    await inBrowser('invoices-search-part', async (page) => {
      await signedIn(page, 'MANAGER');
      const search = page.getByRole('combobox', { name: HEADER_TEXT.staffSearch });
      await search.fill(part);
      await search.press('Enter');
      await page.waitForURL((url) => url.pathname === '/invoices' && url.searchParams.get('search') === part);
      await settledInvoices(page);

      await page.getByTestId('invoice-number').getByText(sample.id, { exact: true }).first().waitFor();
      // Staff's title: the invoices their companies receive.
      expect(await title(page)).toBe(`Comprobantes recibidos (${expected.length})`);
    });
  });
});

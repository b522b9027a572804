import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { parseTaxIds } from '@portal/shared';
import { CLIENTS, buildWorld } from '../support/tenant.js';
import { seriousA11yViolations } from '../support/a11y.js';
import { INVOICES_TEXT, withoutShellToolbarIssue } from '../support/invoices.js';
import { demoUser } from '../support/stage.js';
import { inBrowser, openLogin, rowAttribute, settledInvoices, signInAs } from '../support/web.js';

const rows = (page: Page) => page.getByTestId('invoice-number');

/** The page of the pagination the table is on (Cloudscape marks it with aria-current). */
function currentPage(page: Page): Promise<string | null> {
  return page.locator('button[aria-current="true"]').first().getAttribute('aria-label');
}

async function openPreferences(page: Page) {
  await page.getByRole('button', { name: INVOICES_TEXT.preferences, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: INVOICES_TEXT.preferences });
  await dialog.getByText(INVOICES_TEXT.rowsPerPage, { exact: true }).waitFor();
  return dialog;
}

describe("the invoices table's page size", () => {
  test('a manager picks 50 rows per page in "Preferencias"; the table starts again at page 1 and remembers it', async () => {
    // Prepare: the manager's first company has more than one page of 20 (seeded; other tests only add to it)
    const manager = demoUser('MANAGER');
    const company = parseTaxIds(manager.taxId)[0]!;
    expect(company).toBe(CLIENTS[0]!.taxId);
    const seeded = buildWorld().invoices.filter((invoice) => invoice.client === company).length;
    expect(seeded).toBeGreaterThan(20);

    await inBrowser('invoices-page-size', async (page) => {
      await openLogin(page);
      await signInAs(page, manager);
      await page.waitForURL((url) => url.pathname === '/');
      await settledInvoices(page);

      // Assess: pages of 20 by default; move to the second one
      await expect.poll(() => rows(page).count()).toBe(20);
      await page.getByRole('button', { name: INVOICES_TEXT.nextPage }).click();
      await expect.poll(() => currentPage(page)).toBe(INVOICES_TEXT.pageLabel(2));
      await settledInvoices(page);

      // Act: 'Preferencias', 'Filas por página': 50
      let dialog = await openPreferences(page);
      const options = dialog.getByRole('radio');
      expect(await options.count()).toBe(3);
      for (const size of [20, 50, 100]) {
        expect(await dialog.getByRole('radio', { name: INVOICES_TEXT.pageSizeOption(size) }).count()).toBe(1);
      }
      expect(await dialog.getByRole('radio', { name: INVOICES_TEXT.pageSizeOption(20) }).isChecked()).toBe(true);
      expect(withoutShellToolbarIssue(await seriousA11yViolations(page))).toEqual([]);
      await dialog.getByText(INVOICES_TEXT.pageSizeOption(50), { exact: true }).click();
      await dialog.getByRole('button', { name: INVOICES_TEXT.confirm }).click();
      await dialog.waitFor({ state: 'hidden' });

      // Assess: back on the first page, with more than 20 rows and at most 50, all of the company
      await expect.poll(() => rows(page).count(), { timeout: 30_000 }).toBeGreaterThan(20);
      const shown = await rows(page).count();
      expect(shown).toBeLessThanOrEqual(50);
      expect(shown).toBeGreaterThanOrEqual(Math.min(seeded, 50));
      expect(await currentPage(page)).toBe(INVOICES_TEXT.pageLabel(1));
      expect(new Set(await rowAttribute(page, 'invoice-number', 'data-client-id'))).toEqual(new Set([company]));
      expect(withoutShellToolbarIssue(await seriousA11yViolations(page))).toEqual([]);

      // Act: reload
      await page.reload();
      await settledInvoices(page);

      // Assess: still pages of 50, and the preference says so
      await expect.poll(() => rows(page).count(), { timeout: 30_000 }).toBe(shown);
      dialog = await openPreferences(page);
      expect(await dialog.getByRole('radio', { name: INVOICES_TEXT.pageSizeOption(50) }).isChecked()).toBe(true);
    });
  });
});

import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { parseTaxIds, type Invoice } from '@portal/shared';
import { buildWorld } from '../support/tenant.js';
import { detailPanel } from '../support/invoice-detail.js';
import { HEADER_TEXT, signedIn } from '../support/header.js';
import { demoUser } from '../support/stage.js';
import { inBrowser, settledInvoices } from '../support/web.js';

// The header search shows its results where the eye is: the invoices found in the dropdown right under the box, and a
// search's list from its top, its first row in view, on a laptop and on a phone.

const world = buildWorld();

const SCREENS = [
  { name: 'laptop', width: 1366, height: 768 },
  { name: 'phone', width: 390, height: 844 },
] as const;

type Box = { x: number; y: number; width: number; height: number };
type Role = 'SUPPLIER' | 'MANAGER';

/** A seeded invoice of the role whose number no other seeded number contains: the search finds it alone. */
function knownInvoice(role: Role): Invoice {
  const [company] = parseTaxIds(demoUser(role).taxId);
  const found = world.invoices.find(
    (invoice) =>
      (role === 'SUPPLIER' ? invoice.supplierId : invoice.client) === company &&
      !world.invoices.some((other) => other !== invoice && other.id.includes(invoice.id)),
  );
  if (!found) throw new Error(`The seed has no invoice of the ${role} with a number of its own`);
  return found;
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('Not on screen');
  return box;
}

function inViewport(box: Box, screen: { width: number; height: number }): boolean {
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= screen.width && box.y + box.height <= screen.height;
}

/** The header's search box, opened from its button where the bar is narrow (a phone). */
async function headerSearch(page: Page, role: Role): Promise<Locator> {
  const search = page.getByRole('combobox', {
    name: role === 'SUPPLIER' ? HEADER_TEXT.supplierSearch : HEADER_TEXT.staffSearch,
  });
  if (!(await search.isVisible())) await page.getByRole('button', { name: HEADER_TEXT.openSearch }).click();
  await search.waitFor();
  return search;
}

/** The dropdown the search box opened (its listbox). */
async function dropdownOf(page: Page, search: Locator): Promise<Locator> {
  const id = await search.getAttribute('aria-controls');
  if (!id) throw new Error('The search box names no dropdown');
  return page.locator(`[id="${id}"]`);
}

describe.each(SCREENS)('the header search on a $name ($width×$height)', (screen) => {
  const viewport = { width: screen.width, height: screen.height };

  test('a supplier reads the invoice it typed right under the box, and choosing it opens its detail', async () => {
    // Prepare
    const invoice = knownInvoice('SUPPLIER');

    await inBrowser(
      `header-search-results-${screen.name}`,
      async (page) => {
        await signedIn(page, 'SUPPLIER');
        const search = await headerSearch(page, 'SUPPLIER');

        // Act
        await search.fill(invoice.id);

        // Assess: the invoice is an option of the dropdown, which opens right under the box, inside the screen
        const option = page.getByRole('option', { name: new RegExp(`^${invoice.id}\\b`) });
        await option.waitFor();
        const box = await boxOf(page.getByRole('search', { name: HEADER_TEXT.searchLabel }));
        const dropdown = await boxOf(await dropdownOf(page, search));
        const shown = await boxOf(option);
        expect(dropdown.y).toBeGreaterThanOrEqual(box.y + box.height - 1);
        expect(dropdown.y).toBeLessThanOrEqual(box.y + box.height + 12);
        expect(Math.abs(dropdown.x - box.x)).toBeLessThanOrEqual(12);
        // The first invoice found is the dropdown's first option, under its group's label.
        expect(shown.y - dropdown.y).toBeLessThan(60);
        expect(inViewport(shown, viewport)).toBe(true);
        const options = await page.getByRole('option').allTextContents();
        expect(options.at(-1)).toBe(HEADER_TEXT.allResults(invoice.id));

        // Act: choose it
        await option.click();

        // Assess: its detail opens, beside the list of that search
        await page.waitForURL(
          (url) =>
            url.pathname === `/invoices/${invoice.supplierId}/${invoice.type}/${invoice.id}` &&
            url.searchParams.get('search') === invoice.id,
        );
        const panel = detailPanel(page, invoice.id);
        await panel.waitFor({ timeout: 30_000 });
        expect(await panel.getByText(invoice.id, { exact: true }).first().isVisible()).toBe(true);
      },
      { viewport },
    );
  });

  test("Enter lands a manager scrolled down the list on the search's list, at its top, the first row in view", async () => {
    // Prepare
    const invoice = knownInvoice('MANAGER');

    await inBrowser(
      `header-search-list-${screen.name}`,
      async (page) => {
        await signedIn(page, 'MANAGER');
        // Down the list, where the eye is when a search starts.
        await page.mouse.wheel(0, 4_000);
        await expect.poll(() => page.evaluate(() => (globalThis as any).window.scrollY)).toBeGreaterThan(0);
        const search = await headerSearch(page, 'MANAGER');
        await search.fill(invoice.id);
        const last = page.getByRole('option', { name: HEADER_TEXT.allResults(invoice.id) });
        await last.waitFor();

        // Act
        await search.press('Enter');

        // Assess: the list of that search from its top, its first row (the invoice) inside the screen
        await page.waitForURL((url) => url.pathname === '/invoices' && url.searchParams.get('search') === invoice.id);
        await settledInvoices(page);
        await expect.poll(() => page.evaluate(() => (globalThis as any).window.scrollY)).toBe(0);
        const first = page.getByTestId('invoice-number').first();
        await expect.poll(() => first.textContent()).toBe(invoice.id);
        const header = await boxOf(page.locator('#portal-top-navigation'));
        const row = await boxOf(first);
        expect(row.y).toBeGreaterThanOrEqual(header.y + header.height);
        expect(inViewport(row, viewport)).toBe(true);
        // The list says what it shows: the search, among the filters applied.
        await page.getByText(`Búsqueda: ${invoice.id}`, { exact: true }).waitFor();
        if (screen.name === 'laptop') {
          expect(await page.getByTestId('search-filter').getByRole('searchbox').inputValue()).toBe(invoice.id);
        }
      },
      { viewport },
    );
  });
});

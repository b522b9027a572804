import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { documentScreen } from '../support/a11y.js';
import { inBrowser, invoicesTitleOf, signInToInvoices } from '../support/web.js';

/**
 * What a person sees first on the invoices list, under the title of their role (a supplier's «Mis comprobantes»,
 * staff's «Comprobantes recibidos»): at 1366×768 at least ten rows above the fold, the filters in one row (company,
 * status, search) with «Más filtros» for the rest, the due-date range on one line and no sideways scrolling of the
 * default columns; on a 390-px phone, invoices on the first screen and the filters behind a button.
 */
const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
const TEXT = {
  moreFilters: 'Más filtros',
  lessFilters: 'Menos filtros',
  filtersButton: 'Filtros',
  filtersRegion: 'Filtros de comprobantes',
  firstRow: ['Sociedad', 'Estado', 'Buscar'],
  dueFrom: 'Desde',
  dueTo: 'Hasta',
} as const;

/** The title of a role's invoices screen, with or without its counter. */
const titleOf = (role: 'SUPPLIER' | 'MANAGER') => new RegExp(`^${invoicesTitleOf(role)}( \\(|$)`);

/** Rows (or phone cards) of the list whose bottom is inside the viewport, as the person sees them without scrolling. */
async function rowsAboveFold(page: Page): Promise<number> {
  const height = page.viewportSize()!.height;
  return page.getByTestId('invoice-number').evaluateAll(
    (cells, fold) =>
      cells.filter((cell) => {
        const box = cell.getBoundingClientRect();
        return box.height > 0 && box.bottom <= fold;
      }).length,
    height,
  );
}

/** The labels of the filter fields a person sees, in order. */
async function visibleFilterLabels(page: Page): Promise<string[]> {
  const region = page.getByRole('region', { name: TEXT.filtersRegion });
  return region.locator('label').evaluateAll((labels) =>
    labels
      .filter((label) => {
        const box = label.getBoundingClientRect();
        return box.width > 0 && box.height > 0;
      })
      .map((label) => label.textContent?.trim() ?? ''),
  );
}

/** Whether the table's own horizontally scrolling box is wider than what it shows. */
function scrollsSideways(page: Page): Promise<boolean> {
  return page
    .locator('table')
    .first()
    .evaluate((table: any) => {
      const view = (globalThis as any).window;
      let box = table.parentElement;
      while (box && !['auto', 'scroll'].includes(view.getComputedStyle(box).overflowX)) box = box.parentElement;
      return box ? box.scrollWidth > box.clientWidth + 1 : false;
    });
}

describe('the invoices list, first screen', () => {
  for (const role of ['SUPPLIER', 'MANAGER'] as const) {
    test(`at 1366×768 a ${role.toLowerCase()} sees ten rows, one row of filters and no sideways scroll`, async () => {
      await inBrowser(
        `invoices-first-screen-${role}`,
        async (page) => {
          await signInToInvoices(page, role);
          expect(await page.getByRole('heading', { level: 1 }).innerText()).toMatch(titleOf(role));
          // The menu names the screen as its title does.
          await page
            .getByRole('navigation')
            .getByRole('link', { name: invoicesTitleOf(role), exact: true })
            .waitFor();
          await expect.poll(() => rowsAboveFold(page)).toBeGreaterThanOrEqual(10);
          expect(await visibleFilterLabels(page)).toEqual(TEXT.firstRow);
          expect(await scrollsSideways(page)).toBe(false);

          // «Más filtros» opens the rest, the due-date range on one line.
          await page.getByRole('button', { name: TEXT.moreFilters }).click();
          const from = page.getByTestId('due-from').locator('input');
          const to = page.getByTestId('due-to').locator('input');
          await from.waitFor();
          const [fromBox, toBox] = [await from.boundingBox(), await to.boundingBox()];
          expect(Math.abs(fromBox!.y - toBox!.y)).toBeLessThan(2);
          expect(toBox!.x).toBeGreaterThan(fromBox!.x);
          await page.getByRole('button', { name: TEXT.lessFilters }).click();
          await expect.poll(() => rowsAboveFold(page)).toBeGreaterThanOrEqual(10);
          if (role === 'SUPPLIER') await documentScreen(page, 'supplier-list-1366');
        },
        { viewport: LAPTOP },
      );
    });

    test(`on a 390-px phone a ${role.toLowerCase()} sees invoices first, the filters behind a button`, async () => {
      await inBrowser(
        `invoices-first-screen-phone-${role}`,
        async (page) => {
          await signInToInvoices(page, role);
          expect(await page.getByRole('heading', { level: 1 }).innerText()).toMatch(titleOf(role));
          await expect.poll(() => rowsAboveFold(page)).toBeGreaterThanOrEqual(3);
          expect(await visibleFilterLabels(page)).toEqual([]);
          if (role === 'SUPPLIER') await documentScreen(page, 'supplier-list-390');
          await page.getByRole('button', { name: TEXT.filtersButton, exact: true }).click();
          await expect.poll(() => visibleFilterLabels(page)).toEqual(TEXT.firstRow);
        },
        { viewport: PHONE },
      );
    });
  }
});

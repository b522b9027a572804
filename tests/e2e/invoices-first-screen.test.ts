import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { documentScreen } from '../support/a11y.js';
import { detailPanel } from '../support/invoice-detail.js';
import { invoiceCards } from '../support/invoices.js';
import { inBrowser, invoicesTitleOf, signInToInvoices } from '../support/web.js';

/**
 * What a person sees first on the invoices list, under the title of their role (a supplier's «Mis comprobantes»,
 * staff's «Comprobantes recibidos»): at 1366×768 at least ten rows above the fold, the filters in one row (company,
 * status, search) with «Más filtros» for the rest, the due-date range on one line and no sideways scrolling of the
 * default columns; on a 390-px phone, invoices as cards on the first screen (number, amount and status of three in
 * view, nothing wider than the screen), the filters behind a button, and a card's number opening the invoice.
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

/** The title of a role's invoices screen, with or without its counter (beside it, or under it on a phone). */
const titleOf = (role: 'SUPPLIER' | 'MANAGER') => new RegExp(`^${invoicesTitleOf(role)}(\\s+\\(|\\s*$)`);

/** Rows of the table whose bottom is inside the viewport, as the person sees them without scrolling. */
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

/**
 * The phone's cards whose number, amount and status all lie inside the window, top to bottom and side to side: what
 * the person reads of them without scrolling.
 */
function cardsReadAboveFold(page: Page): Promise<number> {
  return invoiceCards(page).evaluateAll((cards) => {
    const view = globalThis as unknown as { innerWidth: number; innerHeight: number };
    const inView = (element: (typeof cards)[number] | null) => {
      const box = element?.getBoundingClientRect();
      return !!box && box.height > 0 && box.top >= 0 && box.bottom <= view.innerHeight && box.right <= view.innerWidth;
    };
    return cards.filter((card) =>
      ['invoice-number', 'invoice-amount', 'invoice-status'].every((testId) =>
        inView(card.querySelector(`[data-testid="${testId}"]`)),
      ),
    ).length;
  });
}

/** Whether the page itself is wider than the window (document.scrollingElement scrolls sideways). */
function pageScrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const view = globalThis as unknown as {
      innerWidth: number;
      document: { scrollingElement: { scrollWidth: number } };
    };
    return view.document.scrollingElement.scrollWidth > view.innerWidth;
  });
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

    test(`on a 390-px phone a ${role.toLowerCase()} sees invoices as cards first, the filters behind a button`, async () => {
      await inBrowser(
        `invoices-first-screen-phone-${role}`,
        async (page) => {
          await signInToInvoices(page, role);
          expect(await page.getByRole('heading', { level: 1 }).innerText()).toMatch(titleOf(role));

          // Assess: cards, not the table; three of them read without scrolling, nothing wider than the phone
          await expect.poll(() => cardsReadAboveFold(page)).toBeGreaterThanOrEqual(3);
          expect(await page.locator('table').filter({ visible: true }).count()).toBe(0);
          expect(await pageScrollsSideways(page)).toBe(false);
          // A card says who the other party is and when it is paid, as the table's columns do.
          const first = invoiceCards(page).first();
          await first.getByTestId(role === 'SUPPLIER' ? 'invoice-client' : 'invoice-supplier').waitFor();
          await first.getByTestId('invoice-payment-date').waitFor();
          expect(await visibleFilterLabels(page)).toEqual([]);
          if (role === 'SUPPLIER') await documentScreen(page, 'supplier-list-390');

          // Act: the number of the second card, tapped
          const second = invoiceCards(page).nth(1);
          const number = (await second.getByTestId('invoice-number').innerText()).trim();
          await second.getByRole('link', { name: `Ver el detalle del comprobante ${number}` }).tap();

          // Assess: its sidebar opens, at its own address
          await detailPanel(page, number).waitFor({ timeout: 30_000 });
          expect(new URL(page.url()).pathname).toMatch(new RegExp(`^/invoices/[^/]+/[^/]+/${number}$`));
          await page.goBack();
          await detailPanel(page, number).waitFor({ state: 'detached' });

          // The filters behind their button, as before
          await page.getByRole('button', { name: TEXT.filtersButton, exact: true }).click();
          await expect.poll(() => visibleFilterLabels(page)).toEqual(TEXT.firstRow);
        },
        { viewport: PHONE, hasTouch: true },
      );
    });
  }
});

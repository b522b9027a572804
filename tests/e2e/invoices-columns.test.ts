import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { seriousA11yViolations } from '../support/a11y.js';
import { INVOICES_TEXT, withoutShellToolbarIssue } from '../support/invoices.js';
import { demoUser } from '../support/stage.js';
import { inBrowser, openLogin, settledInvoices, signInAs } from '../support/web.js';

/** Common laptop and desktop screens. */
const SCREENS = [
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
] as const;

/** The column headers as the table shows them (web/src/pages/invoices/messages.ts). */
const HEADER = {
  number: 'N° de comprobante',
  type: 'Tipo',
  client: 'Cliente',
  supplier: 'Proveedor',
  amount: 'Monto',
  status: 'Estado',
  certStatus: 'Estado Sunat',
  issuedAt: 'Fecha de emisión',
  paymentDate: 'Fecha de pago',
  file: 'Archivo',
} as const;

/** The table cell (td or row-header th) that holds a test id's element in the first row. */
function firstRowCell(page: Page, testId: string): Locator {
  return page.getByTestId(testId).first().locator('xpath=ancestor::*[self::td or self::th][1]');
}

/**
 * Where a cell is against what the user sees: the viewport, and the table's own horizontally scrolling
 * box (its visible part, and how far it is scrolled).
 */
async function placeOf(cell: Locator) {
  return cell.evaluate((element: any) => {
    const view = (globalThis as any).window;
    let box = element.parentElement;
    while (box && !['auto', 'scroll'].includes(view.getComputedStyle(box).overflowX)) box = box.parentElement;
    const cellRect = element.getBoundingClientRect();
    const boxRect = box?.getBoundingClientRect();
    return {
      left: cellRect.left as number,
      right: cellRect.right as number,
      boxLeft: (boxRect?.left ?? 0) as number,
      boxRight: (boxRect?.right ?? view.innerWidth) as number,
      scrolled: (box?.scrollLeft ?? 0) as number,
      viewport: view.innerWidth as number,
    };
  });
}

function columnHeaders(page: Page): Promise<string[]> {
  return page
    .getByRole('columnheader')
    .allInnerTexts()
    .then((texts) => texts.map((text) => text.trim()).filter(Boolean));
}

async function openPreferences(page: Page) {
  await page.getByRole('button', { name: INVOICES_TEXT.preferences, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: INVOICES_TEXT.preferences });
  await dialog.getByText('Columnas', { exact: true }).waitFor();
  return dialog;
}

/** A column's visibility toggle in the preferences dialog (Cloudscape labels each with its column). */
function columnToggle(dialog: Locator, label: string): Locator {
  return dialog.getByRole('list', { name: 'Columnas' }).getByRole('checkbox', { name: label, exact: true });
}

describe('the invoices list on a laptop', () => {
  for (const role of ['SUPPLIER', 'MANAGER'] as const) {
    const party = role === 'SUPPLIER' ? 'client' : 'supplier';
    const hidden = role === 'SUPPLIER' ? 'supplier' : 'client';

    test(`a ${role === 'SUPPLIER' ? 'supplier' : 'manager'} reads number, type, ${party}, amount and status of a row without scrolling, at 1366, 1440 and 1920 px`, async () => {
      const account = demoUser(role);

      await inBrowser(
        `invoices-columns-${role}`,
        async (page) => {
          await openLogin(page);
          await signInAs(page, account);
          await page.waitForURL((url) => url.pathname === '/');
          await settledInvoices(page);

          // Assess: what matters first; the party that is always the same is not shown by default
          const headers = await columnHeaders(page);
          expect(headers.slice(0, 5)).toEqual([
            HEADER.number,
            HEADER.type,
            HEADER[party],
            HEADER.amount,
            HEADER.status,
          ]);
          expect(headers).not.toContain(HEADER[hidden]);

          for (const screen of SCREENS) {
            // Act
            await page.setViewportSize(screen);
            await page.getByTestId('invoice-status').first().waitFor();

            // Assess: the five cells of the first row lie in the viewport and in the table's visible part,
            // the table not scrolled sideways
            for (const testId of [
              'invoice-number',
              'invoice-type',
              `invoice-${party}`,
              'invoice-amount',
              'invoice-status',
            ]) {
              const place = await placeOf(firstRowCell(page, testId));
              const where = `${testId} at ${screen.width} px: ${JSON.stringify(place)}`;
              expect(place.scrolled, where).toBe(0);
              expect(place.left, where).toBeGreaterThanOrEqual(0);
              expect(place.right, where).toBeLessThanOrEqual(screen.width);
              expect(place.left, where).toBeGreaterThanOrEqual(place.boxLeft);
              expect(place.right, where).toBeLessThanOrEqual(place.boxRight);
            }
          }
          // At 1920 px every column fits.
          const last = await placeOf(firstRowCell(page, 'invoice-files'));
          expect(last.right).toBeLessThanOrEqual(last.boxRight);
        },
        { viewport: SCREENS[0] },
      );
    });
  }

  test('a supplier chooses its columns in "Preferencias"; the choice is still there after a reload', async () => {
    const supplier = demoUser('SUPPLIER');

    await inBrowser(
      'invoices-columns-preferences',
      async (page) => {
        await openLogin(page);
        await signInAs(page, supplier);
        await page.waitForURL((url) => url.pathname === '/');
        await settledInvoices(page);

        // Act: 'Proveedor' on, 'Fecha de pago' off, lines wrapped
        let dialog = await openPreferences(page);
        expect(await columnToggle(dialog, HEADER.supplier).isChecked()).toBe(false);
        expect(await columnToggle(dialog, HEADER.paymentDate).isChecked()).toBe(true);
        expect(withoutShellToolbarIssue(await seriousA11yViolations(page))).toEqual([]);
        await columnToggle(dialog, HEADER.supplier).click();
        await columnToggle(dialog, HEADER.paymentDate).click();
        await dialog.getByRole('checkbox', { name: 'Ajustar líneas', exact: true }).check();
        await dialog.getByRole('button', { name: INVOICES_TEXT.confirm }).click();
        await dialog.waitFor({ state: 'hidden' });

        // Assess
        await expect.poll(() => columnHeaders(page)).toContain(HEADER.supplier);
        expect(await columnHeaders(page)).not.toContain(HEADER.paymentDate);
        expect(await page.getByTestId('invoice-supplier').count()).toBeGreaterThan(0);
        expect(await page.getByTestId('invoice-payment-date').count()).toBe(0);

        // Act: reload
        await page.reload();
        await settledInvoices(page);

        // Assess: the same columns, and the dialog says so
        const headers = await columnHeaders(page);
        expect(headers).toContain(HEADER.supplier);
        expect(headers).not.toContain(HEADER.paymentDate);
        expect(headers.indexOf(HEADER.supplier)).toBe(headers.indexOf(HEADER.client) + 1);
        dialog = await openPreferences(page);
        expect(await columnToggle(dialog, HEADER.supplier).isChecked()).toBe(true);
        expect(await columnToggle(dialog, HEADER.paymentDate).isChecked()).toBe(false);
        expect(await dialog.getByRole('checkbox', { name: 'Ajustar líneas', exact: true }).isChecked()).toBe(true);
        // The number opens the invoice: it cannot be hidden.
        expect(await columnToggle(dialog, HEADER.number).isDisabled()).toBe(true);
      },
      { viewport: SCREENS[0] },
    );
  });
});

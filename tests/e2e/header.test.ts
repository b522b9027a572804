import { describe, expect, test } from 'vitest';
import { INVOICE_STATUSES, INVOICE_STATUS_LABELS, parseTaxIds } from '@portal/shared';
import { SUPPLIERS, buildWorld } from '../support/tenant.js';
import { documentScreen, seriousA11yViolations } from '../support/a11y.js';
import { HEADER_TEXT, signedIn } from '../support/header.js';
import { INVOICES_TEXT, freshCorrelative, ublFactura, uploadXml } from '../support/invoices.js';
import { demoUser } from '../support/stage.js';
import { inBrowser, rowAttribute, settledInvoices } from '../support/web.js';

const world = buildWorld();

describe('header search', () => {
  test('a supplier searches one of its invoices by number and lands on the filtered table', async () => {
    // Prepare: an invoice of the supplier's own, from the seed
    const supplier = demoUser('SUPPLIER');
    const invoice = world.invoices.find(
      (candidate) => candidate.supplierId === parseTaxIds(supplier.taxId)[0] && candidate.type === 'FACTURA',
    )!;

    await inBrowser('header-supplier-search', async (page) => {
      await signedIn(page, 'SUPPLIER');

      // Act
      const search = page.getByRole('combobox', { name: HEADER_TEXT.supplierSearch });
      await search.fill(invoice.id);
      await search.press('Enter');

      // Assess: the invoices screen, filtered by that number
      await page.waitForURL((url) => url.pathname === '/invoices' && url.searchParams.get('search') === invoice.id);
      await settledInvoices(page);
      await expect
        .poll(() => page.getByTestId('invoice-number').allTextContents())
        .toSatisfy(
          (numbers: string[]) => numbers.includes(invoice.id) && numbers.every((n) => n.startsWith(invoice.id)),
        );
      expect(await search.inputValue()).toBe('');
    });
  });

  test('a manager finds a supplier by business name and opens the invoices it issued', async () => {
    // Prepare: a supplier of the seed by the first word of its business name
    const supplier = SUPPLIERS[1]!;
    const typed = supplier.name.split(' ')[0]!.slice(0, 5);

    await inBrowser('header-manager-search', async (page) => {
      await signedIn(page, 'MANAGER');

      // Act
      const search = page.getByRole('combobox', { name: HEADER_TEXT.staffSearch });
      await search.fill(typed);
      // The supplier's own option starts with its name (the invoices it issued name it after their number).
      const option = page.getByRole('option', { name: new RegExp(`^${supplier.name.replace(/\./g, '\\.')}`) });
      await option.waitFor();

      // Assess: the match shows its RUC; the last option still searches invoices by the text
      await expect.poll(() => option.textContent()).toContain(supplier.taxId);
      await expect
        .poll(async () => (await page.getByRole('option').allTextContents()).at(-1))
        .toBe(HEADER_TEXT.allResults(typed));
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'header-search');

      // Act: choose the supplier
      await option.click();

      // Assess: the invoices of that issuer only
      await page.waitForURL((url) => url.pathname === '/invoices' && url.searchParams.get('issuer') === supplier.taxId);
      await settledInvoices(page);
      await expect
        .poll(() => rowAttribute(page, 'invoice-number', 'data-supplier-id'))
        .toSatisfy((ids: (string | null)[]) => ids.length > 0 && ids.every((id) => id === supplier.taxId));
    });
  });

  test('on a 375 px screen the search stays reachable behind its button', async () => {
    const supplier = demoUser('SUPPLIER');
    const invoice = world.invoices.find((candidate) => candidate.supplierId === parseTaxIds(supplier.taxId)[0])!;

    await inBrowser('header-mobile-search', async (page) => {
      await page.setViewportSize({ width: 375, height: 812 });
      await signedIn(page, 'SUPPLIER');

      // Act
      await page.getByRole('button', { name: HEADER_TEXT.openSearch }).click();
      const search = page.getByRole('combobox', { name: HEADER_TEXT.supplierSearch });
      await search.fill(invoice.id);
      await search.press('Enter');

      // Assess
      await page.waitForURL((url) => url.searchParams.get('search') === invoice.id);
      await settledInvoices(page);
      expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        375,
      );
    });
  });
});

describe('status legend', () => {
  test('explains every invoice status with the labels and indicators of the invoices table', async () => {
    await inBrowser('status-legend', async (page) => {
      await signedIn(page, 'SUPPLIER');

      // Act
      await page.getByRole('button', { name: HEADER_TEXT.legend }).click();

      // Assess
      const dialog = page.getByRole('dialog', { name: HEADER_TEXT.legend });
      await dialog.waitFor();
      const entries = dialog.getByTestId('status-legend').getByRole('listitem');
      await expect(entries.count()).resolves.toBe(INVOICE_STATUSES.length);
      for (const status of INVOICE_STATUSES) {
        await expect(dialog.getByText(INVOICE_STATUS_LABELS[status], { exact: true }).count()).resolves.toBe(1);
      }
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'status-legend');

      // Act: Escape closes it
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    });
  });
});

describe('global alert dialog', () => {
  test("has spec §2's shape where the product opens it: 'Buen trabajo' after an XML upload", async () => {
    // Prepare: a factura of this run, so that the upload is received
    const factura = ublFactura(freshCorrelative());

    await inBrowser('alert-dialog', async (page) => {
      await signedIn(page, 'SUPPLIER');

      // Act
      await uploadXml(page, factura);

      // Assess: header, message and details; one full-width 'Entendido'; 34rem wide on top of everything
      const dialog = page.getByRole('dialog', { name: INVOICES_TEXT.received });
      await dialog.waitFor();
      await dialog.getByText(INVOICES_TEXT.receivedMessage, { exact: true }).waitFor();
      expect(await dialog.getByText(factura.invoiceId).count()).toBeGreaterThan(0);
      const buttons = dialog.getByRole('button');
      expect(await buttons.allTextContents()).toEqual([INVOICES_TEXT.understood]);
      const style = () =>
        dialog.evaluate((element: any) => {
          const window = element.ownerDocument.defaultView;
          const rootFont = parseFloat(window.getComputedStyle(element.ownerDocument.documentElement).fontSize);
          const box = element.getBoundingClientRect();
          const button = element.querySelector('button').getBoundingClientRect();
          return {
            widthInRem: box.width / rootFont,
            widthShare: box.width / window.innerWidth,
            buttonShare: button.width / (box.width - 2 * parseFloat(window.getComputedStyle(element).paddingLeft)),
            zIndex: window.getComputedStyle(element).zIndex,
            draggable: element.draggable,
          };
        });
      const wide = await style();
      expect(wide.widthInRem).toBeCloseTo(34, 1);
      expect(wide.buttonShare).toBeCloseTo(1, 2);
      expect(wide.zIndex).toBe('10000');
      expect(wide.draggable).toBe(false);

      // Act: a phone-sized window
      await page.setViewportSize({ width: 575, height: 800 });

      // Assess: 90% of the width
      await expect.poll(async () => (await style()).widthShare).toBeCloseTo(0.9, 2);

      // Act: Escape closes it
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    });
  });
});

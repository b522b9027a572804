import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { INVOICE_STATUS_LABELS, INVOICE_TYPE_LABELS } from '@portal/shared';
import { CLIENTS, SUPPLIERS, buildWorld } from '../support/tenant.js';
import { documentScreen, seriousA11yViolations } from '../support/a11y.js';
import {
  INVOICES_TEXT,
  columnTexts,
  invoiceCards,
  invoiceRow,
  invoiceWithAttachments,
  withoutShellToolbarIssue,
} from '../support/invoices.js';
import { demoUser, stage } from '../support/stage.js';
import { appUrl, inBrowser, rowAttribute, settledInvoices, startSignedIn } from '../support/web.js';

/** proveedor2@demo.pe's invoices at the manager's first company: seeded and never changed by any test. */
const OTHER_SUPPLIER = SUPPLIERS[1]!;
const seeded = buildWorld().invoices.filter(
  (invoice) => invoice.supplierId === OTHER_SUPPLIER.taxId && invoice.client === CLIENTS[0]!.taxId,
);

async function pick(page: Page, filterTestId: string, options: string[]) {
  await page.getByTestId(filterTestId).getByRole('button').first().click();
  for (const option of options) await page.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Escape');
}

const query = (page: Page) => new URL(page.url()).searchParams;

describe('invoice filters', () => {
  test('a manager narrows by status and, behind "Más filtros", by type and issuer; tokens undo each', async () => {
    // Prepare: the expected rows, from the seed
    const manager = demoUser('MANAGER');
    const statuses = ['ACCEPTED', 'COMPLETED'] as const;
    const expected = seeded
      .filter((invoice) => invoice.type === 'FACTURA' && (statuses as readonly string[]).includes(invoice.status))
      .map((invoice) => invoice.id)
      .sort();
    expect(expected.length).toBeGreaterThan(1);

    await inBrowser('invoices-filters', async (page) => {
      await startSignedIn(page, manager);
      await settledInvoices(page);
      await page.goto(appUrl('/invoices'));
      await settledInvoices(page);

      // Act
      await pick(
        page,
        'status-filter',
        statuses.map((status) => INVOICE_STATUS_LABELS[status]),
      );
      await page.getByRole('button', { name: INVOICES_TEXT.moreFilters }).click();
      await pick(page, 'type-filter', [INVOICE_TYPE_LABELS.FACTURA]);
      await page.getByTestId('issuer-filter').getByRole('textbox').fill(OTHER_SUPPLIER.taxId);

      // Assess: exactly the seeded rows, the filter in the URL, each filter as a token
      await expect.poll(async () => (await columnTexts(page, 'invoice-number')).sort()).toEqual(expected);
      expect(new Set(await columnTexts(page, 'invoice-type'))).toEqual(new Set([INVOICE_TYPE_LABELS.FACTURA]));
      expect(new Set(await rowAttribute(page, 'invoice-number', 'data-supplier-id'))).toEqual(
        new Set([OTHER_SUPPLIER.taxId]),
      );
      expect(Object.fromEntries(query(page))).toEqual({
        invoiceStatus: 'COMPLETED,ACCEPTED',
        invoiceType: 'FACTURA',
        issuer: OTHER_SUPPLIER.taxId,
      });
      for (const token of [
        'Estado: Completado',
        'Estado: Aceptado',
        'Tipo: Factura',
        `Emisor: ${OTHER_SUPPLIER.taxId}`,
      ]) {
        expect(await page.getByText(token, { exact: true }).isVisible()).toBe(true);
      }
      expect(await page.getByRole('button', { name: INVOICES_TEXT.lessFilters }).isVisible()).toBe(true);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'invoices-filters-expanded');

      // Act: remove the type token
      await page.getByRole('button', { name: 'Quitar el filtro Tipo: Factura' }).click();

      // Assess: the notes of credit of those statuses come back too
      const withAnyType = seeded
        .filter((invoice) => (statuses as readonly string[]).includes(invoice.status))
        .map((invoice) => invoice.id)
        .sort();
      await expect.poll(async () => (await columnTexts(page, 'invoice-number')).sort()).toEqual(withAnyType);
      expect(query(page).get('invoiceType')).toBeNull();

      // Act: 'Limpiar filtros'
      await page.getByRole('button', { name: INVOICES_TEXT.clearFilters }).first().click();

      // Assess: the issuer filter is gone (other suppliers' invoices are listed again), and no filter left.
      // Other files add invoices to this company, so the first page may hold a single other supplier.
      await expect
        .poll(async () =>
          (await rowAttribute(page, 'invoice-number', 'data-supplier-id')).some(
            (supplierId) => supplierId !== OTHER_SUPPLIER.taxId,
          ),
        )
        .toBe(true);
      expect([...query(page).keys()]).toEqual([]);
      expect(await page.getByTestId('issuer-filter').getByRole('textbox').inputValue()).toBe('');
    });
  });

  test('the URL parameters the header links to are honoured (?issuer=, ?search=), then office and responsible', async () => {
    const manager = demoUser('MANAGER');
    const numbers = seeded.map((invoice) => invoice.id).sort();
    const search = 'F001-12';

    await inBrowser('invoices-url-filters', async (page) => {
      await startSignedIn(page, manager);
      await settledInvoices(page);

      // Act
      await page.goto(appUrl(`/invoices?issuer=${OTHER_SUPPLIER.taxId}`));
      await settledInvoices(page);

      // Assess: that supplier's invoices only, and the field that says so open and filled
      await expect.poll(async () => (await columnTexts(page, 'invoice-number')).sort()).toEqual(numbers);
      expect(await page.getByTestId('issuer-filter').getByRole('textbox').inputValue()).toBe(OTHER_SUPPLIER.taxId);

      // Act
      await page.goto(appUrl(`/invoices?search=${search}&issuer=${OTHER_SUPPLIER.taxId}`));
      await settledInvoices(page);

      // Assess: the numbers that start with the search
      const found = numbers.filter((id) => id.startsWith(search));
      await expect.poll(async () => (await columnTexts(page, 'invoice-number')).sort()).toEqual(found);
      expect(await page.getByRole('searchbox', { name: 'Buscar', exact: true }).inputValue()).toBe(search);
      expect(await page.getByText(`Búsqueda: ${search}`, { exact: true }).isVisible()).toBe(true);

      // Act: the office, then the responsible suggested by name (GET /employees?acquirer&q)
      await page.goto(appUrl(`/invoices?issuer=${OTHER_SUPPLIER.taxId}`));
      await settledInvoices(page);
      await page.getByTestId('office-filter').getByRole('button').first().click();
      await page.getByRole('option', { name: /^Sede Central/ }).click();
      const atOffice = seeded.filter((invoice) => invoice.officeId === 'Sede Central');
      await expect
        .poll(async () => (await columnTexts(page, 'invoice-number')).sort())
        .toEqual(atOffice.map((invoice) => invoice.id).sort());
      const carmen = atOffice.find((invoice) => invoice.responsible?.fullName.startsWith('Carmen'))!.responsible!;
      await page.getByTestId('responsible-filter').getByRole('combobox').fill('Carm');
      await page.getByRole('option', { name: new RegExp(carmen.fullName) }).click();

      // Assess
      const theirs = atOffice.filter((invoice) => invoice.responsible?.id === carmen.id);
      await expect
        .poll(async () => (await columnTexts(page, 'invoice-number')).sort())
        .toEqual(theirs.map((invoice) => invoice.id).sort());
      expect(query(page).get('responsible')).toBe(carmen.id);
      expect(query(page).get('office')).toBe('Sede Central');
      for (const token of [`Responsable: ${carmen.fullName}`, 'Oficina: Sede Central']) {
        expect(await page.getByText(token, { exact: true }).isVisible()).toBe(true);
      }
    });
  });

  test("a supplier opens a row's PDF and lists its attachments, from the keyboard too", async () => {
    // Prepare: an invoice of its own with a PDF and two attachments
    const supplier = demoUser('SUPPLIER');
    const invoice = await invoiceWithAttachments();
    const s3 = stage().endpoints.s3;

    await inBrowser('invoice-row-actions', async (page) => {
      await startSignedIn(page, supplier);
      await settledInvoices(page);
      await page.goto(appUrl(`/invoices?search=${invoice.id}`));
      await settledInvoices(page);
      const row = invoiceRow(page, invoice.id);
      await row.waitFor();
      const actions = row.getByRole('button', { name: INVOICES_TEXT.fileActions(invoice.id) });

      // Act: 'Ver PDF'
      await actions.click();
      const pdfResponse = page
        .context()
        .waitForEvent(
          'response',
          (response) => response.url().startsWith(s3) && response.url().includes(invoice.pdfUrl!),
        );
      const tab = page.context().waitForEvent('page');
      await page.getByRole('menuitem', { name: INVOICES_TEXT.viewPdf }).click();

      // Assess: a new tab receives the PDF
      expect((await tab) === page).toBe(false);
      const pdf = await pdfResponse;
      expect(pdf.status()).toBe(200);
      expect(pdf.headers()['content-type']).toBe('application/pdf');

      // Act: 'Ver adjuntos' with the keyboard only
      await actions.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('menuitem', { name: INVOICES_TEXT.viewAttachments }).waitFor();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');

      // Assess: the modal lists both files by name, each a link
      const modal = page.getByRole('dialog', { name: INVOICES_TEXT.attachmentsTitle(invoice.id) });
      await modal.waitFor();
      const names = [
        `${invoice.supplierId}-${invoice.id}-adjunto-1.pdf`,
        `${invoice.supplierId}-${invoice.id}-adjunto-2.png`,
      ];
      for (const name of names) await modal.getByRole('link', { name: new RegExp(name) }).waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);

      // Act: open the picture
      const imageResponse = page
        .context()
        .waitForEvent(
          'response',
          (response) => response.url().startsWith(s3) && response.url().includes(invoice.attachments[1]!),
        );
      await modal.getByRole('link', { name: new RegExp(names[1]!) }).click();

      // Assess
      const image = await imageResponse;
      expect(image.status()).toBe(200);
      expect(image.headers()['content-type']).toBe('image/png');
      await modal.getByRole('button', { name: INVOICES_TEXT.close }).last().click();
      await modal.waitFor({ state: 'hidden' });

      // Act: the invoice number opens its detail beside the table
      await row.getByRole('link', { name: `Ver el detalle del comprobante ${invoice.id}` }).click();

      // Assess
      await page.getByLabel(`Detalle del comprobante ${invoice.id}`).first().waitFor();
    });
  });

  test('at 375 px the screen fits the phone: filters behind a button, then stacked, the invoices as cards', async () => {
    const supplier = demoUser('SUPPLIER');

    await inBrowser('invoices-mobile', async (page) => {
      await page.setViewportSize({ width: 375, height: 812 });
      await startSignedIn(page, supplier);
      await settledInvoices(page);

      // A card an invoice, no table to scroll sideways.
      expect(await invoiceCards(page).count()).toBeGreaterThan(0);
      expect(await page.locator('table').filter({ visible: true }).count()).toBe(0);
      expect(await page.getByRole('button', { name: INVOICES_TEXT.newInvoice }).isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: INVOICES_TEXT.moreFilters }).isVisible()).toBe(false);
      await page.getByRole('button', { name: INVOICES_TEXT.filters, exact: true }).click();
      expect(await page.getByRole('button', { name: INVOICES_TEXT.moreFilters }).isVisible()).toBe(true);
      const pageWidth = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number);
      expect(pageWidth).toBeLessThanOrEqual(375);
      expect(withoutShellToolbarIssue(await seriousA11yViolations(page))).toEqual([]);
      await documentScreen(page, 'invoices-mobile');
    });
  });
});

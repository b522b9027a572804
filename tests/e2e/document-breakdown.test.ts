import { describe, expect, test } from 'vitest';
import type { Locator } from 'playwright-core';
import { routes } from '@portal/shared';
import { SUPPLIERS, tenantFixture } from '../support/tenant.js';
import { seriousA11yViolations, documentScreen } from '../support/a11y.js';
import { call } from '../support/api.js';
import { detailPanel } from '../support/invoice-detail.js';
import {
  INVOICES_TEXT,
  freshCorrelative,
  invoiceRow,
  supplierToken,
  withoutShellToolbarIssue,
  uploadXml,
} from '../support/invoices.js';
import { demoUser } from '../support/stage.js';
import { uploadAs } from '../support/uploads.js';
import { appUrl, inBrowser, openLogin, signInAs, signInWithPassword } from '../support/web.js';

// The sidebar shows what the XML states beyond its total (docs/ap-documents.md), to the supplier
// who sent it and to the staff who review it; a transferencia gratuita says there is nothing to pay.

/** A corpus document renumbered for this run (the stage is shared with the other tests). */
function corpusDocument(name: string, number: string, correlative: string): { bytes: Buffer; invoiceId: string } {
  const xml = tenantFixture(`ubl/${name}`);
  expect(xml).toContain(number);
  const [series] = number.split('-');
  return {
    bytes: Buffer.from(xml.replaceAll(number, `${series}-${correlative.padStart(8, '0')}`)),
    invoiceId: `${series}-${Number(correlative)}`,
  };
}

const textOf = async (scope: Locator, testId: string) => (await scope.getByTestId(testId).innerText()).trim();

describe('the breakdown of a document in the sidebar', () => {
  test('a supplier uploads a factura with discounts and a charge and reads its breakdown', async () => {
    const supplier = demoUser('SUPPLIER');
    const factura = corpusDocument('factura-descuento-cargo.xml', 'F001-00000603', freshCorrelative());

    await inBrowser('document-breakdown-supplier', async (page) => {
      await signInWithPassword(page, supplier);

      // Act: 'Cargar XML'; the stored invoice's detail opens behind 'Buen trabajo'
      await uploadXml(page, factura);
      const dialog = page.getByRole('dialog', { name: INVOICES_TEXT.received });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: INVOICES_TEXT.understood }).click();
      const panel = detailPanel(page, factura.invoiceId);
      await panel.waitFor({ timeout: 30_000 });

      // Assess: every line of the breakdown, in soles as es-PE writes them
      const breakdown = panel.getByTestId('invoice-breakdown');
      await breakdown.waitFor();
      expect(await textOf(breakdown, 'breakdown-operation-type')).toBe('0101 · Venta interna');
      expect(await textOf(breakdown, 'breakdown-sale-value')).toBe('S/ 9,500.00');
      expect(await textOf(breakdown, 'breakdown-igv')).toBe('S/ 1,710.00');
      expect(await textOf(breakdown, 'breakdown-isc')).toBe('S/ 0.00');
      expect(await textOf(breakdown, 'breakdown-icbper')).toBe('S/ 0.00');
      expect((await textOf(breakdown, 'breakdown-allowances')).split('\n')).toEqual([
        'S/ 600.00',
        'Descuento global que afecta la base imponible del IGV/IVAP: S/ 500.00',
        'Descuento global que no afecta la base imponible del IGV/IVAP: S/ 100.00',
      ]);
      expect((await textOf(breakdown, 'breakdown-charges')).split('\n')).toEqual([
        'S/ 120.00',
        'Cargo global que no afecta la base imponible del IGV/IVAP: S/ 120.00',
      ]);
      expect(await textOf(breakdown, 'breakdown-prepaid')).toBe('S/ 0.00');
      expect(await textOf(breakdown, 'breakdown-total')).toBe('S/ 11,230.00');
      expect(await panel.getByTestId('breakdown-free-of-charge').count()).toBe(0);
      expect(withoutShellToolbarIssue(await seriousA11yViolations(page))).toEqual([]);
      await breakdown.scrollIntoViewIfNeeded();
      await documentScreen(page, 'invoice-breakdown');
    });
  });

  test('the manager sees a transferencia gratuita marked «nada que pagar» in the list and the sidebar', async () => {
    // Prepare: the supplier sends a free-of-charge factura through the API
    const token = await supplierToken();
    const free = corpusDocument('factura-gratuita.xml', 'F001-00000601', freshCorrelative());
    const url = await uploadAs(token, 'INVOICE_XML', free.bytes, 'application/xml', 'gratuita.xml');
    expect((await call(routes.createInvoiceFromXml, { token, body: { url } })).status).toBe(201);
    const manager = demoUser('MANAGER');

    await inBrowser('document-breakdown-free', async (page) => {
      await openLogin(page);
      await signInAs(page, manager);
      await page.waitForURL((url) => url.pathname === '/');

      // Act: the invoice's own address, as the notification links it
      await page.goto(appUrl(`/invoices/${SUPPLIERS[0]!.taxId}/FACTURA/${free.invoiceId}?search=${free.invoiceId}`));
      const panel = detailPanel(page, free.invoiceId);
      await panel.waitFor({ timeout: 30_000 });

      // Assess: the row and the sidebar say there is nothing to pay, and the value given free
      const row = invoiceRow(page, free.invoiceId);
      expect(await row.getByTestId('invoice-amount').innerText()).toBe('S/ 0.00');
      expect((await row.getByTestId('invoice-free-of-charge').innerText()).trim()).toBe(
        'Transferencia gratuita: nada que pagar',
      );
      const alert = panel.getByTestId('breakdown-free-of-charge');
      expect(await alert.getByText('Transferencia gratuita: nada que pagar').isVisible()).toBe(true);
      const breakdown = panel.getByTestId('invoice-breakdown');
      expect(await textOf(breakdown, 'breakdown-free-value')).toBe('S/ 400.00');
      expect(await textOf(breakdown, 'breakdown-igv')).toBe('S/ 0.00');
      expect(await textOf(breakdown, 'breakdown-total')).toBe('S/ 0.00');
      expect(withoutShellToolbarIssue(await seriousA11yViolations(page))).toEqual([]);
      await alert.scrollIntoViewIfNeeded();
      await documentScreen(page, 'invoice-free-of-charge');
    });
  });
});

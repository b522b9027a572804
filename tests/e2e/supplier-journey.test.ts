import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { CLIENTS, SUPPLIERS } from '../support/tenant.js';
import { documentScreen, seriousA11yViolations } from '../support/a11y.js';
import {
  INVOICES_TEXT,
  columnTexts,
  followToPaid,
  freshCorrelative,
  invoiceRow,
  refreshUntil,
  ublFactura,
  uploadXml,
} from '../support/invoices.js';
import { demoUser } from '../support/stage.js';
import { MINIMAL_PDF } from '../support/uploads.js';
import { inBrowser, signInWithPassword } from '../support/web.js';

const SUPPLIER = SUPPLIERS[0]!;
const CLIENT = CLIENTS[0]!;

/** The global alert dialog of spec §2/§9 as the invoice-received message shows it. */
async function expectReceivedDialog(page: Page) {
  const dialog = page.getByRole('dialog', { name: INVOICES_TEXT.received });
  await dialog.waitFor();
  expect(await dialog.getByText(INVOICES_TEXT.receivedMessage, { exact: true }).isVisible()).toBe(true);
  return dialog;
}

describe('supplier journey', () => {
  test('uploads an XML and creates a PDF invoice, sees both, and follows the XML one to "Pagado"', async () => {
    // Prepare: two invoices of this run, numbered so that one search finds both (F001-<base>5, F001-<base>6)
    const supplier = demoUser('SUPPLIER');
    const base = freshCorrelative();
    const factura = ublFactura(`${base}5`);
    const pdfNumber = `F001-${base}6`;
    const search = `F001-${base}`;

    await inBrowser('supplier-journey', async (page) => {
      await signInWithPassword(page, supplier);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'invoices');

      // Act: 'Cargar XML' with the UBL 2.1 factura
      await uploadXml(page, factura);

      // Assess: spec §9's 'Buen trabajo' in the global dialog, one full-width 'Entendido', closed by Escape
      const dialog = await expectReceivedDialog(page);
      const understood = dialog.getByRole('button', { name: INVOICES_TEXT.understood });
      const [dialogBox, buttonBox] = [await dialog.boundingBox(), await understood.boundingBox()];
      expect(buttonBox!.width).toBeGreaterThan(dialogBox!.width * 0.85);
      expect(await page.getByRole('button', { name: INVOICES_TEXT.understood }).count()).toBe(1);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'invoice-upload-success');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });

      // Act: the same document again, then a file that is not an XML
      await uploadXml(page, factura);

      // Assess: spec §8's display rule (catalogue message, txId appended); the check before sending
      await page
        .getByText(/^Ya existe un comprobante con el mismo código para este proveedor\. \(código de transacción: .+\)$/)
        .waitFor();
      await page.getByLabel(INVOICES_TEXT.uploadXml).setInputFiles({
        name: 'factura.pdf',
        mimeType: 'application/pdf',
        buffer: MINIMAL_PDF,
      });
      await page.getByText('El archivo debe ser un XML de comprobante electrónico (.xml).').waitFor();

      // Act: 'Nuevo comprobante' without its PDF first
      await page.getByRole('button', { name: INVOICES_TEXT.newInvoice }).click();
      const panel = page.getByTestId('new-invoice-panel');
      await panel.getByRole('heading', { name: INVOICES_TEXT.newInvoice }).waitFor();
      expect(await panel.getByLabel('RUC del proveedor').inputValue()).toBe(SUPPLIER.taxId);
      // The business name is the one its RUC is registered with, not the XML's just uploaded, and it cannot be changed.
      const name = panel.getByLabel('Razón social del proveedor');
      expect(await name.inputValue()).toBe(SUPPLIER.name);
      expect(await name.getAttribute('readonly')).not.toBeNull();
      await panel.getByLabel('Serie').fill('F001');
      await panel.getByLabel('Correlativo').fill(`${base}6`);
      await panel.getByLabel('Cliente').click();
      await page.getByRole('option', { name: new RegExp(CLIENT.name) }).click();
      await panel.getByLabel('Fecha de emisión').fill('20/11/26');
      await panel.getByLabel('Importe total').fill('2360.00');
      await panel.getByLabel('IGV').fill('360.00');
      await panel.getByLabel('Notas').fill('Servicio de mantenimiento de noviembre');
      await panel.getByRole('button', { name: INVOICES_TEXT.register }).click();

      // Assess: spec §5's message on the PDF field, and nothing sent
      await panel.getByText(INVOICES_TEXT.pdfRequired).waitFor();
      expect(await panel.getByLabel('Fecha de emisión').inputValue()).toBe('20/11/26');
      expect(await panel.getByText('Se registrará como viernes, 20 de noviembre de 2026.').isVisible()).toBe(true);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'invoice-new-sidebar');

      // Act: attach the PDF and send
      await panel.getByLabel('Elegir PDF').setInputFiles({
        name: `${pdfNumber}.pdf`,
        mimeType: 'application/pdf',
        buffer: MINIMAL_PDF,
      });
      await panel.getByText(INVOICES_TEXT.pdfRequired).waitFor({ state: 'hidden' });
      await panel.getByRole('button', { name: INVOICES_TEXT.register }).click();
      await expectReceivedDialog(page);
      await page.getByRole('button', { name: INVOICES_TEXT.understood }).click();
      await panel.waitFor({ state: 'detached' });
      // The sidebar now shows the invoice just registered (its own address).
      await page.locator(`[data-testid="invoice-detail-panel"][data-invoice-id="${pdfNumber}"]`).waitFor();

      // Assess: both in the table, as received ('Debe revisar'), each with its file
      // The search is in the filters' first row.
      const searchBox = page.getByRole('searchbox', { name: 'Buscar', exact: true });
      await searchBox.fill(search);
      await searchBox.press('Enter');
      await expect
        .poll(async () => (await columnTexts(page, 'invoice-number')).sort())
        .toEqual([factura.invoiceId, pdfNumber].sort());
      expect(new URL(page.url()).searchParams.get('search')).toBe(search);
      expect(await columnTexts(page, 'invoice-status')).toEqual(['Debe revisar', 'Debe revisar']);
      expect(await invoiceRow(page, factura.invoiceId).getByTestId('invoice-files').innerText()).toBe('XML');
      expect(await invoiceRow(page, pdfNumber).getByTestId('invoice-files').innerText()).toBe('PDF');
      expect(await invoiceRow(page, pdfNumber).getByTestId('invoice-amount').innerText()).toBe('S/ 2,360.00');

      // Act: close the two error messages of earlier (they push the table below the window, its first row under
      // the table's sticky header, where a menu opened by scrolling closes again), then 'Descargar XML' from the
      // row's file actions
      for (let open = await page.getByRole('button', { name: 'Cerrar mensaje' }).count(); open > 0; open -= 1) {
        await page.getByRole('button', { name: 'Cerrar mensaje' }).first().click();
        await expect.poll(() => page.getByRole('button', { name: 'Cerrar mensaje' }).count()).toBe(open - 1);
      }
      await invoiceRow(page, factura.invoiceId)
        .getByRole('button', { name: INVOICES_TEXT.fileActions(factura.invoiceId) })
        .click();
      const download = page.waitForEvent('download');
      await page.getByRole('menuitem', { name: INVOICES_TEXT.downloadXml }).click();
      expect((await download).suggestedFilename()).toBe(`${SUPPLIER.taxId}-${factura.invoiceId}.xml`);

      // Act: the staff's part, through the API (SUNAT, review, approval, SAP's MIRO and payment runs)
      await followToPaid(factura.invoiceId, factura.net, { scheduledAt: '2026-12-15', paidAt: '2026-12-16' });

      // Assess: the supplier reads 'Pagado' and the payment date in its list
      const row = invoiceRow(page, factura.invoiceId);
      await refreshUntil(page, async () => (await row.getByTestId('invoice-status').innerText()).trim() === 'Pagado');
      expect(await row.getByTestId('invoice-payment-date').innerText()).toBe('16/12/26');
      // SUNAT's answer is in its panel ('Estado Sunat' is a column on demand).
      await row.getByTestId('invoice-number').click();
      await page.getByTestId('invoice-detail-cert-status').getByText('Válido', { exact: true }).waitFor();
    });
  }, 240_000);
});

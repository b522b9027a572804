import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { routes, type InvoiceDetail } from '@portal/shared';
import { CLIENTS, EMPLOYEES, OFFICE_LOCATIONS, SUPPLIERS } from '../support/tenant.js';
import { call } from '../support/api.js';
import { DETAIL_TEXT, chooseResponsibleAndOffice, detailPanel, field, invoiceRow } from '../support/invoice-detail.js';
import { INVOICES_TEXT, freshCorrelative } from '../support/invoices.js';
import {
  adminToken,
  freshSupplier,
  orderWithHes,
  pathOf,
  postedOriginal,
  registered,
  reviewBody,
  sunatControl,
  validated,
} from '../support/notes.js';
import { MINIMAL_PDF } from '../support/uploads.js';
import { appUrl, inBrowser } from '../support/web.js';
import { signedIn } from '../support/header.js';

/*
 * Notes and the RUC risk gate in the browser: a supplier sends a credit note for its factura, and both show the link
 * and, once the manager approves the note, the factura's new amount to pay; an invoice of a NO HABIDO supplier cannot
 * be approved by the manager and can by the administrator, with a reason.
 */
const COMPANY = CLIENTS[0]!;
const SUPPLIER = SUPPLIERS[0]!;
const EMPLOYEE = EMPLOYEES[COMPANY.taxId]![0]!;
const OFFICE = OFFICE_LOCATIONS[COMPANY.taxId]![0]!;

/** Opens an invoice's own address, as a link does: its detail beside the list. */
async function openAddress(page: Page, invoice: { supplierId: string; type: string; id: string }, status?: string) {
  await page.goto(appUrl(`/invoices/${invoice.supplierId}/${invoice.type}/${invoice.id}`));
  const panel = detailPanel(page, invoice.id, status as never);
  await panel.waitFor({ timeout: 30_000 });
  return panel;
}

describe('a credit note and its factura', () => {
  test('the supplier sends a credit note for its factura; both link to each other and show the new amount to pay', async () => {
    // Prepare: proveedor@demo.pe's factura at the manager's company, approved and posted in SAP.
    const { original } = await postedOriginal(SUPPLIER, {
      client: COMPANY.taxId,
      prefixId: 'F001',
      numericId: freshCorrelative(),
    });
    const noteNumber = `FC01-${freshCorrelative()}`;

    await inBrowser('credit-note-supplier', async (page) => {
      await signedIn(page, 'SUPPLIER');

      // Act: 'Nuevo comprobante', a credit note naming the factura and a reason of SUNAT's catálogo 09
      await page.getByRole('button', { name: INVOICES_TEXT.newInvoice }).click();
      const form = page.getByTestId('new-invoice-panel');
      await form.getByLabel('Tipo de comprobante').click();
      await page.getByRole('option', { name: 'Nota de crédito', exact: true }).click();
      await form.getByLabel('Serie', { exact: true }).fill('FC01');
      await form.getByLabel('Correlativo', { exact: true }).fill(noteNumber.slice(5));
      await form.getByLabel('Cliente').click();
      await page.getByRole('option', { name: new RegExp(COMPANY.name) }).click();
      const note = form.getByTestId('new-invoice-note');
      await note.getByLabel('Serie del original').fill(original.prefixId);
      await note.getByLabel('Correlativo del original').fill(original.numericId);
      await note.getByLabel('Motivo de la nota').click();
      await page.getByRole('option', { name: '09 · Disminución en el valor' }).click();
      await note.getByLabel(/Sustento del motivo/).fill('Ajuste de precio acordado');
      await form.getByLabel('Fecha de emisión').fill('20/11/26');
      await form.getByLabel('Importe total').fill('1180.00');
      await form.getByLabel('IGV').fill('180.00');
      await form
        .getByLabel('Elegir PDF')
        .setInputFiles({ name: `${noteNumber}.pdf`, mimeType: 'application/pdf', buffer: MINIMAL_PDF });
      await form.getByRole('button', { name: INVOICES_TEXT.register }).click();
      const dialog = page.getByRole('dialog', { name: INVOICES_TEXT.received });
      await dialog.waitFor({ timeout: 30_000 });
      await dialog.getByRole('button', { name: INVOICES_TEXT.understood }).click();

      // Assess: the note opens, naming its original as a link, with SUNAT's reason
      const notePanel = detailPanel(page, noteNumber);
      await notePanel.waitFor({ timeout: 30_000 });
      await notePanel.getByTestId('invoice-detail-note-reason').getByText('09 · Disminución en el valor').waitFor();
      const link = notePanel.getByTestId('invoice-detail-original-link');
      expect((await link.innerText()).trim()).toBe(`Factura ${original.id}`);
      await invoiceRow(page, noteNumber).getByTestId('invoice-note-original').getByText(`de ${original.id}`).waitFor();

      // Act: the link opens the factura, which lists the note
      await link.click();
      const originalPanel = detailPanel(page, original.id);
      await originalPanel.waitFor({ timeout: 30_000 });
      expect(new URL(page.url()).pathname).toBe(`/invoices/${SUPPLIER.taxId}/FACTURA/${original.id}`);
      const listed = originalPanel.getByTestId('invoice-detail-linked-note');
      expect(await listed.getAttribute('data-invoice-id')).toBe(noteNumber);
      await listed.getByText('Debe revisar', { exact: false }).waitFor();
      // Under review, the note changes nothing of what is paid.
      expect(await originalPanel.getByTestId('invoice-detail-amount-to-pay').innerText()).toBe('S/ 11,800.00');

      // And the note from the factura's list of notes
      await listed.getByTestId('invoice-detail-linked-note-link').click();
      await detailPanel(page, noteNumber).waitFor({ timeout: 30_000 });
    });

    const noteKey = { supplierId: SUPPLIER.taxId, type: 'NOTA_DE_CREDITO', id: noteNumber };
    await validated(noteKey);

    await inBrowser('credit-note-manager', async (page) => {
      await signedIn(page, 'MANAGER');
      // Act: the manager completes the note as an adjustment (the factura's order, no HES) and approves it
      const panel = await openAddress(page, noteKey, 'PENDING');
      await panel.getByRole('button', { name: DETAIL_TEXT.complete }).click();
      await panel.getByTestId('review-note-adjustment').waitFor();
      expect(await panel.getByTestId('review-purchaseOrders-fixed').innerText()).toBe(
        original.purchaseOrders.join(', '),
      );
      expect(await field(panel, DETAIL_TEXT.serviceSheets).count()).toBe(0);
      await chooseResponsibleAndOffice(page, panel, EMPLOYEE, OFFICE.office);
      await panel.getByRole('button', { name: DETAIL_TEXT.save }).click();
      const completed = detailPanel(page, noteNumber, 'COMPLETED');
      await completed.waitFor();
      await completed.getByRole('button', { name: DETAIL_TEXT.approve, exact: true }).click();
      await page.getByRole('dialog').getByRole('button', { name: DETAIL_TEXT.approve, exact: true }).click();
      await page.getByText(DETAIL_TEXT.approved).waitFor();
      await detailPanel(page, noteNumber, 'ACCEPTED').waitFor();
    });

    await inBrowser('credit-note-amount-to-pay', async (page) => {
      await signedIn(page, 'SUPPLIER');
      // Assess: the factura's amount to pay is its amount less the accepted credit note, in its detail and row
      const originalPanel = await openAddress(page, original);
      expect(await originalPanel.getByTestId('invoice-detail-amount-to-pay').innerText()).toBe('S/ 10,620.00');
      await originalPanel.getByTestId('invoice-detail-linked-note').getByText('Aceptado', { exact: false }).waitFor();
      const row = invoiceRow(page, original.id);
      expect(await row.getByTestId('invoice-amount').innerText()).toBe('S/ 11,800.00');
      expect((await row.getByTestId('invoice-amount-to-pay').innerText()).trim()).toBe('A pagar: S/ 10,620.00');
      // The note's own detail still leads to the factura.
      const notePanel = await openAddress(page, noteKey);
      expect((await notePanel.getByTestId('invoice-detail-original-link').innerText()).trim()).toBe(
        `Factura ${original.id}`,
      );
    });
  });
});

describe('the RUC risk gate', () => {
  test('a NO HABIDO supplier’s invoice cannot be approved by the manager, and can by the administrator with a reason', async () => {
    // Prepare: a supplier SUNAT answers as NO HABIDO, its factura completed at the manager's company.
    const supplier = freshSupplier('Comercial No Habido E2E S.A.C.');
    expect(
      (await sunatControl('/__control/taxpayers', { numRuc: supplier.taxId, estadoRuc: '00', condDomiRuc: '12' }))
        .status,
    ).toBe(200);
    const invoice = await registered({ supplier, client: COMPANY.taxId, numericId: freshCorrelative() });
    await validated(invoice);
    const { order, hes } = await orderWithHes(supplier.taxId, COMPANY.taxId, 10_000);
    const completed = await call<InvoiceDetail>(routes.updateInvoice, {
      token: await adminToken(),
      path: pathOf(invoice),
      body: reviewBody(COMPANY.taxId, { purchaseOrders: [order], serviceSheets: [hes] }),
    });
    expect(completed.status).toBe(200);

    await inBrowser('ruc-risk-manager', async (page) => {
      await signedIn(page, 'MANAGER');
      // Assess: the row is marked, the detail says why and offers no approval
      await invoiceRow(page, invoice.id).getByTestId('invoice-ruc-risk').getByText('RUC: NO HABIDO').waitFor();
      const panel = await openAddress(page, invoice, 'COMPLETED');
      await panel
        .getByTestId('invoice-detail-ruc-risk')
        .getByText('SUNAT informa: RUC ACTIVO, domicilio NO HABIDO.', { exact: false })
        .waitFor();
      expect(await panel.getByRole('button', { name: DETAIL_TEXT.approve, exact: true }).count()).toBe(0);
      expect(await panel.getByRole('button', { name: 'Aprobar con excepción' }).count()).toBe(0);
    });

    const reason = 'El proveedor presentó su constancia de domicilio; SUNAT aún no la registra.';
    await inBrowser('ruc-risk-admin', async (page) => {
      await signedIn(page, 'ADMIN');
      const panel = await openAddress(page, invoice, 'COMPLETED');
      // Act: the administrator's approval asks why
      await panel.getByRole('button', { name: 'Aprobar con excepción' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Aprobar con excepción' }).click();
      await dialog
        .getByText('Indique el motivo por el que aprueba el comprobante pese al estado del RUC del proveedor.')
        .waitFor();
      await dialog.getByLabel('Motivo de la excepción').fill(reason);
      await dialog.getByRole('button', { name: 'Aprobar con excepción' }).click();

      // Assess: approved, the exception and its reason kept on the invoice and in its history
      await page.getByText(DETAIL_TEXT.approved).waitFor();
      const approved = detailPanel(page, invoice.id, 'ACCEPTED');
      await approved.waitFor();
      expect(await approved.getByTestId('invoice-detail-ruc-override').innerText()).toContain(reason);
      await approved.getByRole('button', { name: DETAIL_TEXT.history }).click();
      // The trail's record: the approval despite the risk, the administrator's reason, and the override it set.
      const record = page
        .getByRole('dialog')
        .getByTestId('history-event')
        .filter({ hasText: 'Aprobación pese al riesgo del RUC ·' });
      await record.getByText(reason, { exact: true }).waitFor();
      expect(await record.innerText()).toContain(`Aprobación pese al riesgo del RUC: — → ${reason}`);
      expect(await record.innerText()).toContain('Estado: Completado → Aceptado');
    });
  });
});

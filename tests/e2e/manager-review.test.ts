import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { EMPLOYEES, OFFICE_LOCATIONS } from '../support/tenant.js';
import { documentScreen, seriousA11yViolations } from '../support/a11y.js';
import {
  DETAIL_TEXT,
  REVIEW_COMPANY,
  choose,
  chooseResponsibleAndOffice,
  detailPanel,
  enterCode,
  invoiceRow,
  invoiceToReview,
  openInvoiceDetail,
} from '../support/invoice-detail.js';
import { demoUser } from '../support/stage.js';
import { MINIMAL_PDF } from '../support/uploads.js';
import { inBrowser, signInToInvoices } from '../support/web.js';

/**
 * The manager's journey through the invoice detail sidebar (spec §2, §4, §5, §9): gestor@
 * completes an invoice of its first company, meets a spec §5 rule while typing, fixes it, saves,
 * approves; and rejects another one with a reason, letting the supplier retry.
 */
const EMPLOYEE = EMPLOYEES[REVIEW_COMPANY.taxId]![1]!;
const OFFICE = OFFICE_LOCATIONS[REVIEW_COMPANY.taxId]![1]!;

async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  expect(await seriousA11yViolations(page)).toEqual([]);
}

describe('manager review in the invoice sidebar', () => {
  test('refuses HES on a goods invoice while typing, then saves with OC + HES and approves', async () => {
    // Prepare
    const toReview = await invoiceToReview('SERVICE_SHEET');
    const { number } = toReview;

    await inBrowser('manager-review-approve', async (page) => {
      await signInToInvoices(page, 'MANAGER');

      // Act: open the invoice from its number in the list
      const panel = await openInvoiceDetail(page, number);

      // Assess: the sidebar of spec §2, titled by type, with the invoice's data
      await panel.getByRole('heading', { name: 'FACTURA' }).waitFor();
      await panel.getByText('Debe revisar').first().waitFor();
      await panel.getByText(REVIEW_COMPANY.name, { exact: false }).waitFor();
      await expectNoSeriousA11yViolations(page);
      await documentScreen(page, 'invoice-detail');

      // Act: goods, with the order and an HES (spec §5: HES cannot be added to a GOODS operation)
      await panel.getByRole('button', { name: DETAIL_TEXT.complete }).click();
      await choose(page, panel, DETAIL_TEXT.operationType, 'Bienes');
      await enterCode(panel, DETAIL_TEXT.purchaseOrders, toReview.purchaseOrder!);
      await enterCode(panel, DETAIL_TEXT.serviceSheets, toReview.document!.documentId);

      // Assess: the Spanish message shows before anything is saved
      const refusal = panel.getByText(DETAIL_TEXT.hesWithGoods).first();
      await refusal.waitFor();
      await panel.getByText('Disponible', { exact: false }).first().waitFor();
      await refusal.scrollIntoViewIfNeeded();
      expect(await panel.getAttribute('data-status')).toBe('PENDING');
      await expectNoSeriousA11yViolations(page);
      await documentScreen(page, 'invoice-edit-rule-error');

      // Act: services instead, the responsible and the office, then save
      await choose(page, panel, DETAIL_TEXT.operationType, 'Servicios');
      await panel.getByText(DETAIL_TEXT.hesWithGoods).first().waitFor({ state: 'detached' });
      await chooseResponsibleAndOffice(page, panel, EMPLOYEE, OFFICE.office);
      await panel.getByTestId('review-documents-total').waitFor();
      await panel.getByRole('button', { name: DETAIL_TEXT.save }).click();

      // Assess: saved, the invoice is 'Completado' in the sidebar and in its row
      await page.getByText(DETAIL_TEXT.saved).waitFor();
      await detailPanel(page, number, 'COMPLETED').waitFor();
      await panel.getByText(EMPLOYEE.fullName).waitFor();
      await invoiceRow(page, number).getByText('Completado', { exact: true }).waitFor();

      // Act: approve, confirming
      await panel.getByRole('button', { name: DETAIL_TEXT.approve, exact: true }).click();
      const confirm = page.getByRole('dialog');
      await confirm.getByText(number, { exact: false }).first().waitFor();
      await confirm.getByRole('button', { name: DETAIL_TEXT.approve, exact: true }).click();

      // Assess: the message of spec §9, and the row moves to 'Aceptado'; the sidebar stays on the SAP posting
      await page.getByText(DETAIL_TEXT.approved).waitFor();
      await invoiceRow(page, number).getByText('Aceptado', { exact: true }).waitFor();
      await detailPanel(page, number, 'ACCEPTED').getByTestId('invoice-detail-sap-posting').waitFor();
    });
  });

  test('rejects an invoice with a reason, lets the supplier retry, and shows it in the history', async () => {
    // Prepare
    const { number } = await invoiceToReview('SERVICE_SHEET');
    const reason = `La HES no corresponde al servicio facturado (${number}).`;

    await inBrowser('manager-review-reject', async (page) => {
      // A phone-sized screen: the sidebar and its dialogs must work at 375 px.
      await page.setViewportSize({ width: 375, height: 812 });
      await signInToInvoices(page, 'MANAGER');
      let panel = await openInvoiceDetail(page, number);

      // Act: reject without a reason first
      await panel.getByRole('button', { name: DETAIL_TEXT.reject, exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: DETAIL_TEXT.reject, exact: true }).click();

      // Assess: the reason is required, with the text of spec §5
      await dialog.getByText(DETAIL_TEXT.reasonRequired).waitFor();

      // Act: the reason and 'allow supplier to retry'
      await dialog.getByLabel(DETAIL_TEXT.reason).fill(reason);
      await dialog.getByLabel(DETAIL_TEXT.allowRetry).check();
      await expectNoSeriousA11yViolations(page);
      await documentScreen(page, 'invoice-reject-modal');
      await dialog.getByRole('button', { name: DETAIL_TEXT.reject, exact: true }).click();

      // Assess: the message of spec §9 and the row's new status
      await page.getByText(DETAIL_TEXT.rejected).waitFor();
      await invoiceRow(page, number).getByText('Rechazado', { exact: true }).waitFor();

      // Act: the history of the rejected invoice
      panel = await openInvoiceDetail(page, number);
      await panel.getByText(DETAIL_TEXT.retryAllowed).waitFor();
      await panel.getByRole('button', { name: DETAIL_TEXT.history }).click();

      // Assess: the trail's record of the rejection, with who, why and the status before → after
      const record = page.getByTestId('invoice-trail').getByTestId('history-event').filter({ hasText: reason });
      await record.waitFor();
      const told = await record.textContent();
      expect(told).toContain('Desaprobación sin rechazo');
      expect(told).toContain('Estado: Debe revisar → Rechazado');
      expect(told).toContain(demoUser('MANAGER').username);
      // ... and the status history the invoice was stored with before the trail: who, from which status, and why
      const history = page.getByTestId('invoice-history');
      const rejection = history.getByRole('row').filter({ hasText: reason });
      await rejection.waitFor();
      const cells = await rejection.textContent();
      expect(cells).toContain('Debe revisar');
      expect(cells).toContain('Rechazado');
      expect(cells).toContain(demoUser('MANAGER').username);
      await expectNoSeriousA11yViolations(page);
      await documentScreen(page, 'invoice-history');
    });
  });

  test('asks for a supporting PDF without a purchase order, uploads one and completes the invoice', async () => {
    // Prepare
    const { number } = await invoiceToReview(null);

    await inBrowser('manager-review-without-order', async (page) => {
      await signInToInvoices(page, 'MANAGER');
      const panel = await openInvoiceDetail(page, number);
      await panel.getByRole('button', { name: DETAIL_TEXT.complete }).click();

      // Act: no purchase order, every other field, save without support
      await choose(page, panel, DETAIL_TEXT.operationType, DETAIL_TEXT.withoutOrder);
      await chooseResponsibleAndOffice(page, panel, EMPLOYEE, OFFICE.office);
      await panel.getByRole('button', { name: DETAIL_TEXT.save }).click();

      // Assess: spec §5's rule, and nothing saved
      await panel.getByText(DETAIL_TEXT.pdfRequired).waitFor();
      expect(await panel.getAttribute('data-status')).toBe('PENDING');

      // Act: a PDF of support, uploaded as it is chosen, then save
      await panel
        .getByTestId('review-attachments')
        .locator('input[type="file"]')
        .setInputFiles({ name: 'sustento.pdf', mimeType: 'application/pdf', buffer: MINIMAL_PDF });
      await panel.getByText(DETAIL_TEXT.pdfRequired).waitFor({ state: 'detached' });
      await panel.getByRole('button', { name: DETAIL_TEXT.save }).click();

      // Assess: completed, with its attachment among the invoice's files
      await page.getByText(DETAIL_TEXT.saved).waitFor();
      await detailPanel(page, number, 'COMPLETED').waitFor();
      await panel.getByText(DETAIL_TEXT.withoutOrder).waitFor();
      await panel.getByRole('button', { name: /Adjunto 1 \(PDF\)/ }).waitFor();
      await invoiceRow(page, number).getByText('Completado', { exact: true }).waitFor();
    });
  });
});

import { describe, expect, test } from 'vitest';
import { formatMoney, keys } from '@portal/shared';
import { EMPLOYEES, OFFICE_LOCATIONS } from '../support/tenant.js';
import { seriousA11yViolations } from '../support/a11y.js';
import { conformityFixture, table } from '../support/fixtures.js';
import {
  DETAIL_TEXT,
  REVIEW_COMPANY,
  REVIEW_SUPPLIER,
  choose,
  chooseResponsibleAndOffice,
  detailPanel,
  enterCode,
  invoiceToReview,
  openInvoiceDetail,
} from '../support/invoice-detail.js';
import { inBrowser, signInToInvoices } from '../support/web.js';

/**
 * Conformity suggestions, "entering a purchase order proposes the HES that add up": the manager enters the order of an
 * invoice whose net no single free sheet covers (the one that did is used by another invoice), sees the two sheets that
 * add up proposed first, applies them with one click, and saves: the §5 rules accept them as if typed.
 */
const EMPLOYEE = EMPLOYEES[REVIEW_COMPANY.taxId]![1]!;
const OFFICE = OFFICE_LOCATIONS[REVIEW_COMPANY.taxId]![1]!;
const SUGGESTIONS = 'conformity-suggestions';

describe('suggested HES in the review sidebar', () => {
  test('a manager enters a purchase order and applies the sheets that add up to the amount without IGV', async () => {
    // Prepare: the fixture's sheet (the whole net) is held by another invoice; two others add up, one does not
    const toReview = await invoiceToReview('SERVICE_SHEET');
    const { number, invoice } = toReview;
    const purchaseOrder = toReview.purchaseOrder!;
    const net = Math.round((invoice.amount - invoice.taxAmount) * 100) / 100;
    const held = keys.conformity('SERVICE_SHEET', REVIEW_COMPANY.taxId, toReview.document!.documentId);
    await table().put({ ...(await table().get(held))!, claimedBy: 'INVOICE#other#FACTURA#F999-1' } as never);
    const sheet = (amount: number) =>
      conformityFixture({
        kind: 'SERVICE_SHEET',
        client: REVIEW_COMPANY.taxId,
        supplierId: REVIEW_SUPPLIER.taxId,
        purchaseOrder,
        currency: 'PEN',
        amount,
      }).then((doc) => doc.documentId);
    const first = await sheet(600);
    const second = await sheet(Math.round((net - 600) * 100) / 100);
    const decoy = await sheet(123.45);

    await inBrowser('conformity-suggestions', async (page) => {
      await signInToInvoices(page, 'MANAGER');
      const panel = await openInvoiceDetail(page, number);

      // Act: services, then the order
      await panel.getByRole('button', { name: DETAIL_TEXT.complete }).click();
      await choose(page, panel, DETAIL_TEXT.operationType, 'Servicios');
      await enterCode(panel, DETAIL_TEXT.purchaseOrders, purchaseOrder);

      // Assess: the exact pair is proposed first; the held sheet never is
      const suggestions = panel.getByTestId(SUGGESTIONS);
      await suggestions.getByText(`Conformidades sugeridas para la OC ${purchaseOrder}`).waitFor();
      const best = suggestions.getByTestId('conformity-suggestion').first();
      await best.getByText('Suma exacta').waitFor();
      const bestText = await best.innerText();
      expect(bestText).toContain(first);
      expect(bestText).toContain(second);
      expect(bestText).not.toContain(decoy);
      expect(await suggestions.innerText()).not.toContain(toReview.document!.documentId);
      expect(await seriousA11yViolations(page)).toEqual([]);

      // Act: one click applies it
      await best.getByRole('button', { name: /^Aplicar las conformidades/ }).click();

      // Assess: both sheets are in the HES field, checked as if typed, and their total is the amount without IGV
      const hes = panel.getByTestId('review-serviceSheets');
      await hes.getByText(first, { exact: true }).waitFor();
      await hes.getByText(second, { exact: true }).waitFor();
      await best.getByRole('button', { name: 'Aplicada', exact: true }).waitFor();
      const total = panel.getByTestId('review-documents-total');
      await total.waitFor();
      expect(await total.innerText()).toContain(`Total de conformidades: ${formatMoney(net, 'PEN')}`);

      // Act: the rest of the form, then save
      await chooseResponsibleAndOffice(page, panel, EMPLOYEE, OFFICE.office);
      await panel.getByRole('button', { name: DETAIL_TEXT.save }).click();

      // Assess: the §5 rules accepted the suggestion
      await page.getByText(DETAIL_TEXT.saved).waitFor();
      await detailPanel(page, number, 'COMPLETED').waitFor();
    });
    const claimed = await table().get(keys.conformity('SERVICE_SHEET', REVIEW_COMPANY.taxId, first));
    expect(claimed).toMatchObject({ associatedInvoice: number });
  });
});

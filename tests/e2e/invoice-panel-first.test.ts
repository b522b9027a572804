import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  SUNAT_DISPOSAL_DAYS,
  CONFORMITY_PERIOD_DAYS,
  addDays,
  formatDate,
  limaDayOf,
  openAcquirerConformity,
  type Invoice,
  type InvoiceStatus,
} from '@portal/shared';
import { creditTerms, stageTime } from '../support/acquirer-conformity.js';
import { aStatusEntry, anInvoice } from '../support/builders.js';
import { table } from '../support/fixtures.js';
import { DETAIL_TEXT, detailPanel, field } from '../support/invoice-detail.js';
import { invoiceRow } from '../support/invoices.js';
import { documentScreen } from '../support/a11y.js';
import { CLIENTS, SUPPLIERS } from '../support/tenant.js';
import { demoUser } from '../support/stage.js';
import { appUrl, inBrowser, startSignedIn } from '../support/web.js';

/**
 * The invoice sidebar opens on what a person came for (docs/web-screens.md, "Invoice sidebar"): the status, the
 * amounts and when it is paid, and for a rejected invoice why and what to do next; the Ley 29623 explanations are
 * collapsed below and said to the party they concern. A late invoice reads as overdue, with one conformity deadline.
 * «Completar datos» opens its form in view. Each at a laptop's 1366 × 768 and a phone's 390 px.
 */
const SCREENS = [
  { name: 'a 1366 × 768 laptop', viewport: { width: 1366, height: 768 } },
  { name: 'a 390 px phone', viewport: { width: 390, height: 844 } },
] as const;

const CONFORMITY_TITLE = 'Conformidad ante SUNAT (Ley 29623)';
const COMPANY = CLIENTS[0]!;
const supplierTaxId = () => demoUser('SUPPLIER').taxId!;

let sequence = (Date.now() % 900_000) + 100_000;

/**
 * A factura al crédito of the demo supplier to the manager's first company, received now (the stage's clock) and
 * issued `issuedDaysAgo` before, in two cuotas 30 and 60 days after its issue, with its running conformity clock.
 */
async function panelInvoice(options: {
  issuedDaysAgo: number;
  status?: InvoiceStatus;
  statusMessage?: string | null;
  retry?: boolean;
}): Promise<Invoice> {
  const now = stageTime();
  const receivedAt = new Date(now.getTime() - 60_000).toISOString();
  const issuedAt = addDays(limaDayOf(receivedAt), -options.issuedDaysAgo);
  const status = options.status ?? 'PENDING';
  const supplierId = supplierTaxId();
  const invoice = anInvoice({
    prefixId: 'F003',
    numericId: String(sequence++),
    status,
    statusMessage: options.statusMessage ?? null,
    supplierId,
    supplierName: SUPPLIERS.find((supplier) => supplier.taxId === supplierId)?.name ?? 'Proveedor E2E',
    client: COMPANY.taxId,
    clientName: COMPANY.name,
    issuedAt,
    receivedAt,
    disapprovedWithoutRejection: options.retry ?? false,
    statusHistory: [
      aStatusEntry('PENDING', { date: receivedAt }),
      ...(status === 'PENDING'
        ? []
        : [
            aStatusEntry(status, {
              additionalMessage: options.statusMessage ?? null,
              date: new Date(now.getTime() - 30_000).toISOString(),
              by: 'Gestor E2E',
            }),
          ]),
    ],
    payment: creditTerms(issuedAt, 1180, receivedAt),
    acquirerConformity: openAcquirerConformity({ receivedAt }),
  });
  await table().putInvoice(invoice);
  return invoice;
}

/** Opens the invoice's own address, signed in as `role`, and waits for its sidebar. */
async function openPanel(page: Page, role: 'SUPPLIER' | 'MANAGER', invoice: Invoice): Promise<Locator> {
  await startSignedIn(page, demoUser(role));
  const query = role === 'SUPPLIER' ? `?search=${invoice.id}` : `?client=${COMPANY.taxId}&search=${invoice.id}`;
  await page.goto(appUrl(`/invoices/${invoice.supplierId}/${invoice.type}/${invoice.id}${query}`));
  const panel = detailPanel(page, invoice.id);
  await panel.getByRole('heading', { name: 'FACTURA' }).waitFor({ timeout: 30_000 });
  return panel;
}

/** Whether all of an element lies in the window, top to bottom: seen without scrolling. */
async function inView(element: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  const height = element.page().viewportSize()!.height;
  return box !== null && box.y >= 0 && box.y + box.height <= height;
}

describe.each(SCREENS)('the invoice sidebar on $name', ({ name, viewport }) => {
  const tag = name.includes('phone') ? 'phone' : 'laptop';

  test('a late invoice opens on its status, amounts and overdue payment; one conformity deadline, collapsed', async () => {
    // Prepare: issued 90 days before the portal received it; both cuotas fell due before its reception
    const invoice = await panelInvoice({ issuedDaysAgo: 90 });
    const lastDue = addDays(invoice.issuedAt, 60);
    const sunatLatest = addDays(invoice.issuedAt, SUNAT_DISPOSAL_DAYS + CONFORMITY_PERIOD_DAYS);
    const portalDeadline = invoice.acquirerConformity!.deadline;

    await inBrowser(
      `invoice-panel-first-late-${tag}`,
      async (page) => {
        // Act
        const panel = await openPanel(page, 'SUPPLIER', invoice);
        const essentials = panel.getByTestId('invoice-essentials');

        // Assess: the status, the amount, the net to pay and the payment, first and in view
        await essentials.getByTestId('invoice-essentials-status').waitFor();
        expect(await essentials.getByTestId('invoice-essentials-amount').innerText()).toBe('S/ 1,180.00');
        expect(await essentials.getByTestId('invoice-essentials-net').innerText()).toBe('S/ 1,180.00');
        const payment = essentials.getByTestId('invoice-essentials-payment');
        expect(await payment.innerText()).toBe(`Vencido desde el ${formatDate(lastDue)}`);
        expect(await inView(payment)).toBe(true);
        // The 'Pago' section says the same, never the past date as an estimate to come
        expect(await panel.getByTestId('invoice-expected-payment-date').innerText()).toBe(
          `Vencido desde el ${formatDate(lastDue)}`,
        );
        await documentScreen(page, `invoice-panel-${viewport.width}`);
        // So does the list's 'Fecha de pago' (a row on a laptop, a card on a phone)
        await page.goto(appUrl(`/invoices?search=${invoice.id}`));
        const listed = invoiceRow(page, invoice.id).getByTestId('invoice-payment-date');
        await listed.waitFor({ timeout: 30_000 });
        expect(await listed.innerText()).toBe(`Vencido desde el ${formatDate(lastDue)}`);
        await page.goBack();
        await essentials.getByTestId('invoice-essentials-status').waitFor({ timeout: 30_000 });

        // Assess: the buyer's 8-day duty is not the supplier's first read; collapsed, no countdown up top
        const section = panel.getByTestId('acquirer-conformity-section');
        expect(await essentials.getByTestId('invoice-essentials-conformity').count()).toBe(0);
        expect(await section.getByText('8 días calendario', { exact: false }).isVisible()).toBe(false);

        // Act: open it
        await section.getByRole('button', { name: CONFORMITY_TITLE }).click();

        // Assess: said to the supplier, with one deadline: SUNAT's latest, not the portal's count from the reception
        await section.getByText('Su cliente tiene 8 días calendario', { exact: false }).waitFor();
        expect(await section.getByText('Como adquirente, la sociedad', { exact: false }).count()).toBe(0);
        expect(await section.getByTestId('acquirer-conformity-deadline').innerText()).toBe(
          `A más tardar el ${formatDate(sunatLatest)}`,
        );
        expect(await section.getByTestId('acquirer-conformity-status').innerText()).toBe(
          `Venció el ${formatDate(sunatLatest)}`,
        );
        expect(await section.innerText()).not.toContain(formatDate(portalDeadline));
      },
      { viewport },
    );
  });

  test('a rejected invoice says why and what the supplier may do, and shows no conformity countdown', async () => {
    // Prepare: rejected, the supplier may send it again; its clock still runs
    const reason = 'La orden de compra indicada no corresponde al servicio facturado.';
    const invoice = await panelInvoice({ issuedDaysAgo: 1, status: 'REJECTED', statusMessage: reason, retry: true });

    await inBrowser(
      `invoice-panel-first-rejected-${tag}`,
      async (page) => {
        // Act
        const panel = await openPanel(page, 'MANAGER', invoice);
        const essentials = panel.getByTestId('invoice-essentials');

        // Assess: the reason and the next step, in view; no payment to expect
        const why = essentials.getByTestId('invoice-essentials-reason');
        await why.getByText(`Motivo: ${reason}`).waitFor();
        expect(await why.getByTestId('invoice-essentials-next').innerText()).toBe(
          'El proveedor puede volver a enviar el mismo comprobante corregido.',
        );
        expect(await inView(why)).toBe(true);
        expect(await essentials.getByTestId('invoice-essentials-payment').innerText()).toBe(
          'Sin pago previsto: el comprobante fue rechazado',
        );

        // Act: open the Ley 29623 section too
        const section = panel.getByTestId('acquirer-conformity-section');
        await section.getByRole('button', { name: CONFORMITY_TITLE }).click();
        await section.getByText('no se muestra la cuenta regresiva', { exact: false }).waitFor();

        // Assess: no countdown anywhere in the sidebar
        expect(await panel.getByTestId('acquirer-conformity-status').count()).toBe(0);
        expect(await panel.getByTestId('invoice-essentials-conformity').count()).toBe(0);
        expect(await panel.innerText()).not.toMatch(/quedan? \d+ días?|Vence hoy/);
      },
      { viewport },
    );
  });

  test('«Completar datos» scrolls its form into view and focuses its first field', async () => {
    // Prepare: a late invoice, whose summary fills the top of the sidebar
    const invoice = await panelInvoice({ issuedDaysAgo: 90 });

    await inBrowser(
      `invoice-panel-first-complete-${tag}`,
      async (page) => {
        const panel = await openPanel(page, 'MANAGER', invoice);

        // Act
        await panel.getByRole('button', { name: DETAIL_TEXT.complete }).click();

        // Assess: the first field has the focus, and it is in view
        const first = field(panel, DETAIL_TEXT.operationType);
        await expect
          .poll(() =>
            first.evaluate(
              (element) => element === (element.ownerDocument as { activeElement: unknown }).activeElement,
            ),
          )
          .toBe(true);
        await expect.poll(() => inView(first)).toBe(true);
        expect(await inView(panel.getByRole('heading', { name: 'Completar datos del comprobante' }).first())).toBe(
          true,
        );
        // The company's conformity duty shows to its staff in the summary
        await panel.getByTestId('invoice-essentials-conformity').waitFor();
        await documentScreen(page, `manager-review-${viewport.width}`);
      },
      { viewport },
    );
  });
});

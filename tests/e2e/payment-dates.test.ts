import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { formatDate, netToPayLine, type InvoiceSummary } from '@portal/shared';
import { buildWorld } from '../support/tenant.js';
import { seriousA11yViolations } from '../support/a11y.js';
import { askAssistant, invoicesOf, openChat, signedIn, visit } from '../support/header.js';
import { INVOICES_TEXT, invoiceRow } from '../support/invoices.js';
import { inBrowser } from '../support/web.js';

/**
 * "When am I paid?" in the browser (docs/ap-payment.md): the demo supplier's factura a crédito in two cuotas with a
 * 12 % detracción, to a company that pays on the 15th and the 30th.
 */
const seeded = buildWorld().invoices.find((invoice) => invoice.payment?.detraction)!;

/** The demo invoice as the API holds it now. */
async function demoInvoice(): Promise<InvoiceSummary> {
  const [invoice] = (await invoicesOf('SUPPLIER', { search: seeded.id })).filter((found) => found.id === seeded.id);
  expect(invoice?.payment?.expectedPaymentDate).toEqual(expect.any(String));
  return invoice!;
}

/** Opens the assistant and asks it `question`: the text of its answer. */
async function ask(page: Page, question: string): Promise<string> {
  await openChat(page);
  return askAssistant(page, question);
}

describe('when a supplier is paid', () => {
  test('the list shows when it is expected to be paid, and the sidebar the cuotas, the detracción and the net to pay', async () => {
    const invoice = await demoInvoice();
    const payment = invoice.payment!;

    await inBrowser('payment-dates-list', async (page) => {
      await signedIn(page, 'SUPPLIER');

      // Act
      await visit(page, `/invoices?search=${encodeURIComponent(invoice.id)}`);
      const row = invoiceRow(page, invoice.id);
      await row.waitFor({ timeout: 30_000 });

      // Assess: 'Fecha de pago' says the expected date as an estimate, with the due date it was moved from
      const cell = row.getByTestId('invoice-payment-date');
      expect(await cell.innerText()).toBe(`${formatDate(payment.expectedPaymentDate)} (estimada)`);
      expect(await cell.getAttribute('title')).toContain(`vence el ${formatDate(payment.dueDate)}`);
      expect(payment.movedToPaymentRun).toBe(true);

      // Act: open its sidebar
      await row.getByTestId('invoice-number').click();
      const panel = page.getByTestId('invoice-detail-panel');
      const net = panel.getByTestId('invoice-net-to-pay');
      await net.waitFor({ timeout: 30_000 });

      // Assess
      expect(await net.innerText()).toBe(netToPayLine(payment, invoice.currency));
      expect(await net.innerText()).toMatch(/^Detracción S\/ [\d,]+\.\d\d \(12 %\) · Neto a pagar S\/ [\d,]+\.\d\d$/);
      const cuotas = await panel.getByTestId('invoice-payment-installments').innerText();
      for (const installment of payment.installments) expect(cuotas).toContain(formatDate(installment.dueDate));
      expect(await panel.getByTestId('invoice-expected-payment-date').innerText()).toContain(
        formatDate(payment.expectedPaymentDate),
      );
      expect(await panel.getByTestId('invoice-detraction').innerText()).toContain(
        '037 Demás servicios gravados con el IGV',
      );
      expect(await seriousA11yViolations(page)).toEqual([]);
    });
  });

  test('"vence entre" keeps the invoices expected to be paid in the range typed as dd/mm/aa', async () => {
    const invoice = await demoInvoice();
    const day = formatDate(invoice.payment!.expectedPaymentDate);

    await inBrowser('payment-dates-filter', async (page) => {
      await signedIn(page, 'SUPPLIER');
      // 'Vence entre' is behind 'Más filtros'.
      await page.getByRole('button', { name: INVOICES_TEXT.moreFilters }).click();
      const filter = page.getByTestId('due-filter');

      // Act
      await filter.getByRole('textbox', { name: 'Desde' }).fill(day);
      await filter.getByRole('textbox', { name: 'Hasta' }).fill(day);

      // Assess: the URL holds the range, the applied filter names it (the list renders it once it read the new URL,
      // a moment after the address changed), the demo invoice is listed and every row is due that day
      await page.waitForURL((url) => url.searchParams.get('dueTo') === invoice.payment!.expectedPaymentDate);
      await expect.poll(() => page.getByText(`Vence entre ${day} y ${day}`).count()).toBe(1);
      await invoiceRow(page, invoice.id).waitFor({ timeout: 30_000 });
      await expect
        .poll(async () => [...new Set(await page.getByTestId('invoice-expected-payment').allInnerTexts())])
        .toEqual([day]);
    });
  });

  test('the supplier asks the assistant when it is paid and gets the date', async () => {
    const invoice = await demoInvoice();

    await inBrowser('payment-dates-chat', async (page) => {
      await signedIn(page, 'SUPPLIER');

      // Act
      const answer = await ask(page, `¿Cuándo me pagan la ${invoice.id}?`);

      // Assess
      expect(answer).toContain(
        `La fecha de pago estimada de la factura ${invoice.id} para ${invoice.clientName} es el ${formatDate(invoice.payment!.expectedPaymentDate)}.`,
      );
      expect(answer).toContain(netToPayLine(invoice.payment!, invoice.currency));
    });
  });
});

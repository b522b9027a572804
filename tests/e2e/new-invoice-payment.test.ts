import { describe, expect, test } from 'vitest';
import { routes, type InvoiceDetail } from '@portal/shared';
import { CLIENTS, SUPPLIERS } from '../support/tenant.js';
import { seriousA11yViolations } from '../support/a11y.js';
import { call } from '../support/api.js';
import { tokenOf } from '../support/header.js';
import { detailPanel } from '../support/invoice-detail.js';
import { INVOICES_TEXT, freshCorrelative, openNewInvoice, withoutShellToolbarIssue } from '../support/invoices.js';
import { MINIMAL_PDF } from '../support/uploads.js';
import { inBrowser } from '../support/web.js';

const SUPPLIER = SUPPLIERS[0]!;
const CLIENT = CLIENTS[0]!;

describe("'Nuevo comprobante': the forma de pago and the detracción (docs/ap-payment.md)", () => {
  test('registers a factura a crédito in two cuotas with a 12 % detracción, and its sidebar shows the net to pay', async () => {
    const number = `F001-${freshCorrelative()}`;

    await inBrowser('new-invoice-payment', async (page) => {
      const panel = await openNewInvoice(page);

      // Act: the document's data
      await panel.getByLabel('Serie').fill('F001');
      await panel.getByLabel('Correlativo').fill(number.slice(5));
      await panel.getByLabel('Cliente').click();
      await page.getByRole('option', { name: new RegExp(CLIENT.name) }).click();
      await panel.getByLabel('Fecha de emisión').fill('05/11/26');
      await panel.getByLabel('Importe total').fill('1180.00');
      await panel.getByLabel('IGV').fill('180.00');
      await panel
        .getByLabel('Elegir PDF')
        .setInputFiles({ name: `${number}.pdf`, mimeType: 'application/pdf', buffer: MINIMAL_PDF });

      // Act: al crédito, registered without its cuotas first
      await panel.getByRole('button', { name: 'Crédito', exact: true }).click();
      await panel.getByRole('button', { name: INVOICES_TEXT.register }).click();

      // Assess: the cuota it still needs is said at its field
      await panel.getByText('Ingrese un monto mayor que cero, con hasta dos decimales.').waitFor();

      // Act: two cuotas and the detracción
      await panel.getByLabel('Monto de la cuota 1').fill('519.20');
      await panel.getByLabel('Vencimiento de la cuota 1').fill('05/12/26');
      await panel.getByRole('button', { name: 'Agregar cuota' }).click();
      await panel.getByLabel('Monto de la cuota 2').fill('519.20');
      await panel.getByLabel('Vencimiento de la cuota 2').fill('04/01/27');
      await panel.getByText('Operación sujeta a detracción (SPOT)').click();
      await panel.getByLabel('Bien o servicio (catálogo 54)').click();
      await page.getByRole('option', { name: '037 - Demás servicios gravados con el IGV' }).click();
      await panel.getByLabel('Porcentaje de detracción').fill('12');
      expect(withoutShellToolbarIssue(await seriousA11yViolations(page))).toEqual([]);
      await panel.getByRole('button', { name: INVOICES_TEXT.register }).click();
      const dialog = page.getByRole('dialog', { name: INVOICES_TEXT.received });
      await dialog.waitFor({ timeout: 30_000 });
      await dialog.getByRole('button', { name: INVOICES_TEXT.understood }).click();

      // Assess: the invoice opens with its payment, as the API stores it
      const detail = detailPanel(page, number);
      await detail.waitFor({ timeout: 30_000 });
      const net = detail.getByTestId('invoice-net-to-pay');
      expect(await net.innerText()).toBe('Detracción S/ 141.60 (12 %) · Neto a pagar S/ 1,038.40');
      const cuotas = await detail.getByTestId('invoice-payment-installments').innerText();
      expect(cuotas).toContain('Cuota 1: S/ 519.20, vence el 05/12/26');
      expect(cuotas).toContain('Cuota 2: S/ 519.20, vence el 04/01/27');
      // The company pays on the 15th and the 30th.
      expect(await detail.getByTestId('invoice-expected-payment-date').innerText()).toContain('15/01/27');
      const stored = await call<InvoiceDetail>(routes.getInvoice, {
        token: await tokenOf('SUPPLIER'),
        path: { supplierId: SUPPLIER.taxId, invoiceType: 'FACTURA', invoiceId: number },
      });
      expect(stored.body.payment).toMatchObject({
        method: 'CREDITO',
        detraction: { code: '037', percent: 12, amount: 141.6 },
        netToPay: 1038.4,
        warnings: [],
        expectedPaymentDate: '2027-01-15',
      });
    });
  });
});

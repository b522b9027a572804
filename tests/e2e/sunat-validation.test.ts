import { describe, expect, test } from 'vitest';
import { keys } from '@portal/shared';
import { seriousA11yViolations } from '../support/a11y.js';
import { table } from '../support/fixtures.js';
import { DETAIL_TEXT, invoiceToReview, openInvoiceDetail } from '../support/invoice-detail.js';
import { demoUser } from '../support/stage.js';
import { inBrowser, settledInvoices, startSignedIn } from '../support/web.js';
import { sunatWillAnswer } from '../support/sunat.js';

/**
 * SUNAT asked again: an invoice SUNAT did not validate (it may not know a document issued minutes ago) is not stuck:
 * the manager asks SUNAT again from the detail sidebar, is told so, sees it waiting since now, and sees SUNAT's new
 * answer arrive in the sidebar without reloading; the history names who asked.
 */
describe('asking SUNAT again from the invoice sidebar', () => {
  test("a manager's 'Volver a consultar SUNAT' moves an invoice SUNAT refused to 'Válido' and unblocks its review", async () => {
    // Prepare: an invoice of the manager's company that SUNAT refused; SUNAT knows it now.
    const { invoice, number } = await invoiceToReview(null);
    const key = keys.invoice(invoice.supplierId, invoice.type, invoice.id);
    await table().put({
      ...(await table().get(key)),
      certStatus: 'INVALID',
      statusMessage: 'El comprobante no existe en los registros de SUNAT.',
    });
    await sunatWillAnswer(invoice, 'VALID');

    await inBrowser('sunat-validation-request', async (page) => {
      await startSignedIn(page, demoUser('MANAGER'));
      await settledInvoices(page);
      const panel = await openInvoiceDetail(page, number);
      const certStatus = panel.getByTestId('invoice-detail-cert-status');
      await certStatus.getByText('No válido').waitFor();
      await certStatus.getByText('puede volver a consultar SUNAT', { exact: false }).waitFor();
      expect(await panel.getByRole('button', { name: DETAIL_TEXT.complete }).count()).toBe(0);

      // Act
      await panel.getByRole('button', { name: 'Volver a consultar SUNAT' }).click();

      // Assess: told, waiting since now, then SUNAT's answer without reloading; the review can go on.
      await page.getByText('Se volvió a consultar SUNAT.', { exact: false }).waitFor();
      await certStatus.getByText('Válido', { exact: true }).waitFor({ timeout: 30_000 });
      await panel.getByRole('button', { name: DETAIL_TEXT.complete }).waitFor();
      expect(await panel.getByRole('button', { name: 'Volver a consultar SUNAT' }).count()).toBe(0);
      expect(await seriousA11yViolations(page)).toEqual([]);

      await panel.getByRole('button', { name: DETAIL_TEXT.history }).click();
      const request = page
        .getByTestId('invoice-history')
        .getByRole('row')
        .filter({ hasText: 'Nueva consulta a SUNAT' });
      await request.getByText(demoUser('MANAGER').username).waitFor();
      await request
        .getByText('Respuesta anterior de SUNAT: El comprobante no existe en los registros de SUNAT.')
        .waitFor();
    });
  });

  test('an invoice still waiting for SUNAT says since when, and when the portal asks again', async () => {
    // Prepare: waiting for SUNAT for twenty minutes, its message lost; SUNAT cannot be asked about it.
    const { invoice, number } = await invoiceToReview(null);
    const key = keys.invoice(invoice.supplierId, invoice.type, invoice.id);
    await table().put({ ...(await table().get(key)), certStatus: 'PENDING' });
    await sunatWillAnswer(invoice, 'FAILING');

    await inBrowser('sunat-validation-waiting', async (page) => {
      await startSignedIn(page, demoUser('MANAGER'));
      await settledInvoices(page);
      const panel = await openInvoiceDetail(page, number);
      const certStatus = panel.getByTestId('invoice-detail-cert-status');
      await certStatus.getByText('Por validar').waitFor();
      await certStatus.getByText('Esperando la respuesta de SUNAT.').waitFor();

      await panel.getByRole('button', { name: 'Volver a consultar SUNAT' }).click();

      await certStatus.getByText('Esperando la respuesta de SUNAT desde el', { exact: false }).waitFor();
      await certStatus
        .getByText(`Nueva consulta solicitada por ${demoUser('MANAGER').username}`, { exact: false })
        .waitFor();
      // SUNAT fails: the sidebar says so once the worker tried, and that the portal keeps trying.
      await certStatus
        .getByText('SUNAT no respondió la última consulta', { exact: false })
        .waitFor({ timeout: 30_000 });
      await certStatus.getByText('el portal volverá a consultar a SUNAT', { exact: false }).waitFor();
      // Asking again while that check is under way sends nothing more.
      await panel.getByRole('button', { name: 'Volver a consultar SUNAT' }).click();
      await page.getByText('Se volvió a consultar SUNAT.', { exact: false }).first().waitFor();
    });
    const messages = (await table().outgoing('sunatValidation')).filter(
      (message) => message.body.invoiceId === invoice.id,
    );
    expect(messages).toHaveLength(1);
  });
});

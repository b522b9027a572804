import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { routes, type Invoice } from '@portal/shared';
import { CLIENTS, SUPPLIERS } from '../support/tenant.js';
import { call } from '../support/api.js';
import { mailbox, reviewFixture } from '../support/fixtures.js';
import { tokenOf } from '../support/header.js';
import { detailPanel, openInvoiceDetail } from '../support/invoice-detail.js';
import { demoUser } from '../support/stage.js';
import { MINIMAL_PDF } from '../support/uploads.js';
import { inBrowser, settledInvoices, signInToInvoices } from '../support/web.js';
import { until } from '../support/until.js';

/**
 * Messages on an invoice: a manager marks an invoice "Observada" asking for the guía de remisión; the
 * supplier sees the count in the header, gets the e-mail, answers with a PDF, and the mark clears. What a message
 * holds is shown as text: markup in it runs nothing.
 */
const TEXT = {
  section: 'Mensajes',
  newMessage: 'Nuevo mensaje',
  send: 'Enviar',
  observe: 'Marcar como observada',
  observed: 'El comprobante quedó observado; se avisó al proveedor.',
  sent: 'Mensaje enviado.',
  badge: 'Observada',
  observedOnly: 'Solo observadas',
  header: (count: number) =>
    count === 0
      ? 'Mensajes, ninguna conversación espera su respuesta'
      : count === 1
        ? 'Mensajes, 1 conversación espera su respuesta'
        : `Mensajes, ${count} conversaciones esperan su respuesta`,
};
const HOSTILE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> ¿Recibieron la guía?';

const pathOf = (invoice: Invoice) => ({
  supplierId: invoice.supplierId,
  invoiceType: invoice.type,
  invoiceId: invoice.id,
});

async function waitingCount(role: 'SUPPLIER' | 'MANAGER'): Promise<number> {
  return (await call<{ count: number }>(routes.countWaitingConversations, { token: await tokenOf(role) })).body.count;
}

/** Nothing a message held ran: no dialog, no script's mark, no element made of its markup. */
async function expectInert(page: Page): Promise<void> {
  expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  const messages = page.getByTestId('invoice-messages');
  expect(await messages.locator('script, img[onerror]').count()).toBe(0);
}

describe('messages on an invoice', () => {
  test('a manager observes an invoice asking for the guía; the supplier sees it, answers with a PDF, and the mark clears', async () => {
    const { invoice } = await reviewFixture({
      client: CLIENTS[0]!.taxId,
      clientName: CLIENTS[0]!.name,
      supplier: SUPPLIERS[0]!,
      kind: null,
    });
    // The supplier wrote first, with markup in its text.
    const hostile = await call(routes.postInvoiceMessage, {
      token: await tokenOf('SUPPLIER'),
      path: pathOf(invoice),
      body: { text: HOSTILE },
    });
    expect(hostile.status).toBe(201);
    const ask = `Por favor adjunte la guía de remisión de la ${invoice.id}.`;

    await inBrowser('messages-manager-observes', async (page) => {
      page.on('dialog', (dialog) => {
        throw new Error(`A message opened a dialog: ${dialog.message()}`);
      });
      await signInToInvoices(page, 'MANAGER');
      const panel = await openInvoiceDetail(page, invoice.id);
      const section = panel.getByTestId('invoice-messages');
      await section.getByRole('heading', { name: TEXT.section }).waitFor();

      // The supplier's markup is shown as the text it is, and ran nothing.
      await section.getByTestId('invoice-message-text').filter({ hasText: HOSTILE }).waitFor();
      await expectInert(page);

      await section.getByLabel(TEXT.newMessage, { exact: true }).fill(ask);
      await section.getByRole('button', { name: TEXT.observe }).click();
      await page.getByText(TEXT.observed).waitFor();
      await section.getByTestId('invoice-observation').waitFor();
      await section.getByTestId('invoice-message-text').filter({ hasText: ask }).waitFor();
      // Newest last: the manager's message follows the supplier's.
      expect(
        await section
          .getByTestId('invoice-message')
          .evaluateAll((items) => items.map((i) => i.getAttribute('data-side'))),
      ).toEqual(['SUPPLIER', 'STAFF']);
      // The list marks the row beside its status.
      await page
        .getByRole('row')
        .filter({ hasText: invoice.id })
        .getByTestId('invoice-observed')
        .getByText(TEXT.badge)
        .waitFor();
      await expectInert(page);
    });

    const mail = await until(
      async () =>
        (await mailbox()).find(
          (each) =>
            each.to.includes(demoUser('SUPPLIER').username) &&
            each.text.includes(invoice.id) &&
            each.text.includes('guía de remisión'),
        ),
      { message: 'the e-mail to the supplier', timeout: 20_000 },
    );
    expect(mail.text).toContain('observó');
    const supplierWaiting = await waitingCount('SUPPLIER');
    expect(supplierWaiting).toBeGreaterThan(0);

    await inBrowser('messages-supplier-answers', async (page) => {
      await signInToInvoices(page, 'SUPPLIER');
      // The header says how many conversations wait on the supplier.
      await page.getByRole('link', { name: TEXT.header(supplierWaiting) }).waitFor();

      // "Solo observadas" (behind "Más filtros") keeps the observed invoice in the list.
      await page.getByRole('button', { name: 'Más filtros' }).click();
      await page.getByTestId('observed-filter').getByText(TEXT.observedOnly).click();
      await page.waitForURL((url) => url.searchParams.get('observed') === 'true');
      await settledInvoices(page);
      const row = page.getByRole('row').filter({ hasText: invoice.id });
      await row.getByTestId('invoice-observed').waitFor();

      const panel = await openInvoiceDetail(page, invoice.id);
      const section = panel.getByTestId('invoice-messages');
      await section.getByTestId('invoice-message-text').filter({ hasText: ask }).waitFor();
      await section.getByTestId('invoice-observation').waitFor();
      await section.getByLabel(TEXT.newMessage, { exact: true }).fill('Adjuntamos la guía de remisión.');
      await section.locator('input[type="file"]').setInputFiles({
        name: 'guia-de-remision.pdf',
        mimeType: 'application/pdf',
        buffer: MINIMAL_PDF,
      });
      await section.getByRole('button', { name: TEXT.send, exact: true }).click();
      await page.getByText(TEXT.sent).waitFor();

      // The answer clears the mark: gone from the detail and the row, and the header counts one fewer.
      await section.getByTestId('invoice-observation').waitFor({ state: 'detached' });
      await section.getByRole('button', { name: 'Descargar guia-de-remision.pdf' }).waitFor();
      await page.getByRole('link', { name: TEXT.header(supplierWaiting - 1) }).waitFor();
      await detailPanel(page, invoice.id).waitFor();
      await expectInert(page);

      // 'Historial' tells every step with its before and after: the mark asked for, and cleared by the answer.
      await panel.getByRole('button', { name: 'Historial' }).click();
      const steps = page.getByTestId('invoice-trail').getByTestId('history-event');
      await steps.first().waitFor();
      const told = (await steps.allInnerTexts()).map((text) => text.replace(/\s+/g, ' '));
      const observed = told.findIndex((text) => text.includes('Marcado como observado'));
      expect(told[observed]).toContain(`Observación: — → ${ask}`);
      // Who marked it, by role and sign-in; staff's e-mails are for staff only.
      expect(told[observed]).toContain('Gestor · Cuenta corporativa (SSO)');
      expect(told.join(' ')).not.toContain(demoUser('MANAGER').username);
      const answer = told.at(-1)!;
      expect(answer).toContain('Mensaje');
      expect(answer).toContain('Adjuntamos la guía de remisión.');
      expect(answer).toContain(`Observación: ${ask} → —`);
      // The supplier's markup reads as text in the trail too.
      expect(told.some((text) => text.includes(HOSTILE))).toBe(true);
      await expectInert(page);
    });

    const conversation = await call(routes.listInvoiceMessages, {
      token: await tokenOf('MANAGER'),
      path: pathOf(invoice),
    });
    expect(conversation.body.observation).toBeNull();
    expect(conversation.body.items.at(-1)).toMatchObject({
      authorRole: 'SUPPLIER',
      text: 'Adjuntamos la guía de remisión.',
      attachments: [{ fileName: 'guia-de-remision.pdf', contentType: 'application/pdf' }],
    });
  });
});

import { describe, expect, test } from 'vitest';
import { CLIENTS } from '../support/tenant.js';
import { freshCorrelative, invoiceCards, ublFactura } from '../support/invoices.js';
import { processed, sendMail } from '../support/mail.js';
import { demoUser } from '../support/stage.js';
import { MINIMAL_PDF } from '../support/uploads.js';
import { inBrowser, signInWithPassword } from '../support/web.js';

/**
 * Invoices that arrive without the screen's doing: a supplier looking at its list sends an e-mail with a factura;
 * once its notice reaches the feed (the header reads it every minute, the page's clock moved past that), the list
 * and its count take it in by themselves, with the tab in focus the whole time (no 'Actualizar', no refocus). On a
 * phone the list is cards.
 */
describe('the invoices list refreshes by itself', () => {
  for (const viewport of [
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ]) {
    test(`at ${viewport.width} px a factura sent by e-mail appears in the open list, and its count with it`, async () => {
      const supplier = demoUser('SUPPLIER');
      const factura = ublFactura(freshCorrelative());
      const base = factura.invoiceId.replace(/-(\d+)$/, (_, n: string) => `-${n.padStart(8, '0')}`);

      await inBrowser(
        `invoices-auto-refresh-${viewport.width}`,
        async (page) => {
          await page.clock.install();
          await signInWithPassword(page, supplier);
          const heading = page.getByRole('heading', { name: 'Mis comprobantes', level: 1 });
          const counted = async () => Number(/\((\d+)\)/.exec(await heading.innerText())?.[1] ?? NaN);
          await expect.poll(counted).toBeGreaterThan(0);
          const before = await counted();

          const { messageId } = await sendMail({
            from: supplier.username,
            toCompany: CLIENTS[0]!.taxId,
            subject: `Factura ${base}`,
            attachments: [
              { filename: `${base}.xml`, content: factura.bytes, contentType: 'application/xml' },
              { filename: `${base}.pdf`, content: MINIMAL_PDF, contentType: 'application/pdf' },
            ],
          });
          await processed(messageId);

          // A minute later, as the header reads the feed again.
          await page.clock.runFor('01:05');
          await expect.poll(counted, { timeout: 30_000 }).toBe(before + 1);
          // Its row, or on the phone its card.
          const listed = viewport.width < 689 ? invoiceCards(page) : page.getByRole('row');
          await listed.filter({ has: page.getByText(factura.invoiceId, { exact: true }) }).waitFor();
        },
        { viewport },
      );
    });
  }
});

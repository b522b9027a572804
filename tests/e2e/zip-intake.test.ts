import { afterAll, describe, expect, test } from 'vitest';
import { SUPPLIERS } from '../support/tenant.js';
import { table } from '../support/fixtures.js';
import { freshCorrelative, supplierToken, ublFactura } from '../support/invoices.js';
import { demoUser } from '../support/stage.js';
import { MINIMAL_PDF, zipOf } from '../support/uploads.js';
import { inBrowser, signInWithPassword } from '../support/web.js';

/**
 * 'Cargar ZIP': from Mis comprobantes a supplier sends a zip; a modal follows it to the end, with a link to
 * each invoice and the reason of the document refused.
 */
describe('Cargar ZIP', () => {
  afterAll(async () => {
    // The zip's notice goes, so that the supplier's own feed stays as the other tests know it.
    const token = await supplierToken();
    const sub = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string }).sub;
    for (const item of await table().partition(`FEED#USER#${sub}`)) {
      if (String(item.message).includes('ZIP')) await table().delete({ pk: String(item.pk), sk: String(item.sk) });
    }
  });

  test('a supplier sends a zip and follows it to its results: links to the invoices, the refused one said in Spanish', async () => {
    const supplier = demoUser('SUPPLIER');
    const ruc = SUPPLIERS[0]!.taxId;
    const first = ublFactura(freshCorrelative());
    const second = ublFactura(freshCorrelative());
    const base = (invoiceId: string) => `${ruc}-01-${invoiceId}`;
    const zip = await zipOf([
      [`${base(first.invoiceId)}.xml`, first.bytes],
      [`${base(first.invoiceId)}.pdf`, MINIMAL_PDF],
      [`${base(second.invoiceId)}.xml`, second.bytes],
      [`${base(second.invoiceId)}.pdf`, MINIMAL_PDF],
      [`${ruc}-01-F001-00000001.pdf`, MINIMAL_PDF],
    ]);

    await inBrowser('zip-intake', async (page) => {
      await signInWithPassword(page, supplier);
      const counted = async () => Number(/\((\d+)\)/.exec(await heading.innerText())?.[1] ?? NaN);
      const heading = page.getByRole('heading', { name: 'Mis comprobantes', level: 1 });
      await expect.poll(counted).toBeGreaterThan(0);
      const before = await counted();

      await page.getByLabel('Cargar un ZIP con los XML y PDF de varios comprobantes').setInputFiles({
        name: 'abril.zip',
        mimeType: 'application/zip',
        buffer: zip,
      });
      const modal = page.getByRole('dialog', { name: 'Carga de ZIP' });
      await modal.waitFor();
      await modal.getByText('abril.zip', { exact: true }).first().waitFor({ timeout: 60_000 });
      await expect
        .poll(() => modal.getByRole('link', { name: 'Ver comprobante' }).count(), { timeout: 60_000 })
        .toBe(2);
      await modal.getByText(`Falta el XML de «${ruc}-01-F001-00000001»`, { exact: false }).waitFor();
      // Behind the modal, the list and its count took the two in by themselves: nobody pressed 'Actualizar'.
      await expect.poll(counted).toBe(before + 2);
      for (const invoice of [first, second])
        await page.getByTestId('invoice-number').getByText(invoice.invoiceId, { exact: true }).waitFor();

      await modal.getByRole('link', { name: 'Ver comprobante' }).first().click();
      await page.waitForURL((url) => url.pathname.startsWith(`/invoices/${ruc}/FACTURA/`));
      await expect.poll(() => page.getByRole('dialog', { name: 'Carga de ZIP' }).count()).toBe(0);

      // Kept to be seen later.
      await page.getByRole('button', { name: 'Cargas de ZIP' }).click();
      await page.getByRole('dialog', { name: 'Cargas de ZIP recientes' }).getByText('abril.zip').first().waitFor();
    });
  }, 180_000);
});

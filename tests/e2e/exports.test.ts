import { buffer } from 'node:stream/consumers';
import ExcelJS from 'exceljs';
import { describe, expect, test } from 'vitest';
import { routes } from '@portal/shared';
import { call } from '../support/api.js';
import { signedIn, tokenOf, visit } from '../support/header.js';
import { inBrowser, settledInvoices } from '../support/web.js';

/**
 * "Exportar": from the invoices list, with its filter, the file is made by the exports worker while the
 * page shows its progress, then downloaded from the link the page offers.
 */
describe('exporting a list', () => {
  test('a supplier exports its paid invoices to Excel: progress, then the download, with every filtered row', async () => {
    const token = await tokenOf('SUPPLIER');
    const paid = await call<{ count: number }>(routes.countInvoices, { token, query: { invoiceStatus: 'PAID' } });
    expect(paid.body.count).toBeGreaterThan(0);

    await inBrowser('exports-invoices', async (page) => {
      await signedIn(page, 'SUPPLIER');
      await visit(page, '/invoices?invoiceStatus=PAID');
      await settledInvoices(page);

      // The progress may last less than a poll on an idle stage: what the page ever showed is recorded.
      await page.evaluate(`(() => {
        const seen = new Set();
        globalThis.exportTexts = seen;
        new MutationObserver(() => {
          for (const text of ['Generando archivo…', 'filas']) if (document.body.innerText.includes(text)) seen.add(text);
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      })()`);

      await page.getByRole('button', { name: 'Exportar' }).click();
      await page.getByRole('menuitem', { name: 'Excel (XLSX)' }).click();

      const download = page
        .getByRole('link', { name: 'Descargar' })
        .or(page.getByRole('button', { name: 'Descargar' }));
      await download.first().waitFor({ timeout: 60_000 });
      const seen = await page.evaluate(() => [...((globalThis as any).exportTexts as Set<string>)]);
      expect(seen).toContain('Generando archivo…');
      await expect.poll(() => page.getByText('Archivo listo').isVisible()).toBe(true);

      const [file] = await Promise.all([page.waitForEvent('download'), download.first().click()]);
      expect(file.suggestedFilename()).toMatch(/^Comprobantes \d{4}-\d{2}-\d{2} \d{2}\.\d{2}\.xlsx$/);
      const book = new ExcelJS.Workbook();
      // The browser is the run's (tests/setup/browser-server.ts): the download is read through Playwright's stream.
      const bytes = await buffer(await file.createReadStream());
      await book.xlsx.load(bytes as unknown as ArrayBuffer);
      const sheet = book.worksheets[0]!;
      expect(sheet.rowCount).toBe(paid.body.count + 1);
      const header = (sheet.getRow(1).values as unknown[]).slice(1);
      const status = header.indexOf('Estado') + 1;
      for (let row = 2; row <= sheet.rowCount; row += 1) expect(sheet.getRow(row).getCell(status).value).toBe('Pagado');
    });
  }, 120_000);
});

import { describe, expect, test } from 'vitest';
import { routes, type InvoiceDetail } from '@portal/shared';
import { CLIENTS, SUPPLIERS } from '../support/tenant.js';
import { seriousA11yViolations } from '../support/a11y.js';
import { call } from '../support/api.js';
import { tokenOf } from '../support/header.js';
import { detailPanel } from '../support/invoice-detail.js';
import { INVOICES_TEXT, freshCorrelative, openNewInvoice, withoutShellToolbarIssue } from '../support/invoices.js';
import { MINIMAL_PDF } from '../support/uploads.js';
import { inBrowser, pathOf } from '../support/web.js';

const SUPPLIER = SUPPLIERS[0]!;
const CLIENT = CLIENTS[0]!;

describe("'Nuevo comprobante': the issue date typed dd/mm/aa (spec §1, §9)", () => {
  test('types 05/11/26, keeps it, refuses 31/02/26, registers 2026-11-05 and opens the invoice', async () => {
    const number = `F001-${freshCorrelative()}`;

    await inBrowser('new-invoice-date', async (page) => {
      const panel = await openNewInvoice(page);
      const date = panel.getByLabel('Fecha de emisión');

      // Assess: the field asks for dd/mm/aa; its calendar's weeks start on Monday
      expect(await date.getAttribute('placeholder')).toBe('dd/mm/aa');
      await panel.getByRole('button', { name: /^Elegir fecha en el calendario/ }).click();
      const calendar = page.getByRole('group', { name: 'Calendario' });
      await calendar.waitFor();
      expect((await calendar.getByRole('columnheader').first().innerText()).trim()).toMatch(/^lun/);
      expect(await calendar.getByRole('columnheader').first().textContent()).toContain('lunes');
      expect(withoutShellToolbarIssue(await seriousA11yViolations(page))).toEqual([]);
      await page.keyboard.press('Escape');
      await calendar.waitFor({ state: 'hidden' });

      // Act: a day the calendar does not have, then leave the field
      await date.fill('31/02/26');
      await panel.getByLabel('Importe total').click();

      // Assess
      await panel.getByText('Esa fecha no existe en el calendario: revise el día y el mes.').waitFor();

      // Act: the rest of the form, the date as people in Peru write it
      await panel.getByLabel('Serie').fill('F001');
      await panel.getByLabel('Correlativo').fill(number.slice(5));
      await panel.getByLabel('Cliente').click();
      await page.getByRole('option', { name: new RegExp(CLIENT.name) }).click();
      await date.fill('05/11/26');
      await panel.getByLabel('Importe total').fill('1180.00');
      await panel.getByLabel('IGV').fill('180.00');
      await panel
        .getByLabel('Elegir PDF')
        .setInputFiles({ name: `${number}.pdf`, mimeType: 'application/pdf', buffer: MINIMAL_PDF });

      // Assess: kept as typed, and read back so that the year cannot be misread
      expect(await date.inputValue()).toBe('05/11/26');
      await panel.getByText('Se registrará como jueves, 5 de noviembre de 2026.').waitFor();
      expect(await panel.getByText('Esa fecha no existe').count()).toBe(0);

      // Act
      await panel.getByRole('button', { name: INVOICES_TEXT.register }).click();
      const dialog = page.getByRole('dialog', { name: INVOICES_TEXT.received });
      await dialog.waitFor({ timeout: 30_000 });
      await dialog.getByRole('button', { name: INVOICES_TEXT.understood }).click();

      // Assess: the invoice just registered opens, issued on 05/11/26, which the API stores as 2026-11-05
      const detail = detailPanel(page, number);
      await detail.waitFor({ timeout: 30_000 });
      expect(pathOf(page)).toBe(`/invoices/${SUPPLIER.taxId}/FACTURA/${number}`);
      expect(await detail.innerText()).toContain('05/11/26');
      const stored = await call<InvoiceDetail>(routes.getInvoice, {
        token: await tokenOf('SUPPLIER'),
        path: { supplierId: SUPPLIER.taxId, invoiceType: 'FACTURA', invoiceId: number },
      });
      expect(stored.status).toBe(200);
      expect(stored.body.issuedAt).toBe('2026-11-05');
    });
  });
});

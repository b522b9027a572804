import { afterAll, describe, expect, test } from 'vitest';
import { formatDate, withCheckDigit, type Invoice } from '@portal/shared';
import { CLIENTS } from '../support/tenant.js';
import { documentScreen, seriousA11yViolations } from '../support/a11y.js';
import {
  creditInvoiceFixture,
  moveStageClock,
  putStageClockBack,
  runConformityClock,
} from '../support/acquirer-conformity.js';
import { detailPanel, invoiceRow } from '../support/invoice-detail.js';
import { showInvoiceColumns, withoutShellToolbarIssue } from '../support/invoices.js';
import { demoUser } from '../support/stage.js';
import { appUrl, inBrowser, openLogin, settledInvoices, signInAs } from '../support/web.js';

/**
 * Ley 29623 on screen (docs/ap-conformity.md): the list and the sidebar show a factura al crédito's deadline and the
 * days left, the sidebar says the answer is given on SUNAT's platform and from when the days count, and the manager
 * registers the conformity answered there; with the stage's clock moved 8 days, the history of a factura left alone
 * shows the presumed conformity.
 */
const SUPPLIER = { taxId: withCheckDigit('2099100210'), name: 'Proveedor Plazo E2E S.A.C.' };
const address = (invoice: Invoice, query = '') =>
  `/invoices/${invoice.supplierId}/${invoice.type}/${invoice.id}${query}`;

afterAll(async () => {
  await putStageClockBack();
});

describe('the Ley 29623 conformity clock', () => {
  test('the list and the sidebar show the deadline and the days left; the manager registers the conformity', async () => {
    // Prepare: received two days ago (Lima), so six days are left
    const invoice = await creditInvoiceFixture({ client: CLIENTS[0]!, supplier: SUPPLIER, receivedDaysAgo: 2 });
    const deadline = formatDate(invoice.acquirerConformity!.deadline);
    const manager = demoUser('MANAGER');

    await inBrowser('acquirer-conformity-register', async (page) => {
      // The Ley 29623 column is one the manager turns on in 'Preferencias'.
      await showInvoiceColumns(page, 'MANAGER', ['number', 'acquirerConformity']);
      await openLogin(page);
      await signInAs(page, manager);
      await page.waitForURL((url) => url.pathname === '/');
      await page.goto(appUrl(`/invoices?search=${invoice.id}&acquirerConformity=OPEN`));
      await settledInvoices(page);

      // Assess: the row's deadline, and the filter applied
      const cell = invoiceRow(page, invoice.id).getByTestId('invoice-acquirer-conformity');
      await cell.getByText(`Vence el ${deadline} · quedan 6 días`).waitFor();
      expect(await cell.getAttribute('data-state')).toBe('OPEN');
      await page.getByText('Conformidad SUNAT: Por vencer').waitFor();

      // Act: open its sidebar
      await invoiceRow(page, invoice.id).getByTestId('invoice-number').click();
      const panel = detailPanel(page, invoice.id);
      const section = panel.getByTestId('acquirer-conformity-section');
      await section.waitFor();
      // The company's duty shows in the sidebar's summary; the Ley 29623 section is collapsed below it
      await panel
        .getByTestId('invoice-essentials-conformity')
        .getByText(`Vence el ${deadline} · quedan 6 días`)
        .waitFor();
      await section.getByRole('button', { name: 'Conformidad ante SUNAT (Ley 29623)' }).click();

      // Assess: where the answer is given, from when the days count, the deadline
      await section.getByText('Plataforma de Confirmación de SUNAT', { exact: false }).first().waitFor();
      await section.getByText('registrarlo en el portal no lo comunica a SUNAT', { exact: false }).waitFor();
      await section
        .getByTestId('acquirer-conformity-basis')
        .getByText(`La recepción en el portal, el ${formatDate(invoice.acquirerConformity!.countedFrom)}`, {
          exact: false,
        })
        .waitFor();
      await section
        .getByTestId('acquirer-conformity-status')
        .getByText(`Vence el ${deadline} · quedan 6 días`)
        .waitFor();
      expect(withoutShellToolbarIssue(await seriousA11yViolations(page))).toEqual([]);
      await documentScreen(page, 'invoice-acquirer-conformity');

      // Act: register the conformity answered on SUNAT's platform
      await section.getByRole('button', { name: 'Registrar conformidad' }).click();
      const dialog = page.getByRole('dialog', { name: 'Registrar conformidad' });
      await dialog
        .getByText('Registre lo que se respondió en la Plataforma de Confirmación de SUNAT', { exact: false })
        .waitFor();
      await dialog.getByRole('textbox').fill('Conformidad dada en SUNAT Operaciones en Línea.');
      await dialog.getByTestId('acquirer-conformity-confirm').click();

      // Assess: said, shown, in the history
      await page.getByText('Se registró la conformidad. Se ha notificado al proveedor.').waitFor();
      await section.locator('[data-state="CONFORMITY"]').first().waitFor();
      await section.getByTestId('acquirer-conformity-answer').getByText(manager.username, { exact: false }).waitFor();
      expect(await section.getByRole('button', { name: 'Registrar conformidad' }).count()).toBe(0);
      await panel.getByRole('button', { name: 'Historial' }).click();
      const entry = page.getByTestId('invoice-history').locator('[data-title="Conformidad registrada (Ley 29623)"]');
      await entry.getByText('Conformidad dada en SUNAT Operaciones en Línea.').waitFor();
    });
  });

  test('with the clock moved 8 days, the history of a factura left alone shows the presumed conformity', async () => {
    // Prepare: received yesterday at a company of the admin's, then 8 days pass and the job runs
    const invoice = await creditInvoiceFixture({ client: CLIENTS[2]!, supplier: SUPPLIER, receivedDaysAgo: 1 });
    const deadline = formatDate(invoice.acquirerConformity!.deadline);
    await moveStageClock(8);
    await runConformityClock();

    await inBrowser('acquirer-conformity-presumed', async (page) => {
      await showInvoiceColumns(page, 'ADMIN', ['number', 'acquirerConformity']);
      await openLogin(page);
      await signInAs(page, demoUser('ADMIN'));
      await page.waitForURL((url) => url.pathname === '/');

      // Act: the invoice's address, as a notification's link opens it
      await page.goto(appUrl(address(invoice, `?client=${CLIENTS[2]!.taxId}&search=${invoice.id}`)));
      const panel = detailPanel(page, invoice.id);
      const section = panel.getByTestId('acquirer-conformity-section');
      await section.waitFor({ timeout: 30_000 });
      await section.getByRole('button', { name: 'Conformidad ante SUNAT (Ley 29623)' }).click();

      // Assess: presumed, in the sidebar, the list and the history, by the portal itself
      await section
        .getByText('Venció el plazo sin respuesta registrada: la conformidad se presume', { exact: false })
        .waitFor();
      expect(await section.getAttribute('data-state')).toBe('PRESUMED_CONFORMITY');
      expect(await section.getByRole('button', { name: 'Registrar conformidad' }).count()).toBe(0);
      await invoiceRow(page, invoice.id)
        .getByTestId('invoice-acquirer-conformity')
        .getByText('Conformidad presunta ·', { exact: false })
        .waitFor();
      await panel.getByRole('button', { name: 'Historial' }).click();
      const entry = page
        .getByTestId('invoice-history')
        .getByRole('row')
        .filter({ hasText: 'Conformidad presunta (Ley 29623)' });
      await entry.getByText(`Venció el ${deadline} el plazo de 8 días`, { exact: false }).waitFor();
      await entry.getByText('Sistema').waitFor();
    });
  });
});

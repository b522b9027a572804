import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { CLIENTS, SUPPLIERS, buildWorld } from '../support/tenant.js';
import { seriousA11yViolations } from '../support/a11y.js';
import { detailPanel } from '../support/invoice-detail.js';
import {
  INVOICES_TEXT,
  freshCorrelative,
  ublFactura,
  withoutShellToolbarIssue,
  uploadXml,
} from '../support/invoices.js';
import { demoUser } from '../support/stage.js';
import {
  TEXT,
  appUrl,
  inBrowser,
  pathOf,
  settledInvoices,
  signIn,
  signInAs,
  signInWithPassword,
} from '../support/web.js';

/**
 * An invoice's own address, /invoices/{supplierId}/{invoiceType}/{invoiceId} (the e-mails link there):
 * the list with that invoice's detail open, through a sign-in too.
 */
const world = buildWorld();
/** Seeded invoices no test changes: one of the demo supplier's, one of another supplier's. */
const own = world.invoices.find((invoice) => invoice.supplierId === SUPPLIERS[0]!.taxId && invoice.status === 'PAID')!;
const foreign = world.invoices.find(
  (invoice) => invoice.supplierId === SUPPLIERS[1]!.taxId && invoice.client === CLIENTS[1]!.taxId,
)!;
/** One of the manager's first company, reviewed or not, that it may open. */
const managers = world.invoices.find(
  (invoice) => invoice.client === CLIENTS[0]!.taxId && invoice.supplierId === SUPPLIERS[1]!.taxId,
)!;

const linkTo = (invoice: { supplierId: string; type: string; id: string }, query = '') =>
  `/invoices/${invoice.supplierId}/${invoice.type}/${invoice.id}${query}`;

const NOT_FOUND = 'No se encontró el comprobante solicitado.';

/** Opens a link without a session: the guard shows the login instead. */
async function followSignedOut(page: Page, link: string): Promise<void> {
  await page.goto(appUrl(link));
  await page.waitForURL((url) => url.pathname === '/login');
  await page.getByRole('heading', { name: TEXT.loginTitle }).waitFor();
}

describe('links to an invoice', () => {
  test('a signed-out supplier follows the link, signs in and lands on that invoice; closing it shows the list', async () => {
    const supplier = demoUser('SUPPLIER');
    const link = linkTo(own, `?search=${own.id}`);

    await inBrowser('invoice-link-sign-in', async (page) => {
      // Act
      await followSignedOut(page, link);
      await signIn(page, supplier.username, supplier.password);

      // Assess: the invoice's address and its detail beside the list
      await page.waitForURL((url) => `${url.pathname}${url.search}` === link);
      const panel = detailPanel(page, own.id);
      await panel.waitFor({ timeout: 30_000 });
      expect(await panel.getByText(own.id, { exact: true }).first().isVisible()).toBe(true);
      expect(withoutShellToolbarIssue(await seriousA11yViolations(page))).toEqual([]);

      // Act: close the sidebar
      await page.getByRole('button', { name: 'Cerrar panel' }).click();

      // Assess: the list, filtered as the link said, without the detail
      await page.waitForURL((url) => url.pathname === '/invoices' && url.searchParams.get('search') === own.id);
      await settledInvoices(page);
      // The URL moves first; the panel leaves on the next render (read once, it was sometimes still there).
      await expect.poll(() => page.getByTestId('invoice-detail-panel').count()).toBe(0);
      // The search finds numbers by their beginning: other files' invoices on this tenant may start as this one does.
      await expect
        .poll(async () => {
          const numbers = await page.getByTestId('invoice-number').allTextContents();
          return numbers.includes(own.id) && numbers.every((number) => number.startsWith(own.id));
        })
        .toBe(true);
    });
  });

  test("a link to another supplier's invoice shows the API's 404 message in the sidebar, not its data", async () => {
    const supplier = demoUser('SUPPLIER');

    await inBrowser('invoice-link-other-tenant', async (page) => {
      await followSignedOut(page, linkTo(foreign));
      await signIn(page, supplier.username, supplier.password);

      await page.waitForURL((url) => url.pathname === linkTo(foreign));
      const panel = page.getByTestId('invoice-detail-panel');
      await panel.getByText(NOT_FOUND).waitFor({ timeout: 30_000 });
      const shown = await panel.innerText();
      expect(shown).not.toContain(foreign.supplierName);
      expect(shown).not.toContain(foreign.clientName);
      expect(await detailPanel(page, foreign.id).count()).toBe(0);
    });
  });

  test('a signed-out manager follows the link through the corporate sign-in and lands on that invoice', async () => {
    const manager = demoUser('MANAGER');
    expect(manager.signIn).toBe('corporate');

    await inBrowser('invoice-link-corporate', async (page) => {
      await followSignedOut(page, linkTo(managers));
      await signInAs(page, manager);

      // Back from the hosted UI and the corporate IdP, on the invoice it asked for
      await page.waitForURL((url) => url.pathname === linkTo(managers), { timeout: 30_000 });
      await detailPanel(page, managers.id).waitFor({ timeout: 30_000 });
    });
  });

  test("after 'Cargar XML' succeeds the invoice just received opens; Back returns to the list", async () => {
    const supplier = demoUser('SUPPLIER');
    const factura = ublFactura(freshCorrelative());

    await inBrowser('invoice-link-after-upload', async (page) => {
      await signInWithPassword(page, supplier);

      // Act
      await uploadXml(page, factura);
      const dialog = page.getByRole('dialog', { name: INVOICES_TEXT.received });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: INVOICES_TEXT.understood }).click();

      // Assess: its detail, at its address
      await detailPanel(page, factura.invoiceId).waitFor({ timeout: 30_000 });
      expect(pathOf(page)).toBe(`/invoices/${SUPPLIERS[0]!.taxId}/FACTURA/${factura.invoiceId}`);

      // Act: the browser's Back
      await page.goBack();

      // Assess
      await page.waitForURL((url) => url.pathname === '/');
      await expect.poll(() => page.getByTestId('invoice-detail-panel').count()).toBe(0);
    });
  });
});

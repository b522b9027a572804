import { describe, expect, test } from 'vitest';
import { parseTaxIds } from '@portal/shared';
import { documentScreen, seriousA11yViolations } from '../support/a11y.js';
import { inviteSupplier } from '../support/accounts.js';
import { demoUser } from '../support/stage.js';
import { TEXT, appUrl, inBrowser, openLogin, pathOf, signIn } from '../support/web.js';

describe('supplier journey', () => {
  test('a supplier signs in and sees only its own invoices in "Mis comprobantes"', async () => {
    // Prepare
    const supplier = demoUser('SUPPLIER');
    const ownRucs = parseTaxIds(supplier.taxId);
    expect(ownRucs.length).toBeGreaterThan(0);

    await inBrowser('supplier-invoices', async (page) => {
      await openLogin(page);
      await expect.poll(() => page.getByText(TEXT.loginSubtitle).isVisible()).toBe(true);

      // Act
      await signIn(page, supplier.username, supplier.password);

      // Assess
      await page.waitForURL((url) => url.pathname === '/');
      await page.getByRole('heading', { name: TEXT.invoicesTitle, level: 1 }).waitFor();
      const settled = page
        .getByTestId('invoice-number')
        .or(page.getByTestId('invoices-error'))
        .or(page.getByText(TEXT.noInvoices));
      await settled.first().waitFor({ timeout: 30_000 });

      await expect(page.getByTestId('invoices-error').count()).resolves.toBe(0);
      // Each row's number says whose invoice it is ('Proveedor' is hidden for a supplier: always itself).
      const suppliers = await page
        .getByTestId('invoice-number')
        .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-supplier-id')));
      expect(suppliers.length).toBeGreaterThan(0);
      for (const supplierId of suppliers) expect(ownRucs).toContain(supplierId);
      await expect(page.getByText(TEXT.noInvoices).count()).resolves.toBe(0);
    });
  });

  test('a supplier without a tax id lands on /supplier/forbidden and can sign out', async () => {
    // Prepare
    const supplier = demoUser('SUPPLIER', { withoutTaxId: true });

    await inBrowser('supplier-without-tax-id', async (page) => {
      await openLogin(page);

      // Act
      await signIn(page, supplier.username, supplier.password);

      // Assess
      await page.waitForURL((url) => url.pathname === '/supplier/forbidden');
      await page.getByRole('heading', { name: TEXT.forbiddenTitle }).waitFor();
      expect(pathOf(page)).toBe('/supplier/forbidden');
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'supplier-forbidden');

      await page.getByRole('button', { name: TEXT.signOut }).click();
      await page.waitForURL((url) => url.pathname === '/login');
      await page.goto(appUrl('/invoices'));
      await page.waitForURL((url) => url.pathname === '/login');
    });
  });
});

describe('password reset from the login page', () => {
  test('asks for the e-mail and confirms with the text of spec §2', async () => {
    // An account of its own: the demo supplier's account is shared by every other test. That the code
    // reaches the pool and sets a new password is login-passwords.test.ts's journey.
    const supplier = await inviteSupplier();

    await inBrowser('password-reset', async (page) => {
      await openLogin(page);
      await page.getByRole('link', { name: '¿Olvidaste tu contraseña?' }).click();
      await page.getByLabel('Correo electrónico').fill(supplier.email);
      await page.getByRole('button', { name: 'Enviar' }).click();
      await page.getByText('Recibirás un correo electrónico con detalles para restablecer tu contraseña.').waitFor();
      // The request cannot be sent twice by mistake.
      expect(await page.getByRole('button', { name: 'Enviar' }).isDisabled()).toBe(true);
    });
  });
});

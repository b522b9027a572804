import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { parseTaxIds } from '@portal/shared';
import { openBrowser, saveScreenshot } from '../support/browser.js';
import { demoUser, stage } from '../support/stage.js';

const TEXT = {
  loginTitle: 'PORTAL DE PROVEEDORES',
  loginSubtitle: 'Ingresa tus datos para iniciar sesión',
  email: 'Correo electrónico',
  password: 'Contraseña',
  signIn: 'Iniciar sesión',
  invoicesTitle: 'Mis comprobantes',
  noInvoices: 'No hay comprobantes para mostrar.',
  forbiddenTitle: 'Acceso restringido',
  signOut: 'Cerrar sesión',
} as const;

function appUrl(pathname: string): string {
  return new URL(pathname, stage().webUrl).toString();
}

function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/** Runs a journey in a fresh browser profile; a failure leaves a screenshot in tests/.artifacts/. */
async function inBrowser(name: string, journey: (page: Page) => Promise<void>): Promise<void> {
  const session = await openBrowser();
  try {
    await journey(session.page);
  } catch (error) {
    const file = await saveScreenshot(session.page, name).catch(() => null);
    if (file) console.error(`Captura de la falla: ${file}`);
    throw error;
  } finally {
    await session.close();
  }
}

async function openLogin(page: Page): Promise<void> {
  // The root path is guarded: without a session the guard sends the browser to /login.
  await page.goto(appUrl('/'));
  await page.waitForURL((url) => url.pathname === '/login');
  await page.getByRole('heading', { name: TEXT.loginTitle }).waitFor();
}

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel(TEXT.email).fill(username);
  await page.getByLabel(TEXT.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: TEXT.signIn, exact: true }).click();
}

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
        .getByTestId('invoice-supplier')
        .or(page.getByTestId('invoices-error'))
        .or(page.getByText(TEXT.noInvoices));
      await settled.first().waitFor({ timeout: 30_000 });

      await expect(page.getByTestId('invoices-error').count()).resolves.toBe(0);
      const suppliers = await page
        .getByTestId('invoice-supplier')
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

      await page.getByRole('button', { name: TEXT.signOut }).click();
      await page.waitForURL((url) => url.pathname === '/login');
      await page.goto(appUrl('/invoices'));
      await page.waitForURL((url) => url.pathname === '/login');
    });
  });
});

import type { Page } from 'playwright-core';
import { openBrowser, saveScreenshot } from './browser.js';
import { stage } from './stage.js';

export const TEXT = {
  loginTitle: 'PORTAL DE PROVEEDORES',
  loginSubtitle: 'Ingresa tus datos para iniciar sesión',
  email: 'Correo electrónico',
  password: 'Contraseña',
  signIn: 'Iniciar sesión',
  invoicesTitle: 'Mis comprobantes',
  noInvoices: 'No hay comprobantes para mostrar.',
  forbiddenTitle: 'Acceso restringido',
  signOut: 'Cerrar sesión',
  corporate: 'Ingresar con cuenta corporativa',
  corporateTitle: 'Cuenta corporativa',
  corporateEmail: 'Correo corporativo',
} as const;

export function appUrl(pathname: string): string {
  return new URL(pathname, stage().webUrl).toString();
}

export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/** Runs a journey in a fresh browser profile; a failure leaves a screenshot in tests/.artifacts/. */
export async function inBrowser(name: string, journey: (page: Page) => Promise<void>): Promise<void> {
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

export async function openLogin(page: Page): Promise<void> {
  // The root path is guarded: without a session the guard sends the browser to /login.
  await page.goto(appUrl('/'));
  await page.waitForURL((url) => url.pathname === '/login');
  await page.getByRole('heading', { name: TEXT.loginTitle }).waitFor();
}

export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel(TEXT.email).fill(username);
  await page.getByLabel(TEXT.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: TEXT.signIn, exact: true }).click();
}

/** The corporate-account button, then the corporate IdP's own sign-in page. */
export async function corporateSignIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByRole('button', { name: TEXT.corporate }).click();
  await page.getByRole('heading', { name: TEXT.corporateTitle }).waitFor();
  await page.getByLabel(TEXT.corporateEmail).fill(username);
  await page.getByLabel(TEXT.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: TEXT.signIn, exact: true }).click();
}

/** Signs a demo account in the way it signs in: staff through the corporate IdP, suppliers with a password. */
export function signInAs(page: Page, account: { username: string; password: string; signIn: string }): Promise<void> {
  return account.signIn === 'corporate'
    ? corporateSignIn(page, account.username, account.password)
    : signIn(page, account.username, account.password);
}

/** Waits until the invoices table has settled: rows, an error, or the empty state. */
export async function settledInvoices(page: Page): Promise<void> {
  await page.getByRole('heading', { name: TEXT.invoicesTitle, level: 1 }).waitFor();
  await page
    .getByTestId('invoice-supplier')
    .or(page.getByTestId('invoices-error'))
    .or(page.getByText(TEXT.noInvoices))
    .first()
    .waitFor({ timeout: 30_000 });
}

/** The values of one data attribute over the rows of the invoices table. */
export function rowAttribute(page: Page, testId: string, attribute: string): Promise<(string | null)[]> {
  return page.getByTestId(testId).evaluateAll((cells, name) => cells.map((cell) => cell.getAttribute(name)), attribute);
}

import type { Page } from 'playwright-core';
import { WebConfig } from '@portal/shared';
import { localCspSources, localSecurityHeaders } from '../../local/runtime/web-server.js';
import { openBrowser, saveScreenshot, type BrowserOptions } from './browser.js';
import { demoUser, stage } from './stage.js';
import { CLIENTS, TENANT } from './tenant.js';

export const TEXT = {
  loginTitle: 'PORTAL DE PROVEEDORES',
  loginSubtitle: 'Ingresa tus datos para iniciar sesión',
  email: 'Correo electrónico',
  password: 'Contraseña',
  signIn: 'Iniciar sesión',
  /** The invoices screen's title for a supplier, whose invoices they are. */
  invoicesTitle: 'Mis comprobantes',
  /** ... and for staff (managers, administrators), who receive them (docs/web-screens.md). */
  staffInvoicesTitle: 'Comprobantes recibidos',
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

/** A stage's /config.json as it is written, before the app's schema fills its defaults. */
export type RawWebConfig = Record<string, unknown>;

/**
 * Serves the app as a stage configured otherwise would be: `change` edits /config.json, and the site's
 * pages carry the security headers, CSP included, that the local web server would send with that
 * configuration. A test of an optional integration (chat, AWS WAF) thus runs under that stage's policy.
 */
export async function servedAs(page: Page, change: (config: RawWebConfig) => RawWebConfig): Promise<void> {
  const served = await fetch(appUrl('/config.json'));
  const config = change((await served.json()) as RawWebConfig);
  const headers = localSecurityHeaders(localCspSources(WebConfig.parse(config), stage().endpoints.s3));
  const site = new URL(stage().webUrl).origin;
  // A page Playwright fulfils has no address, so Chromium counts it as public and asks before it reaches
  // the stage's loopback services; the stage's own page is loopback already and needs no such grant.
  await page.context().grantPermissions(['local-network-access'], { origin: site });
  await page.route(
    (url) => url.origin === site,
    async (route) => {
      if (route.request().resourceType() !== 'document') return route.fallback();
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), ...headers } });
    },
  );
  await page.route(appUrl('/config.json'), (route) => route.fulfill({ json: config, headers }));
}

export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/**
 * Runs a journey in a fresh browser context; a failure leaves a screenshot in tests/.artifacts/. A journey
 * during which the browser refused anything under the site's Content-Security-Policy fails too.
 */
export async function inBrowser(
  name: string,
  journey: (page: Page) => Promise<void>,
  options: BrowserOptions = {},
): Promise<void> {
  const session = await openBrowser(options);
  const violations = () => `La aplicación infringió su Content-Security-Policy:\n${session.cspViolations.join('\n')}`;
  try {
    await journey(session.page);
  } catch (error) {
    const file = await saveScreenshot(session.page, name).catch(() => null);
    if (file) console.error(`Captura de la falla: ${file}`);
    if (session.cspViolations.length > 0) console.error(violations());
    throw error;
  } finally {
    await session.close();
  }
  if (session.cspViolations.length > 0) throw new Error(violations());
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

/** Signs `account` in with its password from the login, as a person does, and waits for its settled invoices list. */
export async function signInWithPassword(page: Page, account: { username: string; password: string }): Promise<void> {
  await openLogin(page);
  await signIn(page, account.username, account.password);
  await page.waitForURL((url) => url.pathname === '/');
  await settledInvoices(page);
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

/** The sessions this file's journeys signed in through the login, by account (what the app keeps of each). */
const sessions = new Map<string, Record<string, string>>();
/** What the app keeps of a session in localStorage: Amplify's tokens, and whether it came from the hosted UI. */
const SESSION_KEY_PREFIX = 'CognitoIdentityServiceProvider.';
const FEDERATED_SESSION_KEY = 'portal.federated-session';
/** The page's localStorage, as the functions given to page.evaluate see it (this project has no DOM types). */
interface PageStorage {
  readonly localStorage: Record<string, string> & { setItem(key: string, value: string): void; clear(): void };
}

/**
 * The account signed in and on the app's start page. The file's first journey of an account signs in from the
 * login, the way it signs in (staff through the corporate IdP); its later journeys, each in a browser context of
 * its own, start from the session that sign-in left, as someone coming back to a tab they signed in on: the sign-in
 * pages are run once per account and file, not once per journey. A session the portal no longer takes goes back
 * through the login. The journeys that test signing in call signIn or signInAs themselves.
 */
export async function startSignedIn(page: Page, account: { username: string; password: string; signIn: string }) {
  const kept = sessions.get(account.username);
  if (kept && (await resumed(page, kept))) return;
  sessions.delete(account.username);
  await openLogin(page);
  await signInAs(page, account);
  await page.waitForURL((url) => url.pathname === '/');
  const session = await page.evaluate(
    ([prefix, federated]) =>
      Object.fromEntries(
        Object.entries((globalThis as unknown as PageStorage).localStorage).filter(
          ([key]) => key.startsWith(prefix!) || key === federated,
        ),
      ) as Record<string, string>,
    [SESSION_KEY_PREFIX, FEDERATED_SESSION_KEY],
  );
  sessions.set(account.username, session);
}

/** Puts a kept session in the context's storage and opens the start page: true if the app took it. */
async function resumed(page: Page, session: Record<string, string>): Promise<boolean> {
  // A page of the app's origin that loads nothing, only to reach its storage.
  const blank = appUrl('/__sesion-de-prueba');
  await page.route(blank, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title></title>' }),
  );
  try {
    await page.goto(blank);
    await page.evaluate((entries) => {
      const { localStorage } = globalThis as unknown as PageStorage;
      for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
    }, session);
  } finally {
    await page.unroute(blank);
  }
  await page.goto(appUrl('/'));
  // Taken: the start page's list answered. Refused (a journey signed the account out since, which revokes its tokens):
  // the login, or the list's error.
  const taken = page.getByTestId('invoice-number').or(page.getByText(TEXT.noInvoices));
  const refused = page.getByRole('heading', { name: TEXT.loginTitle }).or(page.getByTestId('invoices-error'));
  await taken.or(refused).first().waitFor({ timeout: 30_000 });
  if (pathOf(page) === '/' && (await taken.first().isVisible())) return true;
  await page.evaluate(() => (globalThis as unknown as PageStorage).localStorage.clear());
  return false;
}

/**
 * A demo role signed in (startSignedIn) and landed on its settled invoices list. An administrator sees every company and
 * lands on the first of the group's: on a test tenant's stage, the list is then opened on the tenant's first
 * company, as the demo administrator lands on the demo's.
 */
export async function signInToInvoices(page: Page, role: 'SUPPLIER' | 'MANAGER' | 'ADMIN'): Promise<void> {
  await startSignedIn(page, demoUser(role));
  if (role === 'ADMIN' && TENANT !== 0) await page.goto(appUrl(`/?client=${CLIENTS[0]!.taxId}`));
  await settledInvoices(page);
}

/** The invoices screen's title, a supplier's or staff's, with its counter when it has one. */
export const INVOICES_TITLE = new RegExp(`^(${TEXT.invoicesTitle}|${TEXT.staffInvoicesTitle})\\b`);

/** The invoices screen's title as a role reads it: a supplier's own invoices, or those staff receive. */
export function invoicesTitleOf(role: 'SUPPLIER' | 'MANAGER' | 'ADMIN'): string {
  return role === 'SUPPLIER' ? TEXT.invoicesTitle : TEXT.staffInvoicesTitle;
}

/** Waits until the invoices list (a table, or cards on a phone) has settled: invoices, an error, or the empty state. */
export async function settledInvoices(page: Page): Promise<void> {
  await page.getByRole('heading', { name: INVOICES_TITLE, level: 1 }).waitFor();
  await page
    .getByTestId('invoice-number')
    .or(page.getByTestId('invoices-error'))
    .or(page.getByText(TEXT.noInvoices))
    .first()
    .waitFor({ timeout: 30_000 });
}

/**
 * The values of one data attribute over the rows of the invoices table. Every row's number carries whose
 * invoice it is (`data-supplier-id`, `data-client-id`), whichever party columns show.
 */
export function rowAttribute(page: Page, testId: string, attribute: string): Promise<(string | null)[]> {
  return page.getByTestId(testId).evaluateAll((cells, name) => cells.map((cell) => cell.getAttribute(name)), attribute);
}

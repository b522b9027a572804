import { describe, expect, test } from 'vitest';
import { documentScreen, seriousA11yViolations } from '../support/a11y.js';
import { demoUser, stage } from '../support/stage.js';
import { TEXT, appUrl, corporateSignIn, inBrowser, openLogin, pathOf, signIn } from '../support/web.js';

/** What the login says to an address of the group's corporate domain typed into the password form. */
const STAFF_USE_CORPORATE =
  'Las cuentas corporativas (@grupoandino.pe) no tienen contraseña en el portal: ingresa con el botón «Ingresar con cuenta corporativa».';

describe('corporate single sign-on (local corporate IdP through the hosted UI)', () => {
  test('a staff member without companies reaches the manager forbidden page, and signing out ends the corporate session', async () => {
    // Prepare
    const manager = demoUser('MANAGER', { withoutTaxId: true });
    expect(manager.signIn).toBe('corporate');

    await inBrowser('corporate-manager-without-companies', async (page) => {
      await openLogin(page);

      // Act
      await corporateSignIn(page, manager.username, manager.password);

      // Assess: the token says MANAGER (staff group) and no taxId → spec §6 forbidden page
      await page.waitForURL((url) => url.pathname === '/manager/forbidden');
      await page.getByRole('heading', { name: TEXT.forbiddenTitle }).waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'manager-forbidden');

      // Act: sign out goes through the hosted UI's /logout and back to the root, which asks to sign in
      const visited: string[] = [];
      page.on('request', (request) => visited.push(request.url()));
      // The app may route to its login before the browser leaves for the hosted UI: the journey ends on the document
      // the hosted UI sends back to the root, which loads anew (the app's own routing loads none).
      const back = page.waitForEvent('load');
      await page.getByRole('button', { name: TEXT.signOut }).click();
      await back;
      await page.waitForURL((url) => url.pathname === '/login');
      expect(visited.some((url) => url.startsWith(`${stage().cognitoEndpoint}/logout?`))).toBe(true);
      await page.goto(appUrl('/invoices'));
      await page.waitForURL((url) => url.pathname === '/login');
      expect(pathOf(page)).toBe('/login');
    });
  });

  test('a wrong corporate password stays at the IdP with its message; cancelling comes back to the login', async () => {
    const admin = demoUser('ADMIN');

    await inBrowser('corporate-wrong-password-and-cancel', async (page) => {
      await openLogin(page);
      await corporateSignIn(page, admin.username, 'No-es-la-clave1');
      await page.getByText('Usuario o contraseña incorrectos.').waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'corporate-idp-sign-in');

      await page.getByRole('button', { name: 'Cancelar' }).click();
      await page.waitForURL((url) => url.pathname === '/login');
      await page.getByText('Se canceló el ingreso con cuenta corporativa.').waitFor();
      expect(new URL(page.url()).search).toBe('');
    });
  });

  test('staff who type their corporate e-mail into the password form are sent to the corporate button; no password is tried', async () => {
    const manager = demoUser('MANAGER');
    expect(manager.username.endsWith('@grupoandino.pe')).toBe(true);

    await inBrowser('corporate-staff-password-form', async (page) => {
      await openLogin(page);
      const signInCalls: string[] = [];
      page.on('request', (request) => {
        const target = request.headers()['x-amz-target'] ?? '';
        if (request.url().startsWith(stage().cognitoEndpoint) && /InitiateAuth/.test(target)) signInCalls.push(target);
      });

      // Act
      await signIn(page, manager.username, manager.password);

      // Assess: told to use the corporate button, which is now the highlighted (primary, focused) one
      await page.getByText(STAFF_USE_CORPORATE).waitFor();
      expect(await page.getByText('Usuario o contraseña incorrectos.').count()).toBe(0);
      const corporate = page.getByTestId('corporate-sign-in');
      await expect
        .poll(() => corporate.evaluate((button) => button === (globalThis as any).document.activeElement))
        .toBe(true);
      expect(await corporate.getAttribute('class')).toMatch(/variant-primary/);
      expect(signInCalls).toEqual([]);
      expect(pathOf(page)).toBe('/login');
      expect(await seriousA11yViolations(page)).toEqual([]);

      // Act: the button it points to signs the manager in
      await corporateSignIn(page, manager.username, manager.password);

      // Assess
      await page.waitForURL((url) => url.pathname === '/');
      expect(signInCalls).toEqual([]);
    });
  });
});

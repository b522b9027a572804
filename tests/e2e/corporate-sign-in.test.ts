import { describe, expect, test } from 'vitest';
import { documentScreen, seriousA11yViolations } from '../support/a11y.js';
import { demoUser, stage } from '../support/stage.js';
import { TEXT, appUrl, corporateSignIn, inBrowser, openLogin, pathOf, signIn } from '../support/web.js';

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
      await page.getByRole('button', { name: TEXT.signOut }).click();
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

  test('staff cannot sign in with the e-mail and password form: they have no portal password', async () => {
    const manager = demoUser('MANAGER');

    await inBrowser('corporate-staff-password-form', async (page) => {
      await openLogin(page);
      await signIn(page, manager.username, manager.password);
      await page.getByText('Usuario o contraseña incorrectos.').waitFor();
      expect(pathOf(page)).toBe('/login');
    });
  });
});

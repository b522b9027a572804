import { describe, expect, test } from 'vitest';
import { inviteSupplier, newestResetCodeOf, temporaryPasswordOf } from '../support/accounts.js';
import { documentScreen, seriousA11yViolations } from '../support/a11y.js';
import { TEXT, inBrowser, openLogin, pathOf, settledInvoices, signIn } from '../support/web.js';

const OWN_PASSWORD = 'Mi-Clave#Propia2026';
const NEW_PASSWORD = 'Otra-Clave#Nueva2026';

describe('passwords at the login page', () => {
  test('an invited supplier replaces its temporary password at its first sign-in, then resets it with the e-mailed code', async () => {
    // Prepare: an account of its own, invited by the administrator
    const supplier = await inviteSupplier();
    const temporary = await temporaryPasswordOf(supplier.email);

    await inBrowser('login-passwords', async (page) => {
      await openLogin(page);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'login');

      // Act: the temporary password leads to 'Crea tu contraseña'
      await signIn(page, supplier.email, temporary);
      await page.getByRole('heading', { name: 'Crea tu contraseña' }).waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'login-new-password');

      // Assess: the pool's policy and the repetition are checked before anything is sent
      await page.getByLabel('Nueva contraseña', { exact: true }).fill('corta');
      await page.getByLabel('Repite la nueva contraseña').fill('otra');
      await page.getByRole('button', { name: 'Guardar e ingresar' }).click();
      await page
        .getByText('La contraseña debe tener al menos 12 caracteres, con mayúsculas, minúsculas, números y símbolos.')
        .waitFor();
      await page.getByText('Las contraseñas no coinciden.').waitFor();

      // Act: a password of its own signs it in
      await page.getByLabel('Nueva contraseña', { exact: true }).fill(OWN_PASSWORD);
      await page.getByLabel('Repite la nueva contraseña').fill(OWN_PASSWORD);
      await page.getByRole('button', { name: 'Guardar e ingresar' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await settledInvoices(page);

      // Act: sign out, then 'forgot password' with the code the pool e-mails
      await page.getByRole('button', { name: /Nora Quispe/ }).click();
      await page.getByRole('menuitem', { name: TEXT.signOut }).click();
      await page.waitForURL((url) => url.pathname === '/login');
      await page.getByLabel(TEXT.email).fill(supplier.email);
      await page.getByRole('link', { name: '¿Olvidaste tu contraseña?' }).click();
      await page.getByRole('button', { name: 'Enviar' }).click();
      await page.getByText('Recibirás un correo electrónico con detalles para restablecer tu contraseña.').waitFor();
      const code = await newestResetCodeOf(supplier.email);

      await page.getByRole('button', { name: 'Ya tengo un código' }).click();
      await page.getByRole('heading', { name: 'Ingresa el código' }).waitFor();
      await page.getByLabel('Código de verificación').fill('000000');
      await page.getByLabel('Nueva contraseña', { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel('Repite la nueva contraseña').fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
      await page.getByText('El código no es válido. Revisa el correo electrónico más reciente.').waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'login-reset-code');

      await page.getByLabel('Código de verificación').fill(code);
      await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
      await page.getByText('Tu contraseña fue actualizada. Ya puedes iniciar sesión con ella.').waitFor();

      // Assess: the old password no longer works, the new one does
      await page.getByLabel(TEXT.password, { exact: true }).fill(OWN_PASSWORD);
      await page.getByRole('button', { name: TEXT.signIn, exact: true }).click();
      await page.getByText('Usuario o contraseña incorrectos.').waitFor();
      await page.getByLabel(TEXT.password, { exact: true }).fill(NEW_PASSWORD);
      await page.getByRole('button', { name: TEXT.signIn, exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/');
      expect(pathOf(page)).toBe('/');
    });
  });
});

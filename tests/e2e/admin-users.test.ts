import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { routes } from '@portal/shared';
import { CLIENTS } from '../support/tenant.js';
import { documentScreen, seriousA11yViolations } from '../support/a11y.js';
import {
  ADMIN_TEXT,
  adminToken,
  cognitoLogMark,
  createSupplierAccount,
  externalUserByEmail,
  freshEmail,
  freshRuc,
  internalUserByEmail,
  invitationPasswordOf,
  openAdminScreen,
  pageToUser,
  resetCodeSentTo,
  settledUsers,
  userRow,
} from '../support/admin.js';
import { call } from '../support/api.js';
import { mailbox } from '../support/fixtures.js';
import { demoAccount, demoUser } from '../support/stage.js';
import {
  corporateSignIn,
  inBrowser,
  openLogin,
  pathOf,
  settledInvoices,
  signIn,
  startSignedIn,
} from '../support/web.js';

const OWN_PASSWORD = 'Propia#Clave2026';
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A supplier signs in on its own browser and reaches its invoices. */
function supplierReachesInvoices(email: string, password: string): Promise<void> {
  return inBrowser('admin-users-supplier-sign-in', async (page) => {
    await openLogin(page);
    await signIn(page, email, password);
    await page.waitForURL((url) => url.pathname === '/');
    await settledInvoices(page);
  });
}

describe('user administration screens', () => {
  test('an administrator creates a supplier account, finds it by RUC, switches its e-mail reception, resets its password, disables and enables it', async () => {
    // Prepare: another account of the same supplier (same RUC), for the bulk change
    const ruc = freshRuc();
    const businessName = `Pruebas e2e ${randomUUID().slice(0, 8)} S.A.C.`;
    const colleague = await createSupplierAccount({ email: freshEmail(), taxId: ruc, businessName });
    const email = freshEmail();
    const wrongRuc = `${ruc.slice(0, 10)}${(Number(ruc[10]) + 1) % 10}`;
    const toggleOf = (page: Parameters<typeof userRow>[0], who: string) =>
      page.getByLabel(`Recepción de correos de ${who}`, { exact: true });

    await inBrowser('admin-suppliers', async (page) => {
      await startSignedIn(page, demoUser('ADMIN'));
      await openAdminScreen(page, ADMIN_TEXT.suppliersNav, ADMIN_TEXT.suppliersTitle);
      await settledUsers(page);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'suppliers');

      // Act: the form checks each field as it is left (the RUC by its check digit)
      await page.getByRole('button', { name: ADMIN_TEXT.createSupplier }).click();
      const form = page.getByRole('dialog', { name: ADMIN_TEXT.createSupplier });
      await form.getByLabel('Correo electrónico', { exact: true }).fill(colleague.email);
      await form.getByLabel('Nombres', { exact: true }).fill('Nora');
      await form.getByLabel('Apellidos', { exact: true }).fill('Quispe');
      await form.getByLabel('RUC', { exact: true }).fill(wrongRuc);
      await form.getByLabel('Razón social', { exact: true }).focus();
      const rucProblem = form.getByText(`El RUC ${wrongRuc} no es válido: revise sus 11 dígitos.`);
      await rucProblem.waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'supplier-create-modal');
      await form.getByLabel('RUC', { exact: true }).fill(ruc);
      await rucProblem.waitFor({ state: 'detached' });
      await form.getByLabel('Razón social', { exact: true }).fill(businessName);

      // An address that already has an account is refused beside its field
      await form.getByRole('button', { name: ADMIN_TEXT.createSupplier }).click();
      await form.getByText('Ya existe un usuario con ese correo electrónico.').waitFor();
      await form.getByLabel('Correo electrónico', { exact: true }).fill(email);
      await form.getByRole('button', { name: ADMIN_TEXT.createSupplier }).click();

      // Assess: the account exists and its invitation reached the mailbox
      await page.getByText(`Se creó la cuenta de ${email} y se le envió la invitación por correo.`).waitFor();
      await form.waitFor({ state: 'detached' });
      await expect.poll(() => invitationPasswordOf(email)).not.toBeNull();
      const invitation = (await mailbox()).find((mail) => mail.to.includes(email))!;
      expect(invitation.subject).toBe(ADMIN_TEXT.invitationSubject);
      expect(invitation.text).toContain(`${businessName} (RUC ${ruc})`);

      // The supplier's first sign-in: the temporary password, then the login asks for one of its own
      const temporaryPassword = (await invitationPasswordOf(email))!;
      await inBrowser('admin-users-first-sign-in', async (supplierPage) => {
        await openLogin(supplierPage);
        await signIn(supplierPage, email, temporaryPassword);
        await supplierPage.getByRole('heading', { name: ADMIN_TEXT.newPasswordTitle }).waitFor();
        await supplierPage.getByLabel(ADMIN_TEXT.newPassword, { exact: true }).fill(OWN_PASSWORD);
        await supplierPage.getByLabel(ADMIN_TEXT.repeatPassword, { exact: true }).fill(OWN_PASSWORD);
        await supplierPage.getByRole('button', { name: ADMIN_TEXT.saveAndSignIn }).click();
        await supplierPage.waitForURL((url) => url.pathname === '/');
        await settledInvoices(supplierPage);
      });

      // Act: find the supplier's accounts by RUC
      await page.getByLabel(ADMIN_TEXT.search, { exact: true }).fill(ruc);

      // Assess: both accounts of the RUC, and only them
      await expect.poll(() => page.getByTestId('user-cell').count()).toBe(2);
      const row = userRow(page, email);
      await expect.poll(() => row.getByTestId('account-status').textContent()).toBe('Activo');
      expect(await row.textContent()).toContain(businessName);
      expect(await userRow(page, colleague.email).textContent()).toContain(ruc);

      // Act: one account's reception off with its toggle
      expect(await toggleOf(page, email).isChecked()).toBe(true);
      await toggleOf(page, email).click();
      await page.getByText(`Se desactivó la recepción de correos de ${email}.`).waitFor();
      await expect.poll(() => toggleOf(page, email).isChecked()).toBe(false);

      // Act: both accounts off, then on, in bulk
      await page.getByRole('checkbox', { name: `Seleccionar a ${email}`, exact: true }).check();
      await page.getByRole('checkbox', { name: `Seleccionar a ${colleague.email}`, exact: true }).check();
      await page.getByRole('button', { name: ADMIN_TEXT.bulkOff, exact: true }).click();
      // A bulk change is asked first, naming how many accounts and suppliers it reaches
      const bulkOffDialog = page.getByRole('dialog', { name: ADMIN_TEXT.bulkOff });
      await bulkOffDialog.getByText('¿Desactivar la recepción de correos para 2 cuentas de 1 proveedor?').waitFor();
      expect(await toggleOf(page, colleague.email).isChecked()).toBe(true);
      await bulkOffDialog.getByRole('button', { name: 'Desactivar', exact: true }).click();
      await page.getByText('Se desactivó la recepción de correos de 2 cuentas.').waitFor();
      await expect.poll(() => toggleOf(page, colleague.email).isChecked()).toBe(false);
      await page.getByRole('button', { name: ADMIN_TEXT.bulkOn, exact: true }).click();
      const bulkOnDialog = page.getByRole('dialog', { name: ADMIN_TEXT.bulkOn });
      await bulkOnDialog.getByText('¿Activar la recepción de correos para 2 cuentas de 1 proveedor?').waitFor();
      await bulkOnDialog.getByRole('button', { name: 'Activar', exact: true }).click();
      await page.getByText('Se activó la recepción de correos de 2 cuentas.').waitFor();

      // Assess
      await expect.poll(() => toggleOf(page, email).isChecked()).toBe(true);
      await expect.poll(() => toggleOf(page, colleague.email).isChecked()).toBe(true);
      expect((await externalUserByEmail(email))?.canReceiveEmails).toBe(true);
      expect((await externalUserByEmail(colleague.email))?.canReceiveEmails).toBe(true);

      // Act: the reset e-mail, after its confirmation
      const mark = cognitoLogMark();
      await row.getByRole('button', { name: `Opciones de ${email}` }).click();
      await page.getByRole('menuitem', { name: ADMIN_TEXT.reset }).click();
      const resetDialog = page.getByRole('dialog', { name: ADMIN_TEXT.reset });
      await resetDialog.getByText(`Se enviará a ${email} un correo para restablecer su contraseña.`).waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'supplier-reset-confirm');
      await resetDialog.getByRole('button', { name: 'Enviar correo' }).click();

      // Assess: it says a code was sent (the account has signed in), and Cognito sent one
      await page.getByText(`Se envió a ${email} un correo con el código para restablecer su contraseña.`).waitFor();
      await expect.poll(() => resetCodeSentTo(email, mark)).toMatch(/^\d{6}$/);

      // Act: disable the account
      await row.getByRole('button', { name: `Opciones de ${email}` }).click();
      await page.getByRole('menuitem', { name: ADMIN_TEXT.disable }).click();
      await page
        .getByRole('dialog', { name: 'Deshabilitar cuenta' })
        .getByRole('button', { name: 'Deshabilitar' })
        .click();

      // Assess: shown disabled, and the supplier can no longer sign in
      await page.getByText(`Se deshabilitó la cuenta de ${email}. Ya no puede iniciar sesión.`).waitFor();
      await expect.poll(() => row.getByTestId('account-status').textContent()).toBe('Deshabilitado');
      await inBrowser('admin-users-disabled-supplier', async (supplierPage) => {
        await openLogin(supplierPage);
        await signIn(supplierPage, email, OWN_PASSWORD);
        await supplierPage.getByText(ADMIN_TEXT.badCredentials).waitFor();
        expect(pathOf(supplierPage)).toBe('/login');
      });

      // Act: enable it again
      await row.getByRole('button', { name: `Opciones de ${email}` }).click();
      await page.getByRole('menuitem', { name: ADMIN_TEXT.enable }).click();
      await page.getByRole('dialog', { name: 'Habilitar cuenta' }).getByRole('button', { name: 'Habilitar' }).click();

      // Assess
      await page.getByText(`Se habilitó la cuenta de ${email}. Ya puede iniciar sesión.`).waitFor();
      await expect.poll(() => row.getByTestId('account-status').textContent()).toBe('Activo');
      await supplierReachesInvoices(email, OWN_PASSWORD);

      // Act: the account's history
      await row.getByRole('button', { name: `Opciones de ${email}` }).click();
      await page.getByRole('menuitem', { name: ADMIN_TEXT.history }).click();
      const history = page.getByRole('dialog', { name: 'Historial de Nora Quispe' });

      // Assess: every change, newest first, with who made it and what changed
      await expect
        .poll(() => history.getByTestId('history-action').allTextContents())
        .toEqual([
          'Usuario habilitado',
          'Usuario deshabilitado',
          'Restablecimiento de contraseña',
          'Recepción de correos',
          'Recepción de correos',
          'Creación de usuario',
        ]);
      const records = history.getByTestId('history-event');
      expect(await records.nth(0).textContent()).toContain(demoUser('ADMIN').username);
      expect(await records.nth(0).textContent()).toContain('Deshabilitada → Habilitada');
      expect(await records.nth(3).textContent()).toContain('Desactivada → Activada');
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'user-history');
      await history.getByRole('button', { name: ADMIN_TEXT.close, exact: true }).click();
      await history.waitFor({ state: 'detached' });
    });
  }, 300_000);

  test('an administrator assigns a company to a staff member without companies; her next sign-in reaches the invoices', async () => {
    // Prepare: her first corporate sign-in creates her account, without companies
    const sofia = demoAccount('sofia.paredes@grupoandino.pe');
    const company = CLIENTS[2]!;
    await inBrowser('admin-users-sofia-first-sign-in', async (page) => {
      await openLogin(page);
      await corporateSignIn(page, sofia.username, sofia.password);
      await page.waitForURL((url) => url.pathname === '/manager/forbidden');
    });

    try {
      await inBrowser('admin-employees', async (page) => {
        await startSignedIn(page, demoUser('ADMIN'));
        await openAdminScreen(page, ADMIN_TEXT.employeesNav, ADMIN_TEXT.employeesTitle);
        await settledUsers(page);
        expect(await seriousA11yViolations(page)).toEqual([]);
        await documentScreen(page, 'employees');

        const row = await pageToUser(page, sofia.username);
        expect(await row.getByTestId('employee-companies').textContent()).toBe('Sin sociedades asignadas');
        expect(await row.textContent()).toContain('Gestor');

        // Act: add the company in the reassign modal and save
        await row.getByRole('button', { name: /^Reasignar sociedades de / }).click();
        const modal = page.getByRole('dialog', { name: /^Reasignar sociedades de / });
        await modal.getByRole('button', { name: /Sociedad por asignar/ }).click();
        await page.getByRole('option', { name: new RegExp(escape(company.name)) }).click();
        await modal.getByRole('button', { name: ADMIN_TEXT.add, exact: true }).click();
        await modal.getByText('Cambios por guardar: 1 por asignar y 0 por retirar.').waitFor();
        expect(await seriousA11yViolations(page)).toEqual([]);
        await documentScreen(page, 'employee-reassign-modal');
        await modal.getByRole('button', { name: ADMIN_TEXT.save }).click();

        // Assess: the table shows her company, and her history the assignment
        await page.getByText(/^Se actualizaron las sociedades de /).waitFor();
        await modal.waitFor({ state: 'detached' });
        await expect.poll(() => row.getByTestId('employee-companies').textContent()).toBe(company.name);
        await row.getByRole('button', { name: /^Historial de / }).click();
        const history = page.getByRole('dialog', { name: /^Historial de / });
        await expect.poll(() => history.getByTestId('history-action').first().textContent()).toBe('Sociedad asignada');
        expect(await history.getByTestId('history-event').first().textContent()).toContain(`— → ${company.name}`);
      });

      // Assess: her next sign-in carries the company and reaches the invoices, not the forbidden page
      await inBrowser('admin-users-sofia-assigned', async (page) => {
        await openLogin(page);
        await corporateSignIn(page, sofia.username, sofia.password);
        await page.waitForURL((url) => url.pathname === '/');
        await settledInvoices(page);
        expect(pathOf(page)).toBe('/');
      });
    } finally {
      // Put her back as the seed describes her: no companies.
      const account = await internalUserByEmail(sofia.username);
      if (account) {
        await call(routes.unassignClientFromInternalUser, {
          token: await adminToken(),
          path: { userId: account.id },
          query: { client: company.taxId },
        });
      }
    }
  }, 240_000);
});

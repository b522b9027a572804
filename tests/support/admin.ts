import { randomInt, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { routes, withCheckDigit, type CreatedExternalUser, type ExternalUser, type InternalUser } from '@portal/shared';
import { call, idTokenOf } from './api.js';
import { mailbox } from './fixtures.js';
import { demoUser, stage } from './stage.js';

/** The texts of the user administration screens the browser tests look for. */
export const ADMIN_TEXT = {
  employeesNav: 'Usuarios internos',
  suppliersNav: 'Usuarios proveedores',
  employeesTitle: 'Usuarios internos',
  suppliersTitle: 'Usuarios proveedores',
  search: 'Buscar usuarios proveedores por RUC, razón social o correo electrónico',
  createSupplier: 'Crear proveedor',
  bulkOn: 'Activar recepción de correos',
  bulkOff: 'Desactivar recepción de correos',
  reset: 'Enviar correo de restablecimiento de contraseña',
  disable: 'Deshabilitar',
  enable: 'Habilitar',
  history: 'Historial',
  save: 'Guardar cambios',
  add: 'Agregar',
  close: 'Cerrar',
  badCredentials: 'Usuario o contraseña incorrectos.',
  newPasswordTitle: 'Crea tu contraseña',
  newPassword: 'Nueva contraseña',
  repeatPassword: 'Repite la nueva contraseña',
  saveAndSignIn: 'Guardar e ingresar',
  invitationSubject: 'Portal de Proveedores: su cuenta de acceso',
} as const;

/** The ID token of the demo administrator. */
export const adminToken = () => idTokenOf(demoUser('ADMIN').username, demoUser('ADMIN').password);

/** A RUC of this run: an unused-looking number with SUNAT's check digit. */
export const freshRuc = () => withCheckDigit(`20${String(randomInt(10_000_000, 99_999_999))}`);

/** An address nobody else uses. */
export const freshEmail = () => `${randomUUID().slice(0, 8)}@pruebas.pe`;

/** A supplier account made through the API, as a test's prepared world. */
export async function createSupplierAccount(input: {
  email: string;
  taxId: string;
  businessName: string;
  firstName?: string;
  lastName?: string;
}): Promise<CreatedExternalUser> {
  const response = await call<CreatedExternalUser>(routes.createExternalUser, {
    token: await adminToken(),
    body: { firstName: 'Rosa', lastName: 'Mamani', ...input },
  });
  if (response.status !== 201)
    throw new Error(`createExternalUser ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body;
}

/** A supplier account as the API lists it now (found by its e-mail prefix). */
export async function externalUserByEmail(email: string): Promise<ExternalUser | undefined> {
  const response = await call<{ items: ExternalUser[] }>(routes.listExternalUsers, {
    token: await adminToken(),
    query: { query: email },
  });
  return response.body.items.find((user) => user.email === email);
}

/** A staff account as the API lists it now, looked for through every page of the pool. */
export async function internalUserByEmail(email: string): Promise<InternalUser | undefined> {
  const token = await adminToken();
  let cursor: string | undefined;
  do {
    const response = await call<{ items: InternalUser[]; nextCursor: string | null }>(routes.listInternalUsers, {
      token,
      query: { limit: 100, cursor },
    });
    const found = response.body.items.find((user) => user.email === email);
    if (found) return found;
    cursor = response.body.nextCursor ?? undefined;
  } while (cursor);
  return undefined;
}

/** The temporary password of the newest portal invitation to `email`, if one arrived. */
export async function invitationPasswordOf(email: string): Promise<string | null> {
  const mail = (await mailbox()).find((message) => message.to.includes(email));
  if (!mail) return null;
  return /Contraseña temporal: (\S+)/.exec(mail.text)?.[1] ?? null;
}

const cognitoLog = () => path.join(stage().dataDir, 'logs/cognito.log');

/** Where cognito-local's "e-mail" log ends now: codes printed after it are a test's own. */
export function cognitoLogMark(): number {
  return existsSync(cognitoLog()) ? readFileSync(cognitoLog(), 'utf8').length : 0;
}

/** The password-reset code cognito-local "e-mailed" to `email` after `mark`, if it did. */
export function resetCodeSentTo(email: string, mark: number): string | null {
  if (!existsSync(cognitoLog())) return null;
  const pattern = new RegExp(
    `ForgotPassword[\\s\\S]*?Destination: +${email.replace(/[.]/g, '\\.')}[\\s\\S]*?Code: +(\\d{6})`,
  );
  return pattern.exec(readFileSync(cognitoLog(), 'utf8').slice(mark))?.[1] ?? null;
}

/** Opens an administration screen the way an administrator does: from the side navigation. */
export async function openAdminScreen(page: Page, nav: string, title: string): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: nav, exact: true }).click();
  await page.getByRole('heading', { name: title, level: 1 }).waitFor();
}

/** Waits until a user table has settled: rows, an error, or its empty text. */
export async function settledUsers(page: Page): Promise<void> {
  await page
    .getByTestId('user-cell')
    .or(page.getByTestId('employees-error'))
    .or(page.getByTestId('suppliers-error'))
    .or(page.getByText('No hay usuarios'))
    .or(page.getByText('Ningún usuario coincide con la búsqueda.'))
    .first()
    .waitFor({ timeout: 30_000 });
}

/** The table row of an account, by the e-mail it shows. */
export function userRow(page: Page, email: string): Locator {
  return page.getByRole('row').filter({ has: page.locator(`[data-testid="user-cell"][data-email="${email}"]`) });
}

/**
 * Goes through the pages of a user table until the account's row shows, as a person would with
 * 'Página siguiente' (the staff listing has no search).
 */
export async function pageToUser(page: Page, email: string): Promise<Locator> {
  const row = userRow(page, email);
  const next = page.getByRole('button', { name: 'Página siguiente' });
  for (let turn = 0; turn < 50; turn++) {
    await settledUsers(page);
    if ((await row.count()) > 0) return row;
    if (!(await next.isEnabled())) break;
    await next.click();
    await page.locator(`button[aria-label="Página ${turn + 2}"][aria-current="true"]`).waitFor();
  }
  throw new Error(`${email} is not on any page of ${page.url()}`);
}

import { randomInt, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  CognitoIdentityProviderClient,
  AdminUserGlobalSignOutCommand,
  ConfirmForgotPasswordCommand,
  GetTokensFromRefreshTokenCommand,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  ROUTES,
  keys,
  notificationAbout,
  notificationText,
  routes,
  type AuditEvent,
  type ExternalUser,
  type InternalUser,
} from '@portal/shared';
import { CLIENTS } from '../support/tenant.js';
import { call, completeFirstSignIn, corporateIdToken, idTokenOf } from '../support/api.js';
import { mailbox, sendToQueue, sendTracked, table } from '../support/fixtures.js';
import { demoUser, stage } from '../support/stage.js';
import { until } from '../support/until.js';
import { freshRuc } from '../support/admin.js';

/**
 * The user administration against the local stage: Cognito (cognito-local behind its proxy), the table,
 * the mailbox and the notifications worker. Every test works on accounts and RUCs of its own; the one
 * test that must touch a demo account (the manager, for company assignment) puts it back as it was.
 */

const adminToken = () => idTokenOf(demoUser('ADMIN').username, demoUser('ADMIN').password);
const NEW_PASSWORD = 'Nueva#Clave2026x';

function cognito() {
  const { region, cognitoEndpoint } = stage();
  return new CognitoIdentityProviderClient({
    region,
    endpoint: cognitoEndpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
}

/** A USER_PASSWORD_AUTH sign-in, as the web app does it, never cached. */
function initiateAuth(username: string, password: string) {
  return cognito().send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: stage().userPoolClientId,
      AuthParameters: { USERNAME: username, PASSWORD: password },
    }),
  );
}

/** The error name a sign-in fails with, or 'signed in'. */
async function signInOutcome(username: string, password: string): Promise<string> {
  try {
    const answer = await initiateAuth(username, password);
    return answer.AuthenticationResult?.IdToken ? 'signed in' : (answer.ChallengeName ?? 'no tokens');
  } catch (error) {
    return (error as Error).name;
  }
}

/** A fresh ID token of a demo account (idTokenOf caches its tokens; these tests need the next one). */
async function freshIdToken(username: string, password: string): Promise<string> {
  const account = stage().demoUsers.find((user) => user.username === username);
  if (account?.signIn === 'corporate') return corporateIdToken(username, password);
  return (await initiateAuth(username, password)).AuthenticationResult!.IdToken!;
}

interface TestSupplier {
  readonly user: ExternalUser;
  readonly email: string;
  readonly ruc: string;
  readonly businessName: string;
  readonly tag: string;
}

async function createSupplier(options: { canReceiveEmails?: boolean } = {}): Promise<TestSupplier> {
  const tag = randomUUID().slice(0, 8);
  const email = `${randomUUID()}@pruebas.pe`;
  const ruc = freshRuc();
  const businessName = `Pruebas ${tag} S.A.C.`;
  const response = await call<ExternalUser & { invitationSent: boolean }>(routes.createExternalUser, {
    token: await adminToken(),
    body: { email, firstName: 'Nora', lastName: 'Quispe', taxId: ruc, businessName, ...options },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  expect(response.body.invitationSent).toBe(true);
  return { user: response.body, email, ruc, businessName, tag };
}

/** The temporary password of the newest invitation sent to `email`. */
async function temporaryPasswordOf(email: string): Promise<string> {
  const mail = (await mailbox()).find((message) => message.to.includes(email));
  const password = mail && /Contraseña temporal: (\S+)/.exec(mail.text)?.[1];
  if (!password) throw new Error(`No invitation reached ${email}`);
  return password;
}

const recipientsOf = async (taxId: string) => table().partition(keys.recipients(taxId));

describe('user administration', () => {
  it('is refused with 403 to managers and suppliers on every route', async () => {
    const userRoutes = ROUTES.filter((def) => def.handler.startsWith('users/') && def.roles.join() === 'ADMIN');
    expect(userRoutes.length).toBeGreaterThanOrEqual(11);
    for (const role of ['MANAGER', 'SUPPLIER'] as const) {
      const token = await idTokenOf(demoUser(role).username, demoUser(role).password);
      for (const def of userRoutes) {
        const response = await call(def, {
          token,
          path: { userId: 'alguien' },
          query: { client: CLIENTS[2]!.taxId, include: 'true' },
          body: def.method === 'GET' ? undefined : { userIds: ['alguien'] },
        });
        expect({ route: def.id, role, status: response.status, code: response.body?.errors?.[0]?.code }).toEqual({
          route: def.id,
          role,
          status: 403,
          code: 'ERROR_FORBIDDEN',
        });
      }
    }
  });

  it("creates a supplier account whose invitation's temporary password signs it in, after it chooses its own", async () => {
    const supplier = await createSupplier();

    // The account, its supplier profile and its RUC's index entry.
    expect(supplier.user).toMatchObject({
      email: supplier.email,
      taxId: supplier.ruc,
      companyName: supplier.businessName,
      role: 'SUPPLIER',
      status: 'FORCE_CHANGE_PASSWORD',
      enabled: true,
      canReceiveEmails: true,
    });
    expect(await table().get(keys.supplier(supplier.ruc))).toMatchObject({ name: supplier.businessName });
    expect(await recipientsOf(supplier.ruc)).toEqual([
      expect.objectContaining({ userId: supplier.user.id, email: supplier.email, canReceiveEmails: true }),
    ]);

    // The invitation: from the portal, with the portal's address and a temporary password.
    const invitation = (await mailbox()).find((mail) => mail.to.includes(supplier.email))!;
    expect(invitation.subject).toBe('Portal de Proveedores: su cuenta de acceso');
    expect(invitation.text).toContain(stage().webUrl);
    expect(invitation.text).toContain(`${supplier.businessName} (RUC ${supplier.ruc})`);
    const temporaryPassword = await temporaryPasswordOf(supplier.email);

    const idToken = await completeFirstSignIn(supplier.email, temporaryPassword, NEW_PASSWORD);
    expect(decodeJwt(idToken)).toMatchObject({ level: 'SUPPLIER', taxId: supplier.ruc, email: supplier.email });
    expect(await signInOutcome(supplier.email, NEW_PASSWORD)).toBe('signed in');
  });

  it('refuses a second account with the same e-mail (409)', async () => {
    const supplier = await createSupplier();

    const again = await call(routes.createExternalUser, {
      token: await adminToken(),
      body: {
        email: supplier.email.toUpperCase(),
        firstName: 'Otra',
        lastName: 'Persona',
        taxId: freshRuc(),
        businessName: 'Otra S.A.C.',
      },
    });

    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe('ERROR_USER_ALREADY_EXISTS');
    expect(again.body.message).toBe('Ya existe un usuario con ese correo electrónico.');
  });

  it('finds supplier accounts by RUC prefix, business-name prefix and e-mail prefix', async () => {
    const supplier = await createSupplier();
    const token = await adminToken();
    const search = async (query: string) =>
      (await call<{ items: ExternalUser[] }>(routes.listExternalUsers, { token, query: { query, limit: 50 } })).body
        .items;

    const byRuc = await search(supplier.ruc.slice(0, 9));
    const byName = await search(`pruebas ${supplier.tag}`);
    const byLocalPart = await search(supplier.email.split('@')[0]!);
    const byEmailPrefix = await search(`${supplier.email.split('@')[0]!.toUpperCase()}@`);

    expect(byRuc.map((user) => user.id)).toContain(supplier.user.id);
    expect(byName.map((user) => [user.id, user.companyName])).toEqual([[supplier.user.id, supplier.businessName]]);
    // Without '@' the same text is a business name, and no supplier is called that.
    expect(byLocalPart).toEqual([]);
    expect(byEmailPrefix.map((user) => user.id)).toEqual([supplier.user.id]);
    // Without a query: every supplier account, and no staff.
    const all = (await call<{ items: ExternalUser[] }>(routes.listExternalUsers, { token, query: { limit: 100 } }))
      .body;
    expect(all.items.map((user) => user.email)).toContain(demoUser('SUPPLIER').username);
    expect(all.items.map((user) => user.email)).not.toContain(demoUser('MANAGER').username);
  });

  it('lists the staff accounts with their level and companies, and no supplier', async () => {
    const response = await call<{ items: InternalUser[] }>(routes.listInternalUsers, { token: await adminToken() });

    expect(response.status).toBe(200);
    const byEmail = new Map(response.body.items.map((user) => [user.email, user]));
    expect(byEmail.get(demoUser('MANAGER').username)).toMatchObject({
      role: 'MANAGER',
      taxId: demoUser('MANAGER').taxId,
      companyName: `${CLIENTS[0]!.name}, ${CLIENTS[1]!.name}`,
    });
    expect(byEmail.get(demoUser('ADMIN').username)).toMatchObject({ role: 'ADMIN' });
    expect(byEmail.has(demoUser('SUPPLIER').username)).toBe(false);
  });

  it('sends a new invitation, with a new temporary password, to an account that never signed in', async () => {
    const supplier = await createSupplier();
    const first = await temporaryPasswordOf(supplier.email);

    const reset = await call(routes.resetExternalUserPassword, {
      token: await adminToken(),
      path: { userId: supplier.user.id },
    });

    expect(reset.status).toBe(202);
    expect(reset.body.delivery).toBe('INVITATION');
    const second = await temporaryPasswordOf(supplier.email);
    expect(second).not.toBe(first);
    expect(await signInOutcome(supplier.email, first)).toBe('NotAuthorizedException');
    await completeFirstSignIn(supplier.email, second, NEW_PASSWORD);
  });

  it("sends Cognito's reset code to an account that has signed in; the code sets a new password", async () => {
    const supplier = await createSupplier();
    await completeFirstSignIn(supplier.email, await temporaryPasswordOf(supplier.email), NEW_PASSWORD);
    const log = path.join(stage().dataDir, 'logs/cognito.log');
    const before = existsSync(log) ? readFileSync(log, 'utf8').length : 0;

    const reset = await call(routes.resetExternalUserPassword, {
      token: await adminToken(),
      path: { userId: supplier.user.id },
    });

    expect(reset.status).toBe(202);
    expect(reset.body.delivery).toBe('RESET_CODE');
    // cognito-local "e-mails" the code by printing it.
    const pattern = new RegExp(
      `ForgotPassword[\\s\\S]*?Destination: +${supplier.email.replace(/[.]/g, '\\.')}[\\s\\S]*?Code: +(\\d{6})`,
    );
    const printed = await until(
      async () => {
        const text = readFileSync(log, 'utf8').slice(before);
        return pattern.test(text) && text;
      },
      { message: 'the reset code', timeout: 15_000 },
    );
    const code = pattern.exec(printed)![1]!;
    await cognito().send(
      new ConfirmForgotPasswordCommand({
        ClientId: stage().userPoolClientId,
        Username: supplier.email,
        ConfirmationCode: code,
        Password: 'Otra#Clave2026y',
      }),
    );
    expect(await signInOutcome(supplier.email, 'Otra#Clave2026y')).toBe('signed in');
    expect(await signInOutcome(supplier.email, NEW_PASSWORD)).toBe('NotAuthorizedException');
  });

  it('disables an account: no sign-in, no reset, no e-mail; enabling gives them back', async () => {
    const supplier = await createSupplier();
    const supplierToken = await completeFirstSignIn(
      supplier.email,
      await temporaryPasswordOf(supplier.email),
      NEW_PASSWORD,
    );
    expect((await call(routes.getCurrentUser, { token: supplierToken })).status).toBe(200);
    const token = await adminToken();
    const path = { userId: supplier.user.id };

    const disabled = await call<ExternalUser>(routes.disableExternalUser, { token, path });
    expect(disabled.status).toBe(200);
    expect(disabled.body.enabled).toBe(false);
    expect(await signInOutcome(supplier.email, NEW_PASSWORD)).toBe('NotAuthorizedException');
    // The token it already holds no longer passes the navigation guard's user-info call.
    const me = await call(routes.getCurrentUser, { token: supplierToken });
    expect({ status: me.status, code: me.body.errors[0].code }).toEqual({ status: 403, code: 'ERROR_USER_DISABLED' });
    const reset = await call(routes.resetExternalUserPassword, { token, path });
    expect({ status: reset.status, code: reset.body.errors[0].code }).toEqual({
      status: 409,
      code: 'ERROR_USER_DISABLED',
    });
    expect((await recipientsOf(supplier.ruc))[0]).toMatchObject({ canReceiveEmails: false });

    const enabled = await call<ExternalUser>(routes.enableExternalUser, { token, path });
    expect(enabled.body.enabled).toBe(true);
    expect(await signInOutcome(supplier.email, NEW_PASSWORD)).toBe('signed in');
    expect((await recipientsOf(supplier.ruc))[0]).toMatchObject({ canReceiveEmails: true });
  });

  it("ends a disabled account's sessions: its token is refused on the next call, its refresh token revoked", async () => {
    const supplier = await createSupplier();
    await completeFirstSignIn(supplier.email, await temporaryPasswordOf(supplier.email), NEW_PASSWORD);
    // A sign-in with its own password: cognito-local keeps no refresh token issued by RespondToAuthChallenge.
    const session = (await initiateAuth(supplier.email, NEW_PASSWORD)).AuthenticationResult!;
    const refresh = () =>
      cognito()
        .send(
          new InitiateAuthCommand({
            AuthFlow: 'REFRESH_TOKEN_AUTH',
            ClientId: stage().userPoolClientId,
            AuthParameters: { REFRESH_TOKEN: session.RefreshToken! },
          }),
        )
        .then(
          (answer) => (answer.AuthenticationResult?.IdToken ? 'refreshed' : 'no tokens'),
          (error: Error) => error.name,
        );
    // The web app (Amplify) refreshes through GetTokensFromRefreshToken.
    const refreshAsTheWebApp = () =>
      cognito()
        .send(
          new GetTokensFromRefreshTokenCommand({
            ClientId: stage().userPoolClientId,
            RefreshToken: session.RefreshToken!,
          }),
        )
        .then(
          (answer) => (answer.AuthenticationResult?.IdToken ? 'refreshed' : 'no tokens'),
          (error: Error) => error.name,
        );
    const invoices = (token: string) => call(routes.listInvoices, { token });
    expect((await invoices(session.IdToken!)).status).toBe(200);
    expect(await refresh()).toBe('refreshed');
    expect(await refreshAsTheWebApp()).toBe('refreshed');
    const admin = await adminToken();
    const path = { userId: supplier.user.id };

    expect((await call(routes.disableExternalUser, { token: admin, path })).status).toBe(200);
    // Every call reads the list of disabled accounts itself (TTL 0, as in AWS): the very next one is refused.
    const refused = await invoices(session.IdToken!);
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 403,
      body: {
        statusCode: 403,
        message: 'El usuario está deshabilitado.',
        txId: refused.requestId,
        errors: [{ code: 'ERROR_USER_DISABLED', parameters: {} }],
      },
    });
    expect(await refresh()).toBe('NotAuthorizedException');

    expect((await call(routes.enableExternalUser, { token: admin, path })).status).toBe(200);
    // Enabled again, the account signs in again; the refresh token it held was revoked for good.
    expect(await refresh()).toBe('NotAuthorizedException');
    expect(await refreshAsTheWebApp()).toBe('NotAuthorizedException');
    const signedInAgain = await freshIdToken(supplier.email, NEW_PASSWORD);
    const served = await until(
      async () => {
        const response = await invoices(signedInAgain);
        return response.status !== 403 && response;
      },
      { message: 'the enabled account to be served', timeout: 15_000 },
    );
    expect(served.status).toBe(200);
  });

  it('signs out only an account the pool holds, as Cognito does (the local proxy answers AdminUserGlobalSignOut)', async () => {
    const outcome = await cognito()
      .send(new AdminUserGlobalSignOutCommand({ UserPoolId: stage().userPoolId, Username: `nadie-${randomUUID()}` }))
      .then(
        () => 'signed out',
        (error: Error) => error.name,
      );
    expect(outcome).toBe('UserNotFoundException');
  });

  it('turns e-mail reception off and on, one account or many (an unknown id fails alone), as the worker sees it', async () => {
    const [ana, beto] = [await createSupplier(), await createSupplier()];
    const token = await adminToken();
    const unknown = `desconocido-${randomUUID()}`;

    const off = await call<ExternalUser>(routes.whitelistNotifications, {
      token,
      path: { userId: ana.user.id },
      query: { include: 'false' },
    });
    expect(off.body.canReceiveEmails).toBe(false);
    const bulkOff = await call(routes.whitelistNotificationsBulk, {
      token,
      query: { include: 'false' },
      body: { userIds: [beto.user.id, unknown] },
    });
    expect(bulkOff.status).toBe(200);
    expect(bulkOff.body.results).toEqual([
      { userId: beto.user.id, ok: true },
      { userId: unknown, ok: false, error: { code: 'ERROR_USER_NOT_FOUND', message: 'Usuario no encontrado.' } },
    ]);
    for (const supplier of [ana, beto]) {
      expect(await recipientsOf(supplier.ruc)).toEqual([expect.objectContaining({ canReceiveEmails: false })]);
    }
    const listed = await call<{ items: ExternalUser[] }>(routes.listExternalUsers, {
      token,
      query: { query: beto.ruc },
    });
    expect(listed.body.items.map((user) => user.canReceiveEmails)).toEqual([false]);

    // What the notifications worker does with it: no e-mail while off, one once on.
    const approval = (supplier: TestSupplier, id: string) =>
      notificationAbout(
        'INVOICE_APPROVED',
        {
          supplierId: supplier.ruc,
          supplierName: supplier.businessName,
          client: CLIENTS[0]!.taxId,
          clientName: CLIENTS[0]!.name,
          type: 'FACTURA',
          id,
        },
        null,
        new Date(),
      );
    const mailsAbout = async (text: string) => (await mailbox()).filter((mail) => mail.text.includes(text));
    const silent = approval(ana, `F001-${randomInt(1_000_000)}`);
    const handled = await sendTracked('notifications', silent);
    await until(
      async () => {
        const items = await table().partition(keys.feed('SUPPLIER', ana.ruc));
        return items.length > 0;
      },
      { message: 'the feed item', timeout: 15_000 },
    );
    // The delivery handled whole: an e-mail would be in the mailbox by now.
    await handled();
    expect(await mailsAbout(notificationText(silent))).toEqual([]);

    const bulkOn = await call(routes.whitelistNotificationsBulk, {
      token,
      query: { include: 'true' },
      body: { userIds: [ana.user.id, beto.user.id] },
    });
    expect(bulkOn.body.results.map((result: { ok: boolean }) => result.ok)).toEqual([true, true]);
    const heard = approval(ana, `F001-${randomInt(1_000_000)}`);
    await sendToQueue('notifications', heard);
    const mails = await until(
      async () => {
        const found = await mailsAbout(notificationText(heard));
        return found.length > 0 && found;
      },
      { message: 'the e-mail', timeout: 15_000 },
    );
    expect(mails.map((mail) => mail.to)).toEqual([[ana.email]]);
  });

  it("assigns and unassigns a company to a staff account: its next token and the company's recipients follow", async () => {
    const manager = demoUser('MANAGER');
    const company = CLIENTS[2]!.taxId;
    const token = await adminToken();
    const internal = await call<{ items: InternalUser[] }>(routes.listInternalUsers, { token });
    const gestor = internal.body.items.find((user) => user.email === manager.username)!;
    expect(gestor.taxId).toBe(manager.taxId);
    const path = { userId: gestor.id };
    try {
      const assigned = await call<InternalUser>(routes.assignClientToInternalUser, {
        token,
        path,
        query: { client: company },
      });
      expect(assigned.status).toBe(200);
      expect(assigned.body.taxId).toBe(`${manager.taxId},${company}`);
      expect(assigned.body.companyName).toContain(CLIENTS[2]!.name);
      expect(await recipientsOf(company)).toContainEqual(
        expect.objectContaining({ userId: gestor.id, email: manager.username }),
      );
      expect(decodeJwt(await freshIdToken(manager.username, manager.password)).taxId).toBe(
        `${manager.taxId},${company}`,
      );

      const unassigned = await call<InternalUser>(routes.unassignClientFromInternalUser, {
        token,
        path,
        query: { client: company },
      });
      expect(unassigned.body.taxId).toBe(manager.taxId);
      expect((await recipientsOf(company)).map((item) => item.userId)).not.toContain(gestor.id);
      expect(decodeJwt(await freshIdToken(manager.username, manager.password)).taxId).toBe(manager.taxId);

      const audit = await call<{ items: AuditEvent[] }>(routes.listAuditEvents, {
        token,
        query: { userId: gestor.id, limit: 2 },
      });
      expect(audit.body.items.map((event) => [event.action, event.before, event.after])).toEqual([
        ['CLIENT_UNASSIGNED', { taxId: `${manager.taxId},${company}` }, { taxId: manager.taxId }],
        ['CLIENT_ASSIGNED', { taxId: manager.taxId }, { taxId: `${manager.taxId},${company}` }],
      ]);
      // A company outside the group, and a supplier account, are not found.
      const unknown = await call(routes.assignClientToInternalUser, { token, path, query: { client: freshRuc() } });
      expect({ status: unknown.status, code: unknown.body.errors[0].code }).toEqual({
        status: 404,
        code: 'ERROR_CLIENT_NOT_FOUND',
      });
      const supplierAccount = (await call<{ items: ExternalUser[] }>(routes.listExternalUsers, { token })).body
        .items[0]!;
      const notStaff = await call(routes.assignClientToInternalUser, {
        token,
        path: { userId: supplierAccount.id },
        query: { client: company },
      });
      expect({ status: notStaff.status, code: notStaff.body.errors[0].code }).toEqual({
        status: 404,
        code: 'ERROR_USER_NOT_FOUND',
      });
    } finally {
      // Put the demo manager back as every other test expects it, whatever failed above.
      await call(routes.unassignClientFromInternalUser, { token, path, query: { client: company } });
    }
  });

  it('keeps each change in the audit log with who, what, before and after, newest first', async () => {
    const supplier = await createSupplier();
    const token = await adminToken();
    const path = { userId: supplier.user.id };
    await call(routes.disableExternalUser, { token, path });
    await call(routes.enableExternalUser, { token, path });
    await call(routes.whitelistNotifications, { token, path, query: { include: 'false' } });
    await call(routes.resetExternalUserPassword, { token, path });

    const own = await call<{ items: AuditEvent[]; nextCursor: string | null }>(routes.listAuditEvents, {
      token,
      query: { userId: supplier.user.id },
    });

    expect(own.status).toBe(200);
    expect(own.body.items.map((event) => [event.action, event.before, event.after])).toEqual([
      ['INVITATION_RESENT', { status: 'FORCE_CHANGE_PASSWORD' }, { status: 'FORCE_CHANGE_PASSWORD' }],
      ['EMAIL_NOTIFICATIONS_CHANGED', { canReceiveEmails: true }, { canReceiveEmails: false }],
      ['USER_ENABLED', { enabled: false }, { enabled: true }],
      ['USER_DISABLED', { enabled: true }, { enabled: false }],
      ['USER_CREATED', null, expect.objectContaining({ email: supplier.email, taxId: supplier.ruc })],
    ]);
    for (const event of own.body.items) {
      expect(event.actor.email).toBe(demoUser('ADMIN').username);
      expect(event.target).toEqual({ userId: supplier.user.id, email: supplier.email });
      expect(event.txId).toMatch(/^test-/);
    }
    // The whole log is shared with other files' administrators acting at the same time: page it
    // newest first until this supplier's oldest event has gone by, and find its events in order.
    const seen: AuditEvent[] = [];
    let cursor: string | undefined;
    const oldest = own.body.items.at(-1)!.id;
    for (let page = 0; page < 50 && !seen.some((event) => event.id === oldest); page += 1) {
      const whole = await call<{ items: AuditEvent[]; nextCursor: string | null }>(routes.listAuditEvents, {
        token,
        query: { limit: 2, ...(cursor ? { cursor } : {}) },
      });
      expect(whole.status).toBe(200);
      expect(whole.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...whole.body.items);
      expect(whole.body.nextCursor).not.toBeNull();
      cursor = whole.body.nextCursor!;
    }
    const times = seen.map((event) => event.occurredAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(new Set(seen.map((event) => event.id)).size).toBe(seen.length);
    const ownIds = new Set(own.body.items.map((event) => event.id));
    expect(seen.filter((event) => ownIds.has(event.id)).map((event) => event.id)).toEqual(
      own.body.items.map((event) => event.id),
    );
  });
});

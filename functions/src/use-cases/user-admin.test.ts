import { describe, expect, it } from 'vitest';
import {
  PortalError,
  ROUTES,
  normalizeForSearch,
  type AuditEvent,
  type Client,
  type RouteId,
  type SupplierProfile,
} from '@portal/shared';
import { fakeCognito } from '../adapters/cognito.fake.js';
import { makeCognitoAppClients, makeCognitoDirectory } from '../adapters/cognito.js';
import type { Email } from '../adapters/email.js';
import type { Recipient } from '../repositories/notifications.js';
import type { AdminContext } from './user-admin-accounts.js';
import { userAdminCalls } from './user-admin/user-admin-calls.fake.js';
import { apiClientCalls } from './api-clients/api-client-calls.fake.js';
import type { ApiClientsDeps } from './api-clients/api-client-steps.js';
import { makeGetCurrentUser } from './current-user.js';
import type { AccountChange } from './user-admin-ports.js';

const SUPPLIER_RUC = '20456178325';
const OTHER_RUC = '20608172352';
const NEW_RUC = '20490123459';
const COMPANY_A = '20100070970';
const COMPANY_B = '20603415800';
const COMPANY_C = '20512334891';
const NOW = new Date('2026-11-22T15:00:00.000Z');
const PORTAL = 'https://proveedores.example.pe';
const context: AdminContext = { actor: { id: 'admin-sub', email: 'admin@grupo.pe' }, txId: 'tx-0001' };

const CLIENTS: Client[] = [COMPANY_A, COMPANY_B, COMPANY_C].map((taxId, i) => ({
  taxId,
  name: ['Corporación Andina', 'Minera Pacífico Sur', 'Transportes Inca'][i]!,
  address: 'Lima',
  logo: null,
  system_name: `S${i}`,
}));

/** Everything the user administration touches, in memory: Cognito through the real adapter, DynamoDB as maps. */
function setup(options: { limitExceeded?: boolean; failMail?: boolean } = {}) {
  const cognito = fakeCognito({ limitExceeded: options.limitExceeded });
  const directory = makeCognitoDirectory(cognito.client, () => ({ userPoolId: 'pool-1', clientId: 'web-client' }));
  const index = new Map<string, Map<string, Recipient>>();
  const audit: AuditEvent[] = [];
  const commits: AccountChange[] = [];
  const profiles = new Map<string, SupplierProfile>([
    [SUPPLIER_RUC, { taxId: SUPPLIER_RUC, name: 'Servicios Industriales Lima S.A.C.' }],
    [OTHER_RUC, { taxId: OTHER_RUC, name: 'Ferretería El Constructor E.I.R.L.' }],
  ]);
  const sent: Email[] = [];
  let ids = 0;
  let passwords = 0;

  const indexed = (taxId: string) => [...(index.get(taxId)?.values() ?? [])];
  const search = (key: (profile: SupplierProfile) => string, prefix: string, page: { limit: number }) => {
    const matching = [...profiles.values()]
      .filter((p) => key(p).startsWith(prefix))
      .sort((a, b) => key(a).localeCompare(key(b)));
    return Promise.resolve({ items: matching.slice(0, page.limit), nextCursor: null });
  };

  const admin = userAdminCalls({
    directory,
    accounts: { accountsOf: async (taxId) => indexed(taxId) },
    auditLog: {
      list: async (filter, page) => ({
        items: audit
          .filter((event) => !filter.userId || event.target.userId === filter.userId)
          .sort((a, b) => b.occurredAt.localeCompare(a.occurredAt))
          .slice(0, page.limit),
        nextCursor: null,
      }),
    },
    commit: async (change) => {
      commits.push(change);
      for (const { taxId, userId } of change.remove) index.get(taxId)?.delete(userId);
      for (const { taxId, entry } of change.put) {
        index.set(taxId, (index.get(taxId) ?? new Map()).set(entry.userId, entry));
      }
      if (change.audit) audit.push(change.audit);
    },
    supplierSearch: {
      listByRucPrefix: (prefix, page) => search((p) => p.taxId, prefix, page),
      listByNamePrefix: (prefix, page) => search((p) => normalizeForSearch(p.name), prefix, page),
    },
    profiles: {
      getMany: async (rucs) => new Map(rucs.flatMap((ruc) => (profiles.has(ruc) ? [[ruc, profiles.get(ruc)!]] : []))),
      createIfAbsent: async (profile) => {
        if (!profiles.has(profile.taxId)) profiles.set(profile.taxId, profile);
        return profiles.get(profile.taxId)!;
      },
    },
    clients: {
      listAll: async () => CLIENTS,
      get: async (taxId) => CLIENTS.find((client) => client.taxId === taxId) ?? null,
    },
    mailer: {
      async send(email) {
        if (options.failMail) throw new Error('SES unavailable');
        sent.push(email);
      },
    },
    clock: () => new Date(NOW.getTime() + audit.length * 1000),
    newId: () => `event-${++ids}`,
    newPassword: () => `Temporal#Clave${++passwords}x`,
    portalUrl: PORTAL,
    adminGroupName: 'portal-admins',
    log: { error: () => undefined, warn: () => undefined },
  });

  /** A supplier account as the seed or this API leaves it: in Cognito and in its RUC's index. */
  function supplier(email: string, taxId = SUPPLIER_RUC, extra: Partial<Parameters<typeof cognito.addUser>[0]> = {}) {
    const user = cognito.addUser({ email, taxId, ...extra });
    const canReceiveEmails = user.Attributes.find((a) => a.Name === 'custom:emailNotifications')?.Value !== 'false';
    index.set(
      taxId,
      (index.get(taxId) ?? new Map()).set(user.Username, { userId: user.Username, email, canReceiveEmails }),
    );
    return user;
  }

  return { admin, directory, cognito, index, indexed, audit, commits, profiles, sent, supplier };
}

async function failure(promise: Promise<unknown>): Promise<PortalError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PortalError);
  return error as PortalError;
}

describe('listing supplier accounts', () => {
  it('pages through the pool without staff accounts, resuming after the last account returned', async () => {
    // Prepare
    const { admin, cognito, supplier } = setup();
    supplier('ana@proveedor.pe');
    cognito.addUser({ email: 'gestor@grupo.pe', federated: { groups: ['portal-staff'] } });
    supplier('beto@proveedor.pe');
    supplier('carla@ferreteria.pe', OTHER_RUC);

    // Act
    const first = await admin.listExternalUsers({ limit: 2 });
    const second = await admin.listExternalUsers({ limit: 2, cursor: first.nextCursor! });

    // Assess
    expect(first.items.map((u) => u.email)).toEqual(['ana@proveedor.pe', 'beto@proveedor.pe']);
    expect(first.items[0]).toMatchObject({
      role: 'SUPPLIER',
      taxId: SUPPLIER_RUC,
      companyName: 'Servicios Industriales Lima S.A.C.',
      enabled: true,
      status: 'CONFIRMED',
      canReceiveEmails: true,
      createdAt: '2026-01-15T12:00:00.000Z',
    });
    expect(second).toEqual({ items: [expect.objectContaining({ email: 'carla@ferreteria.pe' })], nextCursor: null });
  });

  it('reads at most three Cognito pages per request: a page of staff only comes back short, with a cursor', async () => {
    const { admin, cognito, supplier } = setup();
    for (let i = 0; i < 5; i++)
      cognito.addUser({ email: `staff${i}@grupo.pe`, federated: { groups: ['portal-staff'] } });
    supplier('ana@proveedor.pe');

    const page = await admin.listExternalUsers({ limit: 1 });

    expect(cognito.operations.filter((op) => op === 'ListUsers')).toHaveLength(3);
    expect(page.items).toEqual([]);
    const rest = await admin.listExternalUsers({ limit: 1, cursor: page.nextCursor! });
    expect(rest.items.map((u) => u.email)).toEqual(['ana@proveedor.pe']);
  });

  it('finds accounts by e-mail prefix (lower-cased) through a Cognito filter', async () => {
    const { admin, cognito, supplier } = setup();
    supplier('ana@proveedor.pe');
    supplier('ana.maria@otro.pe', OTHER_RUC);
    cognito.addUser({ email: 'ana@grupo.pe', federated: { groups: ['portal-staff'] } });

    const page = await admin.listExternalUsers({ limit: 20, query: 'ANA@' });

    expect(page.items.map((u) => u.email)).toEqual(['ana@proveedor.pe']);
  });

  it('finds the accounts of suppliers by RUC prefix and by business-name prefix, through the account index', async () => {
    const { admin, cognito, index, supplier } = setup();
    supplier('ana@proveedor.pe');
    supplier('carla@ferreteria.pe', OTHER_RUC);
    // A staff account and a vanished one in the index are left out.
    const staff = cognito.addUser({ email: 'gestor@grupo.pe', federated: { groups: ['portal-staff'] } });
    index
      .get(SUPPLIER_RUC)!
      .set(staff.Username, { userId: staff.Username, email: 'gestor@grupo.pe', canReceiveEmails: true });
    index.get(SUPPLIER_RUC)!.set('gone', { userId: 'gone', email: 'gone@proveedor.pe', canReceiveEmails: true });

    const byRuc = await admin.listExternalUsers({ limit: 20, query: '2045' });
    const byName = await admin.listExternalUsers({ limit: 20, query: 'ferreteria el' });
    const byBoth = await admin.listExternalUsers({ limit: 20, query: '20' });

    expect(byRuc.items.map((u) => [u.email, u.companyName])).toEqual([
      ['ana@proveedor.pe', 'Servicios Industriales Lima S.A.C.'],
    ]);
    expect(byName.items.map((u) => u.email)).toEqual(['carla@ferreteria.pe']);
    expect(byBoth.items.map((u) => u.email)).toEqual(['ana@proveedor.pe', 'carla@ferreteria.pe']);
  });

  it('lists an account indexed under its e-mail and under its sub once', async () => {
    const { admin, index, supplier } = setup();
    const user = supplier('ana@proveedor.pe');
    index
      .get(SUPPLIER_RUC)!
      .set('ana@proveedor.pe', { userId: 'ana@proveedor.pe', email: 'ana@proveedor.pe', canReceiveEmails: true });

    const page = await admin.listExternalUsers({ limit: 20, query: SUPPLIER_RUC });

    expect(page.items.map((u) => u.id)).toEqual([user.Username]);
  });

  it('refuses a cursor made for another listing', async () => {
    const { admin, cognito, supplier } = setup();
    supplier('ana@proveedor.pe');
    supplier('beto@proveedor.pe');
    cognito.addUser({ email: 'gestor@grupo.pe', federated: { groups: ['portal-staff'] } });
    const page = await admin.listExternalUsers({ limit: 1 });

    const error = await failure(admin.listInternalUsers({ limit: 1, cursor: page.nextCursor! }));
    expect(error.code).toBe('ERROR_INVALID_CURSOR');
    const tampered = Buffer.from(JSON.stringify({ v: 1, s: 'external', p: 'not-a-token' })).toString('base64url');
    expect((await failure(admin.listExternalUsers({ limit: 1, cursor: tampered }))).code).toBe('ERROR_INVALID_CURSOR');
  });
});

describe('listing staff accounts', () => {
  it('lists only corporate (federated) accounts, with their level and company names', async () => {
    const { admin, cognito, supplier } = setup();
    supplier('ana@proveedor.pe');
    cognito.addUser({
      email: 'gestor@grupo.pe',
      taxId: `${COMPANY_A},${COMPANY_B}`,
      federated: { groups: ['portal-staff'] },
    });
    cognito.addUser({ email: 'jefe@grupo.pe', federated: { groups: ['portal-admins', 'portal-staff'] } });
    cognito.addUser({ email: 'otro@grupo.pe', federated: { groups: ['portal-staff', 'portal-admins'] } });

    const page = await admin.listInternalUsers({ limit: 20 });

    expect(page.items.map((u) => [u.email, u.role, u.taxId, u.companyName])).toEqual([
      ['gestor@grupo.pe', 'MANAGER', `${COMPANY_A},${COMPANY_B}`, 'Corporación Andina, Minera Pacífico Sur'],
      ['jefe@grupo.pe', 'ADMIN', null, null],
      ['otro@grupo.pe', 'MANAGER', null, null],
    ]);
    expect(page.items[0]).toMatchObject({ status: 'EXTERNAL_PROVIDER', enabled: true });
  });
});

describe('creating a supplier account', () => {
  const body = {
    email: 'nuevo@proveedor.pe',
    firstName: 'Nora',
    lastName: 'Quispe',
    taxId: NEW_RUC,
    businessName: 'Consultores Tributarios Asociados S.R.L.',
    canReceiveEmails: true,
  };

  it('creates it in Cognito without its message, adds the supplier and the index entry, and invites by e-mail', async () => {
    const { admin, cognito, indexed, audit, profiles, sent } = setup();

    const created = await admin.createExternalUser(context, body);

    expect(created).toMatchObject({
      email: 'nuevo@proveedor.pe',
      taxId: NEW_RUC,
      companyName: 'Consultores Tributarios Asociados S.R.L.',
      role: 'SUPPLIER',
      status: 'FORCE_CHANGE_PASSWORD',
      enabled: true,
      canReceiveEmails: true,
      invitationSent: true,
    });
    expect(cognito.attribute(created.id, 'email_verified')).toBe('true');
    expect(cognito.attribute(created.id, 'custom:taxId')).toBe(NEW_RUC);
    expect(cognito.users.find((u) => u.Username === created.id)?.Password).toBe('Temporal#Clave1x');
    expect(profiles.get(NEW_RUC)?.name).toBe('Consultores Tributarios Asociados S.R.L.');
    expect(indexed(NEW_RUC)).toEqual([{ userId: created.id, email: 'nuevo@proveedor.pe', canReceiveEmails: true }]);
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'USER_CREATED',
        actor: context.actor,
        target: { userId: created.id, email: 'nuevo@proveedor.pe' },
        before: null,
        after: expect.objectContaining({ taxId: NEW_RUC, canReceiveEmails: true }),
        txId: 'tx-0001',
      }),
    ]);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toBe('nuevo@proveedor.pe');
    expect(sent[0]!.text).toContain('Contraseña temporal: Temporal#Clave1x');
    expect(sent[0]!.text).toContain(PORTAL);
    expect(sent[0]!.text).toContain(`Consultores Tributarios Asociados S.R.L. (RUC ${NEW_RUC})`);
  });

  it('keeps the name the directory already has for a known RUC, and records e-mail reception off', async () => {
    const { admin, indexed, profiles } = setup();

    const created = await admin.createExternalUser(context, {
      ...body,
      taxId: SUPPLIER_RUC,
      businessName: 'Otro nombre',
      canReceiveEmails: false,
    });

    expect(profiles.get(SUPPLIER_RUC)?.name).toBe('Servicios Industriales Lima S.A.C.');
    expect(created).toMatchObject({ companyName: 'Servicios Industriales Lima S.A.C.', canReceiveEmails: false });
    expect(indexed(SUPPLIER_RUC)).toEqual([expect.objectContaining({ userId: created.id, canReceiveEmails: false })]);
  });

  it('refuses an e-mail that already has an account, and a RUC with a wrong check digit', async () => {
    const { admin, cognito, supplier } = setup();
    supplier('nuevo@proveedor.pe');

    expect((await failure(admin.createExternalUser(context, body))).code).toBe('ERROR_USER_ALREADY_EXISTS');
    const badRuc = await failure(admin.createExternalUser(context, { ...body, email: 'x@y.pe', taxId: '20456178320' }));
    expect({ status: badRuc.statusCode, code: badRuc.code }).toEqual({ status: 400, code: 'ERROR_INVALID_RUC' });
    expect(cognito.operations.filter((op) => op === 'AdminCreateUser')).toEqual([]);
  });

  it('answers 409 when Cognito itself finds the address taken (the same address in another case)', async () => {
    const { admin, cognito } = setup();
    cognito.addUser({ email: 'Nuevo@Proveedor.pe' });

    const error = await failure(admin.createExternalUser(context, body));

    expect({ status: error.statusCode, code: error.code }).toEqual({ status: 409, code: 'ERROR_USER_ALREADY_EXISTS' });
    expect(cognito.users).toHaveLength(1);
  });

  it('keeps the account when the invitation cannot leave, and says so', async () => {
    const { admin, cognito, audit } = setup({ failMail: true });

    const created = await admin.createExternalUser(context, body);

    expect(created.invitationSent).toBe(false);
    expect(cognito.users).toHaveLength(1);
    expect(audit.map((event) => event.action)).toEqual(['USER_CREATED']);
  });
});

describe('password reset', () => {
  it('sends a new invitation with a new temporary password to an account that never signed in', async () => {
    const { admin, cognito, supplier, sent, audit } = setup();
    const user = supplier('ana@proveedor.pe', SUPPLIER_RUC, { status: 'FORCE_CHANGE_PASSWORD' });

    const result = await admin.resetExternalUserPassword(context, user.Username);

    expect(result.delivery).toBe('INVITATION');
    expect(user.Password).toBe('Temporal#Clave1x');
    expect(user.UserStatus).toBe('FORCE_CHANGE_PASSWORD');
    expect(cognito.operations).not.toContain('ForgotPassword');
    expect(sent.map((mail) => [mail.to, mail.text.includes('Contraseña temporal: Temporal#Clave1x')])).toEqual([
      ['ana@proveedor.pe', true],
    ]);
    expect(audit.map((event) => event.action)).toEqual(['INVITATION_RESENT']);
  });

  it("starts Cognito's own reset (the code by e-mail) for an account that has signed in", async () => {
    const { admin, cognito, supplier, sent, audit } = setup();
    const user = supplier('ana@proveedor.pe');

    const result = await admin.resetExternalUserPassword(context, user.Username);

    expect(result).toEqual({
      delivery: 'RESET_CODE',
      message: 'Se envió a ana@proveedor.pe un correo con el código para restablecer la contraseña.',
    });
    expect(cognito.operations).toContain('ForgotPassword');
    expect(sent).toEqual([]);
    expect(audit).toEqual([
      expect.objectContaining({ action: 'PASSWORD_RESET_STARTED', before: { status: 'CONFIRMED' } }),
    ]);
  });

  it('refuses a disabled account, a staff account and an unknown one', async () => {
    const { admin, cognito, supplier } = setup();
    const disabled = supplier('ana@proveedor.pe', SUPPLIER_RUC, { enabled: false });
    const staff = cognito.addUser({ email: 'gestor@grupo.pe', federated: { groups: ['portal-staff'] } });

    const refusal = await failure(admin.resetExternalUserPassword(context, disabled.Username));
    expect({ status: refusal.statusCode, code: refusal.code }).toEqual({ status: 409, code: 'ERROR_USER_DISABLED' });
    for (const id of [staff.Username, 'nobody']) {
      const missing = await failure(admin.resetExternalUserPassword(context, id));
      expect({ status: missing.statusCode, code: missing.code }).toEqual({ status: 404, code: 'ERROR_USER_NOT_FOUND' });
    }
  });

  it("answers 429 when Cognito's attempt limit for the account is reached", async () => {
    const { admin, supplier, audit } = setup({ limitExceeded: true });
    const user = supplier('ana@proveedor.pe');

    const error = await failure(admin.resetExternalUserPassword(context, user.Username));

    expect({ status: error.statusCode, code: error.code }).toEqual({ status: 429, code: 'ERROR_TOO_MANY_ATTEMPTS' });
    expect(audit).toEqual([]);
  });
});

describe('disabling and enabling', () => {
  it('disables the account and stops its e-mail, then gives both back; a repeated call changes nothing', async () => {
    const { admin, supplier, indexed, audit } = setup();
    const user = supplier('ana@proveedor.pe');

    const disabled = await admin.disableExternalUser(context, user.Username);
    const indexWhileDisabled = indexed(SUPPLIER_RUC);
    await admin.disableExternalUser(context, user.Username);
    const enabled = await admin.enableExternalUser(context, user.Username);

    expect(disabled.enabled).toBe(false);
    expect(indexWhileDisabled).toEqual([expect.objectContaining({ userId: user.Username, canReceiveEmails: false })]);
    expect(enabled.enabled).toBe(true);
    expect(user.Enabled).toBe(true);
    expect(indexed(SUPPLIER_RUC)).toEqual([expect.objectContaining({ userId: user.Username, canReceiveEmails: true })]);
    expect(audit.map((event) => [event.action, event.before, event.after])).toEqual([
      ['USER_DISABLED', { enabled: true }, { enabled: false }],
      ['USER_ENABLED', { enabled: false }, { enabled: true }],
    ]);
  });
});

describe('disabling ends the sessions the account holds', () => {
  it('revokes the refresh tokens and lists the account as disabled, with the audit event; enabling takes it out', async () => {
    const { admin, supplier, cognito, commits } = setup();
    const user = supplier('ana@proveedor.pe');

    await admin.disableExternalUser(context, user.Username);
    const afterDisable = commits.at(-1)!;
    await admin.enableExternalUser(context, user.Username);

    expect(cognito.signedOut).toEqual([user.Username]);
    expect(afterDisable.access).toEqual({ userId: user.Username, disabled: true });
    expect(afterDisable.audit?.action).toBe('USER_DISABLED');
    expect(commits.at(-1)!.access).toEqual({ userId: user.Username, disabled: false });
  });

  it('completes a disable that died after Cognito disabled the account, when the administrator retries', async () => {
    const s = setup();
    const user = s.supplier('ana@proveedor.pe');
    // The first attempt: Cognito disabled the account, then the function died before signing it out and writing.
    await s.directory.disable(user.Username);

    const retried = await s.admin.disableExternalUser(context, user.Username);

    expect(retried.enabled).toBe(false);
    expect(s.cognito.signedOut).toEqual([user.Username]);
    expect(s.commits.at(-1)).toMatchObject({ access: { userId: user.Username, disabled: true }, audit: null });
    expect(s.indexed(SUPPLIER_RUC)).toEqual([expect.objectContaining({ canReceiveEmails: false })]);
  });
});

describe('e-mail reception', () => {
  it('sets the Cognito attribute and every index entry of the account, creating a missing one', async () => {
    const { admin, cognito, index, indexed, audit } = setup();
    const user = cognito.addUser({ email: 'ana@proveedor.pe', taxId: `${SUPPLIER_RUC},${OTHER_RUC}` });
    index.set(
      SUPPLIER_RUC,
      new Map([[user.Username, { userId: user.Username, email: 'ana@proveedor.pe', canReceiveEmails: true }]]),
    );

    const result = await admin.whitelistNotifications(context, user.Username, false);

    expect(result.canReceiveEmails).toBe(false);
    expect(cognito.attribute(user.Username, 'custom:emailNotifications')).toBe('false');
    for (const taxId of [SUPPLIER_RUC, OTHER_RUC]) {
      expect(indexed(taxId)).toEqual([{ userId: user.Username, email: 'ana@proveedor.pe', canReceiveEmails: false }]);
    }
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'EMAIL_NOTIFICATIONS_CHANGED',
        before: { canReceiveEmails: true },
        after: { canReceiveEmails: false },
      }),
    ]);
  });

  it('replaces an entry indexed under the e-mail with one under the account id, so nobody is mailed twice', async () => {
    const { admin, cognito, index, indexed } = setup();
    const user = cognito.addUser({ email: 'ana@proveedor.pe', taxId: SUPPLIER_RUC });
    index.set(
      SUPPLIER_RUC,
      new Map([
        ['ana@proveedor.pe', { userId: 'ana@proveedor.pe', email: 'ana@proveedor.pe', canReceiveEmails: true }],
      ]),
    );

    await admin.whitelistNotifications(context, user.Username, true);

    expect(indexed(SUPPLIER_RUC)).toEqual([
      { userId: user.Username, email: 'ana@proveedor.pe', canReceiveEmails: true },
    ]);
  });

  it('changes many accounts at once; an unknown or staff id fails alone', async () => {
    const { admin, cognito, supplier, indexed } = setup();
    const ana = supplier('ana@proveedor.pe');
    const carla = supplier('carla@ferreteria.pe', OTHER_RUC);
    const staff = cognito.addUser({ email: 'gestor@grupo.pe', federated: { groups: ['portal-staff'] } });

    const { results } = await admin.whitelistNotificationsBulk(
      context,
      [ana.Username, 'nobody', carla.Username, staff.Username],
      false,
    );

    expect(results).toEqual([
      { userId: ana.Username, ok: true },
      { userId: 'nobody', ok: false, error: { code: 'ERROR_USER_NOT_FOUND', message: 'Usuario no encontrado.' } },
      { userId: carla.Username, ok: true },
      { userId: staff.Username, ok: false, error: { code: 'ERROR_USER_NOT_FOUND', message: 'Usuario no encontrado.' } },
    ]);
    expect(indexed(SUPPLIER_RUC)[0]?.canReceiveEmails).toBe(false);
    expect(indexed(OTHER_RUC)[0]?.canReceiveEmails).toBe(false);
  });
});

describe('companies of a staff account', () => {
  function staffSetup() {
    const setupResult = setup();
    const gestor = setupResult.cognito.addUser({
      email: 'gestor@grupo.pe',
      taxId: COMPANY_A,
      federated: { groups: ['portal-staff'] },
    });
    return { ...setupResult, gestor };
  }

  it('adds a company to the list and to that company’s index; assigning it again changes nothing', async () => {
    const { admin, cognito, gestor, indexed, audit } = staffSetup();

    const assigned = await admin.assignClient(context, gestor.Username, COMPANY_C);
    await admin.assignClient(context, gestor.Username, COMPANY_C);

    expect(assigned).toMatchObject({
      taxId: `${COMPANY_A},${COMPANY_C}`,
      companyName: 'Corporación Andina, Transportes Inca',
      role: 'MANAGER',
    });
    expect(cognito.attribute(gestor.Username, 'custom:taxId')).toBe(`${COMPANY_A},${COMPANY_C}`);
    expect(indexed(COMPANY_C)).toEqual([{ userId: gestor.Username, email: 'gestor@grupo.pe', canReceiveEmails: true }]);
    expect(audit.map((event) => [event.action, event.before, event.after])).toEqual([
      ['CLIENT_ASSIGNED', { taxId: COMPANY_A }, { taxId: `${COMPANY_A},${COMPANY_C}` }],
    ]);
  });

  it('removes a company and its index entry; removing the last one deletes the attribute', async () => {
    const { admin, cognito, gestor, index, indexed, audit } = staffSetup();
    index.set(
      COMPANY_A,
      new Map([[gestor.Username, { userId: gestor.Username, email: 'gestor@grupo.pe', canReceiveEmails: true }]]),
    );

    const result = await admin.unassignClient(context, gestor.Username, COMPANY_A);
    await admin.unassignClient(context, gestor.Username, COMPANY_A);

    expect(result).toMatchObject({ taxId: null, companyName: null });
    expect(cognito.attribute(gestor.Username, 'custom:taxId')).toBeUndefined();
    expect(cognito.operations).toContain('AdminDeleteUserAttributes');
    expect(indexed(COMPANY_A)).toEqual([]);
    expect(audit.map((event) => [event.action, event.before, event.after])).toEqual([
      ['CLIENT_UNASSIGNED', { taxId: COMPANY_A }, { taxId: null }],
    ]);
  });

  it('refuses a company outside the group and a supplier account', async () => {
    const { admin, gestor, supplier } = staffSetup();
    const ana = supplier('ana@proveedor.pe');

    const unknown = await failure(admin.assignClient(context, gestor.Username, '20999999999'));
    expect({ status: unknown.statusCode, code: unknown.code }).toEqual({ status: 404, code: 'ERROR_CLIENT_NOT_FOUND' });
    expect((await failure(admin.unassignClient(context, gestor.Username, '20999999999'))).code).toBe(
      'ERROR_CLIENT_NOT_FOUND',
    );
    expect((await failure(admin.assignClient(context, ana.Username, COMPANY_B))).code).toBe('ERROR_USER_NOT_FOUND');
  });
});

describe('audit log', () => {
  it('lists the changes made to one account, newest first', async () => {
    const { admin, supplier } = setup();
    const ana = supplier('ana@proveedor.pe');
    const beto = supplier('beto@proveedor.pe');
    await admin.disableExternalUser(context, ana.Username);
    await admin.disableExternalUser(context, beto.Username);
    await admin.enableExternalUser(context, ana.Username);

    const page = await admin.listAuditEvents({ limit: 20, userId: ana.Username });

    expect(page.items.map((event) => event.action)).toEqual(['USER_ENABLED', 'USER_DISABLED']);
  });
});

describe('the Cognito operations of each route', () => {
  /** Each route's call, on a fresh pool holding a supplier, a staff account and one never signed in. */
  const calls: Partial<
    Record<RouteId, (s: ReturnType<typeof setup>, ids: Record<string, string>) => Promise<unknown>>
  > = {
    listExternalUsers: async ({ admin }) => {
      await admin.listExternalUsers({ limit: 20 });
      await admin.listExternalUsers({ limit: 20, query: 'ana@' });
      await admin.listExternalUsers({ limit: 20, query: '2045' });
      await admin.listExternalUsers({ limit: 20, query: 'servicios' });
    },
    createExternalUser: ({ admin }) =>
      admin.createExternalUser(context, {
        email: 'nuevo@proveedor.pe',
        firstName: 'N',
        lastName: 'Q',
        taxId: NEW_RUC,
        businessName: 'Nuevo',
        canReceiveEmails: true,
      }),
    resetExternalUserPassword: async ({ admin }, ids) => {
      await admin.resetExternalUserPassword(context, ids.supplier!);
      await admin.resetExternalUserPassword(context, ids.invited!);
    },
    disableExternalUser: ({ admin }, ids) => admin.disableExternalUser(context, ids.supplier!),
    enableExternalUser: ({ admin }, ids) => admin.enableExternalUser(context, ids.disabled!),
    whitelistNotifications: ({ admin }, ids) => admin.whitelistNotifications(context, ids.supplier!, false),
    whitelistNotificationsBulk: ({ admin }, ids) =>
      admin.whitelistNotificationsBulk(context, [ids.supplier!, ids.invited!], false),
    listInternalUsers: ({ admin }) => admin.listInternalUsers({ limit: 20 }),
    assignClientToInternalUser: ({ admin }, ids) => admin.assignClient(context, ids.staff!, COMPANY_B),
    unassignClientFromInternalUser: async ({ admin }, ids) => {
      await admin.unassignClient(context, ids.staff!, COMPANY_A);
      await admin.unassignClient(context, ids.staff2!, COMPANY_A);
    },
    listAuditEvents: ({ admin }) => admin.listAuditEvents({ limit: 20 }),
    // The suppliers' API clients: app clients of the same pool, created and deleted.
    // A creation the table refuses deletes its app client again.
    createApiClient: async ({ cognito }) => {
      await apiClientsOn(cognito).create(context, API_CLIENT_BODY);
      await expect(apiClientsOn(cognito, { failCreate: true }).create(context, API_CLIENT_BODY)).rejects.toThrow();
    },
    revokeApiClient: async ({ cognito }) => {
      const apiClients = apiClientsOn(cognito);
      const created = await apiClients.create(context, API_CLIENT_BODY);
      cognito.operations.length = 0;
      await apiClients.revoke(context, created.clientId);
    },
    getCurrentUser: ({ directory }, ids) =>
      makeGetCurrentUser({ directory, companyNames: async () => new Map() })({
        sub: 's',
        username: ids.supplier!,
        email: 'ana@proveedor.pe',
        firstName: 'Ana',
        lastName: 'P',
        level: 'SUPPLIER',
        taxIds: [SUPPLIER_RUC],
        groups: [],
        activeCompany: SUPPLIER_RUC,
        expiresAt: 0,
        signIn: 'PASSWORD',
        txId: 'test-tx',
      }),
  };

  const API_CLIENT_BODY = { taxId: SUPPLIER_RUC, name: 'ERP', scopes: ['invoices.read' as const] };
  /** The API clients' use case on the fake pool, with the table in memory. */
  function apiClientsOn(cognito: ReturnType<typeof setup>['cognito'], options: { failCreate?: boolean } = {}) {
    const stored = new Map<string, Parameters<ApiClientsDeps['repository']['create']>[0]>();
    return apiClientCalls({
      repository: {
        get: async (id) => stored.get(id) ?? null,
        list: async () => [...stored.values()],
        create: async (client) => {
          if (options.failCreate) throw new Error('DynamoDB no respondió');
          stored.set(client.clientId, client);
        },
        revoke: async (client) => (stored.set(client.clientId, client), true),
      },
      appClients: makeCognitoAppClients(cognito.client, () => 'pool-1'),
      audience: { set: async () => undefined },
      supplierNames: async (rucs) => new Map(rucs.map((ruc) => [ruc, 'Proveedor'])),
      tokenUrl: 'https://auth.example/oauth2/token',
      clock: () => new Date('2026-01-15T10:00:00Z'),
      newId: () => 'audit-1',
    });
  }

  const userRoutes = ROUTES.filter((def) => (def.uses.userPool ?? []).length > 0);

  it('covers every route that declares the user pool', () => {
    expect(userRoutes.map((def) => def.id).filter((id) => !(id in calls))).toEqual([]);
  });

  it.each(Object.keys(calls).map((id) => [id]))('%s calls only what its manifest entry grants', async (id) => {
    const s = setup();
    const supplierUser = s.supplier('ana@proveedor.pe');
    const invited = s.supplier('nora@proveedor.pe', SUPPLIER_RUC, { status: 'FORCE_CHANGE_PASSWORD' });
    const disabled = s.supplier('dora@proveedor.pe', SUPPLIER_RUC, { enabled: false });
    const staff = s.cognito.addUser({ email: 'g@grupo.pe', taxId: COMPANY_A, federated: { groups: ['x'] } });
    const staff2 = s.cognito.addUser({
      email: 'h@grupo.pe',
      taxId: `${COMPANY_A},${COMPANY_B}`,
      federated: { groups: ['x'] },
    });
    s.cognito.operations.length = 0;

    await calls[id as RouteId]!(s, {
      supplier: supplierUser.Username,
      invited: invited.Username,
      disabled: disabled.Username,
      staff: staff.Username,
      staff2: staff2.Username,
    });

    const granted: readonly string[] = ROUTES.find((def) => def.id === id)?.uses?.userPool ?? [];
    // ForgotPassword is Cognito's public API: it needs no IAM grant.
    const needingIam = new Set(s.cognito.operations.filter((op) => op !== 'ForgotPassword'));
    expect([...needingIam].filter((op) => !granted.includes(op))).toEqual([]);
    expect(granted.filter((op) => !needingIam.has(op))).toEqual([]);
  });
});

import { createRequire } from 'node:module';
import { SignJWT, decodeJwt, generateKeyPair, importJWK, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CLAIMS,
  HEADERS,
  LEVELS,
  ROUTES,
  routes,
  type Invoice,
  type Level,
  type RouteDef,
  type RouteId,
} from '@portal/shared';
import { CLIENTS, SUPPLIERS, buildWorld } from '../support/tenant.js';
import { inviteSupplier, temporaryPasswordOf } from '../support/accounts.js';
import { call, completeFirstSignIn, idTokenOf } from '../support/api.js';
import { demoUser, stage } from '../support/stage.js';
import { readUntil } from '../support/until.js';

/**
 * The manifest × caller × tenant matrix: every jwt route of the manifest, called by every kind of caller.
 * - Signed-in roles (a supplier, another supplier, a manager, an admin): a role the route does not declare is
 *   refused with 403 ERROR_FORBIDDEN; a declared role gets past authorization on its own tenant's data (no 401,
 *   403, 404 or 500); the same role asking for another tenant's data gets 404 (an object: an invoice of another
 *   supplier, or of a company a manager does not manage) or 403 ERROR_COMPANY_NOT_ALLOWED (a company). The
 *   manager asking for a company it does not manage is the "manager of other companies" case.
 * - A supplier or a manager naming, in the company-id header, a company outside its list: 403
 *   ERROR_COMPANY_NOT_ALLOWED on every route its role reaches, the session routes included.
 * - A supplier without RUC and a manager without companies (spec §6): 403 ERROR_FORBIDDEN everywhere but the two
 *   session routes the navigation guard calls to choose their forbidden page.
 * - A disabled account still holding its token: 403, ERROR_USER_DISABLED wherever its role reaches.
 * - No token, an expired one, one signed with another key, a real one with a changed claim, an unsigned one: 401.
 * Every jwt route must have a probe here, so a route added later cannot escape the matrix.
 * The probes never change data: the writes they send are refused after the tenant check.
 */
type Role = Exclude<Level, 'UNKNOWN'>;
interface Probe {
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}
interface Cell {
  own: Probe;
  /** Another tenant's data, and the answer it must get; absent where the route has no tenant. */
  foreign?: { probe: Probe; status: 403 | 404; code: string };
}
/** Who calls: its role, and for a supplier the RUC it is and the one it is not. */
interface Actor {
  readonly role: Role;
  readonly supplier: string;
  readonly otherSupplier: string;
  readonly username: string;
  readonly password: string;
}

const world = buildWorld();
const [MANAGED, , FOREIGN_COMPANY] = [CLIENTS[0]!.taxId, CLIENTS[1]!.taxId, CLIENTS[2]!.taxId];
const OWN_SUPPLIER = SUPPLIERS[0]!.taxId;
const OTHER_SUPPLIER = SUPPLIERS[1]!.taxId;

const account = (role: Role, index = 0) => {
  const user = stage().demoUsers.filter((candidate) => candidate.role === role && candidate.taxId !== null)[index];
  if (!user) throw new Error(`No demo ${role} number ${index + 1} with a taxId`);
  return { username: user.username, password: user.password };
};
const ACTORS = {
  SUPPLIER: () => ({ role: 'SUPPLIER', supplier: OWN_SUPPLIER, otherSupplier: OTHER_SUPPLIER, ...account('SUPPLIER') }),
  'OTHER SUPPLIER': () => ({
    role: 'SUPPLIER',
    supplier: OTHER_SUPPLIER,
    otherSupplier: OWN_SUPPLIER,
    ...account('SUPPLIER', 1),
  }),
  MANAGER: () => ({ role: 'MANAGER', supplier: OWN_SUPPLIER, otherSupplier: OTHER_SUPPLIER, ...account('MANAGER') }),
  ADMIN: () => ({
    role: 'ADMIN',
    supplier: OWN_SUPPLIER,
    otherSupplier: OTHER_SUPPLIER,
    username: demoUser('ADMIN').username,
    password: demoUser('ADMIN').password,
  }),
} satisfies Record<string, () => Actor>;
type ActorName = keyof typeof ACTORS;

const pathOf = (invoice: Invoice) => ({
  supplierId: invoice.supplierId,
  invoiceType: invoice.type,
  invoiceId: invoice.id,
});
/**
 * A seed invoice of the supplier at the company, in the status. With no company (another supplier, whose probes
 * of staff routes are refused before anything reads them), the status is a preference.
 */
function seedInvoice(supplier: string, client: string | null, status?: Invoice['status']) {
  const ofSupplier = world.invoices.filter((i) => i.supplierId === supplier && (!client || i.client === client));
  const found = ofSupplier.find((i) => !status || i.status === status) ?? (client ? undefined : ofSupplier[0]);
  if (!found) throw new Error(`No seed invoice of ${supplier} at ${client ?? 'any company'} ${status ?? ''}`);
  return found;
}

/** The company an actor acts for: the admin names one outside the manager's reach. */
const company = (actor: Actor) => (actor.role === 'ADMIN' ? FOREIGN_COMPANY : MANAGED);
/** An invoice in the actor's reach, in a status that makes the write probes fail after authorization. */
function ownInvoice(actor: Actor, status?: Invoice['status']) {
  const client = actor.role === 'SUPPLIER' && actor.supplier !== OWN_SUPPLIER ? null : company(actor);
  return pathOf(seedInvoice(actor.supplier, client, status));
}
/** An invoice out of the actor's reach: another supplier's, at a company the manager does not manage. */
const foreignInvoice = (actor: Actor) =>
  pathOf(seedInvoice(actor.otherSupplier, actor.otherSupplier === OWN_SUPPLIER ? MANAGED : FOREIGN_COMPANY));
const notFound = (probe: Probe) => ({ probe, status: 404 as const, code: 'ERROR_INVOICE_NOT_FOUND' });
const otherCompany = (probe: Probe) => ({ probe, status: 403 as const, code: 'ERROR_COMPANY_NOT_ALLOWED' });
const completion = {
  operationType: 'SERVICES',
  responsibleId: 'E1001',
  officeId: 'Sede Central',
  locationId: 'OF-101',
  purchaseOrders: ['4500012000'],
  serviceSheets: ['1000000101'],
};
/** A document that is free, so that availability answers 200 on the actor's own company. */
function freeDocument(actor: Actor, kind: 'SERVICE_SHEET' | 'MATERIAL_DOCUMENT' | 'PURCHASE_ORDER'): string {
  const docs = world.conformityDocuments.filter(
    (doc) => doc.acquirerTaxId === company(actor) && doc.issuerTaxId === OWN_SUPPLIER && doc.claimedBy === null,
  );
  const doc = kind === 'PURCHASE_ORDER' ? docs[0] : docs.find((candidate) => candidate.kind === kind);
  return kind === 'PURCHASE_ORDER' ? doc!.purchaseOrder : doc!.documentId;
}
const conformity = (actor: Actor, kind: Parameters<typeof freeDocument>[1]) => ({
  own: { path: { id: freeDocument(actor, kind) }, query: { acquirer: company(actor), issuer: OWN_SUPPLIER } },
  foreign:
    actor.role === 'ADMIN'
      ? undefined
      : otherCompany({
          path: { id: freeDocument(actor, kind) },
          query: { acquirer: FOREIGN_COMPANY, issuer: OWN_SUPPLIER },
        }),
});
const companyList = (actor: Actor, param: string) => ({
  own: { query: { [param]: company(actor) } },
  foreign: actor.role === 'ADMIN' ? undefined : otherCompany({ query: { [param]: FOREIGN_COMPANY } }),
});
/** An object route: the actor's own invoice, and another tenant's answering 404 (the admin has no other tenant). */
const invoiceCell = (actor: Actor, extra: Probe = {}, status?: Invoice['status']): Cell => ({
  own: { path: ownInvoice(actor, status), ...extra },
  foreign: actor.role === 'ADMIN' ? undefined : notFound({ path: foreignInvoice(actor), ...extra }),
});

/** A conversation write: the own probe refused by validation, the foreign one valid and not found. */
const conversationCell = (actor: Actor, own: Probe, foreign: Probe): Cell => ({
  own: { path: ownInvoice(actor), ...own },
  foreign: actor.role === 'ADMIN' ? undefined : notFound({ path: foreignInvoice(actor), ...foreign }),
});

/**
 * The invoice list and its count: an administrator names the company it reads; a supplier asks for another supplier's
 * invoices and a manager for a company not its own, both refused.
 */
const invoiceListProbe = (actor: Actor): Cell => ({
  own: actor.role === 'ADMIN' ? { query: { client: FOREIGN_COMPANY } } : {},
  foreign:
    actor.role === 'SUPPLIER'
      ? otherCompany({ query: { issuer: actor.otherSupplier } })
      : actor.role === 'MANAGER'
        ? otherCompany({ query: { client: FOREIGN_COMPANY } })
        : undefined,
});

const PROBES: Record<Exclude<RouteId, 'healthcheck' | 'heartbeat' | 'openapi'>, (actor: Actor) => Cell> = {
  getCurrentUser: () => ({ own: {} }),
  verifySession: () => ({ own: {} }),
  listClients: () => ({ own: {} }),
  listInvoices: invoiceListProbe,
  countInvoices: invoiceListProbe,
  createInvoiceFromXml: () => ({ own: { body: { url: 'uploads/factura.xml' } } }),
  createInvoiceWithoutXml: (actor) => ({
    own: {
      body: {
        prefixId: 'F001',
        numericId: '1',
        type: 'FACTURA',
        clientTaxId: MANAGED,
        supplierTaxId: actor.supplier,
        supplierName: SUPPLIERS.find((supplier) => supplier.taxId === actor.supplier)!.name,
        currency: 'PEN',
        amount: 118,
        taxAmount: 18,
        issueDate: '2026-11-01',
        pdfUrl: 'uploads/factura.pdf',
      },
    },
  }),
  createUpload: () => ({
    own: { body: { purpose: 'INVOICE_PDF', fileName: 'factura.pdf', contentType: 'application/pdf', size: 1000 } },
  }),
  getInvoiceFile: (actor) => invoiceCell(actor, { query: { file: 'pdf' } }),
  getInvoice: (actor) => invoiceCell(actor),
  // Messages: an empty message (400) or a clear of an invoice not observed (409) is refused after authorization;
  // another tenant's invoice, with a valid message, is not found.
  listInvoiceMessages: (actor) => invoiceCell(actor),
  postInvoiceMessage: (actor) => conversationCell(actor, { body: { text: ' ' } }, { body: { text: 'Hola' } }),
  observeInvoice: (actor) => conversationCell(actor, { body: { text: ' ' } }, { body: { text: 'Hola' } }),
  clearInvoiceObservation: (actor) => invoiceCell(actor),
  getInvoiceMessageFile: (actor) => ({
    own: { path: { ...ownInvoice(actor), messageId: 'no-es-un-mensaje' } },
    foreign:
      actor.role === 'ADMIN'
        ? undefined
        : notFound({ path: { ...foreignInvoice(actor), messageId: '20261126T190455123Z-0000000a' } }),
  }),
  countWaitingConversations: () => ({ own: {} }),
  listInvoiceHistory: (actor) => invoiceCell(actor),
  updateInvoice: (actor) => invoiceCell(actor, { body: completion }, 'REJECTED'),
  approveInvoice: (actor) => invoiceCell(actor, {}, 'PENDING'),
  disapproveInvoice: (actor) => invoiceCell(actor, { body: { reason: 'Prueba' } }, 'ACCEPTED'),
  // ADMIN only, and an administrator reaches every tenant: no other tenant to probe.
  retrySapPosting: (actor) => ({ own: { path: ownInvoice(actor, 'ACCEPTED') } }),
  // ADMIN only: a manager cannot lift the RUC risk gate; a pending invoice is refused after authorization.
  approveInvoiceDespiteRucRisk: (actor) => ({
    own: { path: ownInvoice(actor, 'PENDING'), body: { reason: 'Prueba' } },
  }),
  // An accepted invoice is SUNAT-valid: asking SUNAT again is refused (409) after the tenant check.
  requestSunatValidation: (actor) => invoiceCell(actor, {}, 'ACCEPTED'),
  // The seed's own invoices state no forma de pago: they run no Ley 29623 clock, and the registration is refused
  // (409 ERROR_ACQUIRER_CONFORMITY_NOT_APPLICABLE) after the tenant check.
  registerAcquirerConformity: (actor) => invoiceCell(actor, { body: { decision: 'CONFORMITY' } }),
  getDashboard: (actor) => companyList(actor, 'client'),
  listEmployees: (actor) => companyList(actor, 'acquirer'),
  listOfficeLocations: (actor) => companyList(actor, 'taxId'),
  listMaterialDocs: (actor) => companyList(actor, 'acquirer'),
  listServiceSheets: (actor) => companyList(actor, 'acquirer'),
  materialDocAvailability: (actor) => conformity(actor, 'MATERIAL_DOCUMENT'),
  purchaseOrderAvailability: (actor) => conformity(actor, 'PURCHASE_ORDER'),
  serviceSheetAvailability: (actor) => conformity(actor, 'SERVICE_SHEET'),
  // Conformity suggestions: an order of the invoice's supplier at its company; another tenant's invoice is unknown.
  suggestConformityDocuments: (actor) =>
    invoiceCell(actor, { query: { purchaseOrder: freeDocument(actor, 'PURCHASE_ORDER') } }),
  searchSuppliers: () => ({ own: { query: { query: 'servicios' } } }),
  listNotifications: () => ({ own: {} }),
  markNotificationsAsRead: () => ({ own: { body: {} } }),
  getNotificationPreferences: () => ({ own: {} }),
  // An empty choice is every kind on, the default: the actor's preferences stay as they were.
  putNotificationPreferences: () => ({ own: { body: { items: [] } } }),
  // User administration: the writes are refused by validation (a userId longer than Cognito allows, a bad
  // client or flag), or, in bulk, answer per account that the unknown one was not found.
  listExternalUsers: () => ({ own: { query: { query: 'servicios' } } }),
  createExternalUser: () => ({ own: { body: { email: 'no-es-un-correo' } } }),
  resetExternalUserPassword: () => ({ own: { path: { userId: 'x'.repeat(129) } } }),
  disableExternalUser: () => ({ own: { path: { userId: 'x'.repeat(129) } } }),
  enableExternalUser: () => ({ own: { path: { userId: 'x'.repeat(129) } } }),
  whitelistNotifications: () => ({ own: { path: { userId: 'someone' }, query: { include: 'quizas' } } }),
  whitelistNotificationsBulk: () => ({ own: { query: { include: 'true' }, body: { userIds: ['someone'] } } }),
  listInternalUsers: () => ({ own: {} }),
  assignClientToInternalUser: () => ({ own: { path: { userId: 'someone' }, query: { client: '123' } } }),
  unassignClientFromInternalUser: () => ({ own: { path: { userId: 'someone' }, query: { client: '123' } } }),
  listAuditEvents: () => ({ own: {} }),
  listApiClients: () => ({ own: {} }),
  // Refused by validation after authorization: no app client is created or deleted.
  createApiClient: () => ({ own: { body: { taxId: 'no-es-un-ruc', name: '', scopes: [] } } }),
  revokeApiClient: () => ({ own: { path: { clientId: 'no válido' } } }),
  // Exports: the request is refused by the list's own filter check (an inverted due range) after authorization, so no
  // job is made; another tenant's company is refused as the list refuses it. An export id is the owner's alone: an
  // id not the caller's answers 404 (tests/integration/exports.test.ts reads another user's real export).
  createExport: (actor) => ({
    own: { body: { list: 'invoices', format: 'csv', filters: { dueFrom: '2026-03-10', dueTo: '2026-03-01' } } },
    foreign:
      actor.role === 'SUPPLIER'
        ? otherCompany({ body: { list: 'invoices', format: 'csv', filters: { issuer: actor.otherSupplier } } })
        : actor.role === 'MANAGER'
          ? otherCompany({ body: { list: 'invoices', format: 'csv', filters: { client: FOREIGN_COMPANY } } })
          : undefined,
  }),
  // A zip of documents: a batch is its uploader's.
  // The upload's own checks answer first (another tenant's upload is a missing one, tests/integration/uploads.test.ts).
  createIntakeBatch: () => ({ own: { body: { url: 'no-es-una-clave' } } }),
  getIntakeBatch: () => ({
    own: { path: { batchId: 'no-es-un-uuid' } },
    foreign: {
      probe: { path: { batchId: '3f9c2b1e-8d4a-4c6e-9b7f-1a2b3c4d5e6f' } },
      status: 404,
      code: 'ERROR_INTAKE_BATCH_NOT_FOUND',
    },
  }),
  listIntakeBatches: () => ({ own: {} }),
  getExport: () => ({
    own: { path: { exportId: 'no-es-un-uuid' } },
    foreign: {
      probe: { path: { exportId: '3f9c2b1e-8d4a-4c6e-9b7f-1a2b3c4d5e6f' } },
      status: 404,
      code: 'ERROR_EXPORT_NOT_FOUND',
    },
  }),
};

const jwtRoutes = ROUTES.filter((def) => def.auth === 'jwt');
const cases = jwtRoutes.map((def) => [`${def.method} ${def.path}`, def] as const);
const probesOf = (def: RouteDef) => PROBES[def.id as keyof typeof PROBES];
/** The routes a signed-in user without companies reaches: the guard's user-info and session calls. */
const SESSION_ROUTES: readonly string[] = [routes.getCurrentUser.id, routes.verifySession.id];

it('has a probe for every jwt route of the manifest', () => {
  expect(jwtRoutes.map((def) => def.id).filter((id) => !(id in PROBES))).toEqual([]);
});

describe.each(cases)('%s', (_, def) => {
  it.each(Object.keys(ACTORS).map((name) => [name as ActorName] as const))('as %s', async (name) => {
    const actor: Actor = ACTORS[name]();
    const token = await idTokenOf(actor.username, actor.password);
    const cell = probesOf(def)(actor);
    const own = await call(def, { token, ...cell.own });
    expect(own.body?.txId ?? own.headers.get('x-request-id')).toBe(own.requestId);
    if (!def.roles.includes(actor.role)) {
      expect({ status: own.status, code: own.body.errors[0].code }).toEqual({ status: 403, code: 'ERROR_FORBIDDEN' });
      return;
    }
    expect(own.status, JSON.stringify(own.body)).not.toBeOneOf([401, 403, 404, 500]);
    if (cell.foreign) {
      const foreign = await call(def, { token, ...cell.foreign.probe });
      expect({ status: foreign.status, code: foreign.body?.errors?.[0]?.code }).toEqual({
        status: cell.foreign.status,
        code: cell.foreign.code,
      });
    }
  });
});

describe.each(cases)('%s without a company (spec §6)', (_, def) => {
  it.each([['SUPPLIER'], ['MANAGER']] as const)('as a %s without taxId', async (role) => {
    const user = demoUser(role, { withoutTaxId: true });
    const token = await idTokenOf(user.username, user.password);
    const response = await call(def, { token, ...probesOf(def)(ACTORS[role]()).own });
    if (SESSION_ROUTES.includes(def.id)) {
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return;
    }
    expect({ status: response.status, body: response.body }).toEqual({
      status: 403,
      body: {
        statusCode: 403,
        message: 'Sesión inválida.',
        txId: response.requestId,
        errors: [{ code: 'ERROR_FORBIDDEN', parameters: {} }],
      },
    });
  });
});

describe.each(cases)('%s naming a company outside the list in the company-id header', (_, def) => {
  it.each([['SUPPLIER'], ['MANAGER']] as const)('as %s', async (name) => {
    const actor: Actor = ACTORS[name]();
    const token = await idTokenOf(actor.username, actor.password);
    const outside = actor.role === 'SUPPLIER' ? actor.otherSupplier : FOREIGN_COMPANY;
    const response = await call(def, {
      token,
      ...probesOf(def)(actor).own,
      headers: { [HEADERS.companyId]: outside },
    });
    expect({ status: response.status, errors: response.body?.errors }).toEqual(
      def.roles.includes(actor.role)
        ? { status: 403, errors: [{ code: 'ERROR_COMPANY_NOT_ALLOWED', parameters: { companyId: outside } }] }
        : { status: 403, errors: [{ code: 'ERROR_FORBIDDEN', parameters: {} }] },
    );
  });
});

/** A supplier account of its own, signed in, then disabled by the admin: its token stays unexpired. */
let disabledToken: string;
/** Tokens API Gateway's JWT authorizer refuses, built from a real one. */
let badTokens: Record<(typeof BAD_TOKENS)[number], string>;
const BAD_TOKENS = [
  'no token',
  'an expired token',
  'a token signed with another key',
  'a real token with another RUC written in',
  'an unsigned token',
] as const;

beforeAll(async () => {
  const invited = await inviteSupplier();
  disabledToken = await completeFirstSignIn(
    invited.email,
    await temporaryPasswordOf(invited.email),
    'Matriz#Clave2026x',
  );
  const admin = await idTokenOf(demoUser('ADMIN').username, demoUser('ADMIN').password);
  const disabled = await call(routes.disableExternalUser, { token: admin, path: { userId: invited.userId } });
  expect(disabled.status).toBe(200);
  // The local stage keeps the list of disabled accounts one second per function instance.
  await readUntil(
    async () => (await call(routes.getCurrentUser, { token: disabledToken })).status,
    (status) => status === 403,
    { timeout: 10_000, interval: 200 },
  );

  const real = await idTokenOf(account('SUPPLIER').username, account('SUPPLIER').password);
  const claims = decodeJwt(real);
  const [header, , signature] = real.split('.');
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  // cognito-local signs with a key published in its package: a token it would have issued, an hour expired.
  const require = createRequire(import.meta.url);
  const localKey = (require('cognito-local/lib/keys/cognitoLocal.private.json') as { jwk: JWK }).jwk;
  const now = Math.floor(Date.now() / 1000);
  const expired = await new SignJWT({ ...claims, iat: now - 7200, exp: now - 3600 })
    .setProtectedHeader({ alg: 'RS256', kid: 'CognitoLocal' })
    .sign(await importJWK(localKey, 'RS256'));
  const { privateKey } = await generateKeyPair('RS256');
  const otherKey = await new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'CognitoLocal' })
    .sign(privateKey);
  badTokens = {
    'no token': '',
    'an expired token': expired,
    'a token signed with another key': otherKey,
    'a real token with another RUC written in': `${header}.${encode({ ...claims, [CLAIMS.taxId]: OTHER_SUPPLIER })}.${signature}`,
    'an unsigned token': `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.`,
  };
}, 60_000);

describe.each(cases)('%s as a disabled account', (_, def) => {
  it('is refused with 403, saying the account is disabled wherever a supplier may call', async () => {
    const response = await call(def, { token: disabledToken, ...probesOf(def)(ACTORS.SUPPLIER()).own });
    expect({ status: response.status, code: response.body?.errors?.[0]?.code }).toEqual({
      status: 403,
      code: def.roles.includes('SUPPLIER') ? 'ERROR_USER_DISABLED' : 'ERROR_FORBIDDEN',
    });
  });
});

describe.each(cases)('%s without a valid token', (_, def) => {
  it.each(BAD_TOKENS.map((kind) => [kind]))('refuses %s with 401', async (kind) => {
    const response = await call(def, { token: badTokens[kind] || null, ...probesOf(def)(ACTORS.SUPPLIER()).own });
    expect({ status: response.status, body: response.body }).toEqual({
      status: 401,
      body: { message: 'Unauthorized' },
    });
  });
});

describe('the matrix itself', () => {
  it('covers every level the manifest names', () => {
    expect(new Set(jwtRoutes.flatMap((def) => def.roles))).toEqual(new Set(LEVELS));
  });

  it('tests another tenant on every route that reads or writes tenant data', () => {
    const withTenant = jwtRoutes.filter((def) => Object.values(ACTORS).some((actor) => probesOf(def)(actor()).foreign));
    expect(withTenant.map((def) => def.id).sort()).toEqual(
      [
        'approveInvoice',
        'clearInvoiceObservation',
        'countInvoices',
        'createExport',
        'disapproveInvoice',
        'getDashboard',
        'getExport',
        'getIntakeBatch',
        'getInvoice',
        'getInvoiceFile',
        'getInvoiceMessageFile',
        'listEmployees',
        'listInvoiceHistory',
        'listInvoiceMessages',
        'listInvoices',
        'listMaterialDocs',
        'listOfficeLocations',
        'listServiceSheets',
        'materialDocAvailability',
        'observeInvoice',
        'postInvoiceMessage',
        'purchaseOrderAvailability',
        'registerAcquirerConformity',
        'requestSunatValidation',
        'serviceSheetAvailability',
        'suggestConformityDocuments',
        'updateInvoice',
      ].sort(),
    );
  });
});

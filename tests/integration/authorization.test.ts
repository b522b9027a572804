import { describe, expect, it } from 'vitest';
import { LEVELS, ROUTES, type Invoice, type Level, type RouteId } from '@portal/shared';
import { CLIENTS, SUPPLIERS, buildWorld } from '../../infra/local/seed-data.js';
import { call, idTokenOf } from '../support/api.js';
import { demoUser } from '../support/stage.js';

/**
 * The manifest × role × tenant matrix. For every jwt route and every signed-in role:
 * - a role the route does not declare is refused with 403 ERROR_FORBIDDEN;
 * - a declared role gets past authorization on its own tenant's data (no 401, 403 or 404);
 * - a declared role asking for another tenant's data gets 404 (an object) or 403 (a company).
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

const world = buildWorld();
const [MANAGED, , FOREIGN_COMPANY] = [CLIENTS[0]!.taxId, CLIENTS[1]!.taxId, CLIENTS[2]!.taxId];
const OWN_SUPPLIER = SUPPLIERS[0]!.taxId;
const OTHER_SUPPLIER = SUPPLIERS[1]!.taxId;

const pathOf = (invoice: Invoice) => ({
  supplierId: invoice.supplierId,
  invoiceType: invoice.type,
  invoiceId: invoice.id,
});
const seedInvoice = (supplier: string, client: string, status?: Invoice['status']) =>
  world.invoices.find((i) => i.supplierId === supplier && i.client === client && (!status || i.status === status))!;

/** An invoice in the role's reach, in a status that makes the write probes fail after authorization. */
function ownInvoice(role: Role, status?: Invoice['status']) {
  return pathOf(seedInvoice(OWN_SUPPLIER, role === 'ADMIN' ? FOREIGN_COMPANY : MANAGED, status));
}
/** An invoice out of the role's reach: another supplier's, at a company the manager does not manage. */
const foreignInvoice = pathOf(seedInvoice(OTHER_SUPPLIER, FOREIGN_COMPANY));

const company = (role: Role) => (role === 'ADMIN' ? FOREIGN_COMPANY : MANAGED);
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
/** A document that is free, so that availability answers 200 on the role's own company. */
function freeDocument(role: Role, kind: 'SERVICE_SHEET' | 'MATERIAL_DOCUMENT' | 'PURCHASE_ORDER'): string {
  const docs = world.conformityDocuments.filter(
    (doc) => doc.acquirerTaxId === company(role) && doc.issuerTaxId === OWN_SUPPLIER && doc.claimedBy === null,
  );
  const doc = kind === 'PURCHASE_ORDER' ? docs[0] : docs.find((candidate) => candidate.kind === kind);
  return kind === 'PURCHASE_ORDER' ? doc!.purchaseOrder : doc!.documentId;
}
const conformity = (role: Role, kind: Parameters<typeof freeDocument>[1]) => ({
  own: { path: { id: freeDocument(role, kind) }, query: { acquirer: company(role), issuer: OWN_SUPPLIER } },
  foreign:
    role === 'ADMIN'
      ? undefined
      : otherCompany({
          path: { id: freeDocument(role, kind) },
          query: { acquirer: FOREIGN_COMPANY, issuer: OWN_SUPPLIER },
        }),
});
const companyList = (role: Role, param: string) => ({
  own: { query: { [param]: company(role) } },
  foreign: role === 'ADMIN' ? undefined : otherCompany({ query: { [param]: FOREIGN_COMPANY } }),
});

const PROBES: Record<Exclude<RouteId, 'healthcheck' | 'heartbeat' | 'openapi'>, (role: Role) => Cell> = {
  getCurrentUser: () => ({ own: {} }),
  verifySession: () => ({ own: {} }),
  listClients: () => ({ own: {} }),
  listInvoices: (role) => ({
    own: role === 'ADMIN' ? { query: { client: FOREIGN_COMPANY } } : {},
    foreign:
      role === 'SUPPLIER'
        ? otherCompany({ query: { issuer: OTHER_SUPPLIER } })
        : role === 'MANAGER'
          ? otherCompany({ query: { client: FOREIGN_COMPANY } })
          : undefined,
  }),
  createInvoiceFromXml: () => ({ own: { body: { url: 'uploads/factura.xml' } } }),
  createInvoiceWithoutXml: () => ({
    own: {
      body: {
        prefixId: 'F001',
        numericId: '1',
        type: 'FACTURA',
        clientTaxId: MANAGED,
        supplierTaxId: OWN_SUPPLIER,
        supplierName: SUPPLIERS[0]!.name,
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
  getInvoiceFile: (role) => ({
    own: { path: ownInvoice(role), query: { file: 'pdf' } },
    foreign: role === 'ADMIN' ? undefined : notFound({ path: foreignInvoice, query: { file: 'pdf' } }),
  }),
  getInvoice: (role) => ({
    own: { path: ownInvoice(role) },
    foreign: role === 'ADMIN' ? undefined : notFound({ path: foreignInvoice }),
  }),
  updateInvoice: (role) => ({
    own: { path: ownInvoice(role, 'REJECTED'), body: completion },
    foreign: role === 'ADMIN' ? undefined : notFound({ path: foreignInvoice, body: completion }),
  }),
  approveInvoice: (role) => ({
    own: { path: ownInvoice(role, 'PENDING') },
    foreign: role === 'ADMIN' ? undefined : notFound({ path: foreignInvoice }),
  }),
  disapproveInvoice: (role) => ({
    own: { path: ownInvoice(role, 'ACCEPTED'), body: { reason: 'Prueba' } },
    foreign: role === 'ADMIN' ? undefined : notFound({ path: foreignInvoice, body: { reason: 'Prueba' } }),
  }),
  getDashboard: (role) => companyList(role, 'client'),
  listEmployees: (role) => companyList(role, 'acquirer'),
  listOfficeLocations: (role) => companyList(role, 'taxId'),
  listMaterialDocs: (role) => companyList(role, 'acquirer'),
  listServiceSheets: (role) => companyList(role, 'acquirer'),
  materialDocAvailability: (role) => conformity(role, 'MATERIAL_DOCUMENT'),
  purchaseOrderAvailability: (role) => conformity(role, 'PURCHASE_ORDER'),
  serviceSheetAvailability: (role) => conformity(role, 'SERVICE_SHEET'),
  searchSuppliers: () => ({ own: { query: { query: 'servicios' } } }),
  listNotifications: () => ({ own: {} }),
  markNotificationsAsRead: () => ({ own: { body: {} } }),
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
};

const jwtRoutes = ROUTES.filter((def) => def.auth === 'jwt');
const ROLES: Role[] = ['SUPPLIER', 'MANAGER', 'ADMIN'];
const tokenOf = (role: Role) => idTokenOf(demoUser(role).username, demoUser(role).password);

it('has a probe for every jwt route of the manifest', () => {
  expect(jwtRoutes.map((def) => def.id).filter((id) => !(id in PROBES))).toEqual([]);
});

describe.each(jwtRoutes.map((def) => [`${def.method} ${def.path}`, def] as const))('%s', (_, def) => {
  const probes = PROBES[def.id as keyof typeof PROBES];
  it.each(ROLES.map((role) => [role] as const))('as %s', async (role) => {
    const token = await tokenOf(role);
    const cell = probes(role);
    const own = await call(def, { token, ...cell.own });
    expect(own.body?.txId ?? own.headers.get('x-request-id')).toBe(own.requestId);
    if (!def.roles.includes(role)) {
      expect(own.status).toBe(403);
      expect(own.body.errors[0].code).toBe('ERROR_FORBIDDEN');
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

describe('the matrix itself', () => {
  it('covers every level the manifest names', () => {
    expect(new Set(jwtRoutes.flatMap((def) => def.roles))).toEqual(new Set(LEVELS));
  });

  it('tests another tenant on every route that reads or writes tenant data', () => {
    const withTenant = jwtRoutes.filter((def) => ROLES.some((role) => probesOf(def.id, role).foreign));
    expect(withTenant.map((def) => def.id).sort()).toEqual(
      [
        'approveInvoice',
        'disapproveInvoice',
        'getDashboard',
        'getInvoice',
        'getInvoiceFile',
        'listEmployees',
        'listInvoices',
        'listMaterialDocs',
        'listOfficeLocations',
        'listServiceSheets',
        'materialDocAvailability',
        'purchaseOrderAvailability',
        'serviceSheetAvailability',
        'updateInvoice',
      ].sort(),
    );
  });
});

function probesOf(id: string, role: Role): Cell {
  return PROBES[id as keyof typeof PROBES](role);
}

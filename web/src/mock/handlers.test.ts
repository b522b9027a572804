import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CURRENCIES,
  ErrorBody,
  HEADERS,
  INVOICE_STATUSES,
  ROUTES,
  buildPath,
  isValidRuc,
  parseTaxIds,
  routes,
  type Invoice,
  type RouteDef,
  type RouteId,
} from '@portal/shared';
import { createMockWorld, MOCK_CLIENTS, MOCK_EMPLOYEES, MOCK_OFFICES, MOCK_SUPPLIERS, type MockWorld } from './data';
import { MOCK_DELAY_MS, createMockHandlers } from './handlers';
import { MOCK_PERSONAS, mockPersona } from './personas';
import { MOCK_ROUTES } from './routes';
import { mockTokenOf } from '../session/mock-session';

const API = 'http://mock.test/api';
const TODAY = new Date('2026-11-20T15:00:00.000Z');
const server = setupServer();
let world: MockWorld;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  world = createMockWorld(TODAY);
  server.resetHandlers(...createMockHandlers({ apiUrl: API, delayMs: 0, world, now: () => TODAY }));
});
afterAll(() => server.close());

interface Call {
  readonly path?: Record<string, string>;
  readonly query?: Record<string, string>;
  readonly body?: unknown;
  /** A persona of personas.ts; by default the first of gestor, administrador, proveedor the route allows. */
  readonly as?: string;
}

async function call(route: RouteDef, input: Call = {}): Promise<{ status: number; body: unknown }> {
  const persona =
    route.auth === 'public'
      ? null
      : mockPersona(
          input.as ??
            ['gestor', 'administrador', 'proveedor'].find((id) => route.roles.includes(mockPersona(id)!.user.level))!,
        )!;
  const search = new URLSearchParams(input.query).toString();
  const response = await fetch(`${API}${buildPath(route, input.path)}${search ? `?${search}` : ''}`, {
    method: route.method,
    headers: {
      ...(persona
        ? { authorization: `Bearer ${mockTokenOf({ personaId: persona.id, taxId: persona.user.taxId })}` }
        : {}),
      ...(input.body === undefined ? {} : { 'content-type': 'application/json' }),
      [HEADERS.requestId]: 'mock-test-0001',
    },
    body: input.body === undefined ? undefined : JSON.stringify(input.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

const gestorCompanies = parseTaxIds(mockPersona('gestor')!.user.taxId);
const keyOf = (invoice: Invoice) => ({
  supplierId: invoice.supplierId,
  invoiceType: invoice.type,
  invoiceId: invoice.id,
});
function managedInvoice(predicate: (invoice: Invoice) => boolean): Invoice {
  const found = world.invoices.find((invoice) => gestorCompanies.includes(invoice.client) && predicate(invoice));
  if (!found) throw new Error('The sample world has no such invoice');
  return found;
}
const reviewable = () => managedInvoice((invoice) => invoice.status === 'PENDING' && invoice.certStatus === 'VALID');
const completed = () => managedInvoice((invoice) => invoice.status === 'COMPLETED');
const freeServiceSheet = () =>
  world.serviceSheets.find((sheet) => !sheet.associatedInvoice && gestorCompanies.includes(sheet.acquirerTaxId))!;
const freeMaterialDoc = () =>
  world.materialDocs.find((doc) => !doc.associatedInvoice && gestorCompanies.includes(doc.acquirerTaxId))!;
const [andina] = MOCK_CLIENTS;
const [supplier] = MOCK_SUPPLIERS;
const supplierUser = () => world.externalUsers[0]!.id;
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** A request each route of the manifest accepts: a route without one here fails the test below. */
const SAMPLE_CALLS: Record<RouteId, () => Call> = {
  healthcheck: () => ({}),
  heartbeat: () => ({}),
  openapi: () => ({}),
  getCurrentUser: () => ({ as: 'proveedor' }),
  verifySession: () => ({}),
  listClients: () => ({}),
  listInvoices: () => ({ query: { invoiceStatus: 'PENDING,COMPLETED', limit: '5' } }),
  countInvoices: () => ({ query: { invoiceType: 'FACTURA' } }),
  createInvoiceFromXml: () => ({ as: 'proveedor', body: { url: 'mock/F001-9001.xml' } }),
  createInvoiceWithoutXml: () => ({
    as: 'proveedor',
    body: {
      prefixId: 'F002',
      numericId: '77',
      type: 'FACTURA',
      clientTaxId: andina!.taxId,
      supplierTaxId: supplier!.taxId,
      currency: 'PEN',
      amount: 1180,
      taxAmount: 180,
      issueDate: daysAgo(3),
      pdfUrl: 'mock/F002-77.pdf',
    },
  }),
  createUpload: () => ({
    body: { purpose: 'INVOICE_XML', fileName: 'F001-9001.xml', contentType: 'text/xml', size: 2048 },
  }),
  getInvoiceFile: () => ({ path: keyOf(reviewable()), query: { file: 'pdf' } }),
  getInvoice: () => ({ path: keyOf(reviewable()) }),
  listInvoiceHistory: () => ({ path: keyOf(reviewable()) }),
  updateInvoice: () => {
    const invoice = reviewable();
    const office = MOCK_OFFICES[invoice.client]![0]!;
    return {
      path: keyOf(invoice),
      body: {
        operationType: 'SERVICES',
        responsibleId: MOCK_EMPLOYEES[invoice.client]![0]!.id,
        officeId: office.office,
        locationId: office.id,
        purchaseOrders: ['4500019100'],
        serviceSheets: ['100005100'],
      },
    };
  },
  listInvoiceMessages: () => ({ path: keyOf(reviewable()) }),
  postInvoiceMessage: () => ({ path: keyOf(reviewable()), body: { text: 'Adjuntamos la guía de remisión.' } }),
  observeInvoice: () => ({ path: keyOf(reviewable()), body: { text: 'Falta la guía de remisión.' } }),
  clearInvoiceObservation: () => {
    const invoice = reviewable();
    invoice.observation = { since: TODAY.toISOString(), by: 'Gestor', reason: 'Falta la guía de remisión.' };
    return { path: keyOf(invoice) };
  },
  getInvoiceMessageFile: () => {
    const invoice = reviewable();
    const id = '20261126T190455123Z-0000000a';
    world.messages[`${invoice.supplierId}#${invoice.type}#${invoice.id}`] = [
      {
        id,
        at: TODAY.toISOString(),
        authorName: 'Proveedor',
        authorRole: 'SUPPLIER',
        side: 'SUPPLIER',
        text: 'Guía adjunta',
        attachments: [{ key: 'mock/guia.pdf', fileName: 'guia.pdf', contentType: 'application/pdf', size: 10 }],
        observation: false,
      },
    ];
    return { path: { ...keyOf(invoice), messageId: id }, query: { index: '0' } };
  },
  countWaitingConversations: () => ({ as: 'proveedor' }),
  approveInvoice: () => ({ path: keyOf(completed()) }),
  approveInvoiceDespiteRucRisk: () => ({
    path: keyOf(completed()),
    body: { reason: 'El proveedor regularizó su domicilio fiscal; se verificó en la consulta RUC.' },
  }),
  disapproveInvoice: () => ({
    path: keyOf(reviewable()),
    query: { noRejection: 'false' },
    body: { reason: 'El monto no coincide con la orden de compra.' },
  }),
  retrySapPosting: () => ({ path: keyOf(world.invoices.find((invoice) => invoice.status === 'ACCEPTED')!) }),
  requestSunatValidation: () => ({ path: keyOf(managedInvoice((invoice) => invoice.certStatus === 'PENDING')) }),
  registerAcquirerConformity: () => ({ path: keyOf(reviewable()), body: { decision: 'CONFORMITY' } }),
  getDashboard: () => ({ query: { client: gestorCompanies[0]! } }),
  listEmployees: () => ({ query: { acquirer: gestorCompanies[0]!, q: 'luis' } }),
  listOfficeLocations: () => ({ query: { taxId: gestorCompanies[0]! } }),
  listMaterialDocs: () => ({ query: { acquirer: gestorCompanies[0]! } }),
  listServiceSheets: () => ({ query: { acquirer: gestorCompanies[0]! } }),
  materialDocAvailability: () => {
    const doc = freeMaterialDoc();
    return { path: { id: doc.documentId }, query: { acquirer: doc.acquirerTaxId, issuer: doc.issuerTaxId } };
  },
  serviceSheetAvailability: () => {
    const sheet = freeServiceSheet();
    return { path: { id: sheet.documentId }, query: { acquirer: sheet.acquirerTaxId, issuer: sheet.issuerTaxId } };
  },
  purchaseOrderAvailability: () => {
    const sheet = freeServiceSheet();
    return { path: { id: sheet.purchaseOrder }, query: { acquirer: sheet.acquirerTaxId, issuer: sheet.issuerTaxId } };
  },
  suggestConformityDocuments: () => {
    // An invoice of a company and supplier that have a service sheet: its order is known to the invoice.
    const invoice = managedInvoice((each) =>
      world.serviceSheets.some((sheet) => sheet.acquirerTaxId === each.client && sheet.issuerTaxId === each.supplierId),
    );
    const sheet = world.serviceSheets.find(
      (each) => each.acquirerTaxId === invoice.client && each.issuerTaxId === invoice.supplierId,
    )!;
    return { path: keyOf(invoice), query: { purchaseOrder: sheet.purchaseOrder } };
  },
  searchSuppliers: () => ({ query: { query: 'Lima' } }),
  listNotifications: () => ({}),
  markNotificationsAsRead: () => ({ body: {} }),
  getNotificationPreferences: () => ({}),
  putNotificationPreferences: () => ({
    as: 'proveedor',
    body: { items: [{ kind: 'SUNAT_VALID', feed: false, email: null }] },
  }),
  listExternalUsers: () => ({ query: { query: 'facturacion' } }),
  createExternalUser: () => ({
    body: {
      email: 'ana.ruiz@nuevoproveedor.pe',
      firstName: 'Ana',
      lastName: 'Ruiz',
      taxId: '20100070970',
      businessName: 'Nuevo Proveedor S.A.C.',
    },
  }),
  resetExternalUserPassword: () => ({ path: { userId: supplierUser() } }),
  disableExternalUser: () => ({ path: { userId: supplierUser() } }),
  enableExternalUser: () => ({ path: { userId: supplierUser() } }),
  whitelistNotifications: () => ({ path: { userId: supplierUser() }, query: { include: 'false' } }),
  whitelistNotificationsBulk: () => ({ query: { include: 'true' }, body: { userIds: [supplierUser(), 'ext-otro'] } }),
  listInternalUsers: () => ({}),
  assignClientToInternalUser: () => ({ path: { userId: 'int-2' }, query: { client: andina!.taxId } }),
  unassignClientFromInternalUser: () => ({ path: { userId: 'int-2' }, query: { client: andina!.taxId } }),
  listAuditEvents: () => ({ query: { limit: '3' } }),
  listApiClients: () => ({}),
  createApiClient: () => ({
    body: { taxId: world.apiClients[0]!.taxId, name: 'ERP nuevo', scopes: ['invoices.submit'] },
  }),
  revokeApiClient: () => ({ path: { clientId: world.apiClients[0]!.clientId } }),
  createExport: () => ({ body: { list: 'invoices', format: 'xlsx', filters: { invoiceStatus: 'PENDING' } } }),
  getExport: () => ({ path: { exportId: world.exports[0]!.job.id } }),
  createIntakeBatch: () => ({ as: 'proveedor', body: { url: 'mock/1-marzo.zip' } }),
  getIntakeBatch: () => ({ as: 'proveedor', path: { batchId: world.intakeBatches[0]!.batch.id } }),
  listIntakeBatches: () => ({ as: 'proveedor' }),
};

describe('the mock provider', () => {
  it('has a mock for every route of the manifest, and none for a route the manifest does not have', () => {
    const manifest = ROUTES.map((route) => route.id).sort();
    expect(Object.keys(MOCK_ROUTES).sort()).toEqual(manifest);
    expect(Object.keys(SAMPLE_CALLS).sort()).toEqual(manifest);
  });

  it.each(ROUTES.map((route) => [route.id, route] as const))(
    '%s answers its success status with a body its response schema accepts',
    async (id, route) => {
      const sample = SAMPLE_CALLS[id as RouteId];
      expect(sample, `no sample call for ${id}`).toBeDefined();
      const { status, body } = await call(route, sample());
      expect({ status, body }).toMatchObject({ status: route.successStatus });
      const parsed = route.response.safeParse(body);
      expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    },
  );

  it('answers after the 250 ms of spec §9 unless told otherwise', async () => {
    server.resetHandlers(...createMockHandlers({ apiUrl: API, world }));
    const started = performance.now();
    const { status } = await call(routes.listClients);
    expect(status).toBe(200);
    expect(MOCK_DELAY_MS).toBe(250);
    expect(performance.now() - started).toBeGreaterThanOrEqual(MOCK_DELAY_MS - 5);
  });

  it("shows a supplier only the invoices it issued, and another supplier's as not found", async () => {
    const proveedor = mockPersona('proveedor')!.user.taxId;
    const { body } = await call(routes.listInvoices, { as: 'proveedor', query: { limit: '100' } });
    const items = (body as { items: Invoice[] }).items;
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((invoice) => invoice.supplierId === proveedor)).toBe(true);

    const other = world.invoices.find((invoice) => invoice.supplierId !== proveedor)!;
    const refused = await call(routes.getInvoice, { as: 'proveedor', path: keyOf(other) });
    expect(refused.status).toBe(404);
    expect(ErrorBody.parse(refused.body).errors[0]?.code).toBe('ERROR_INVOICE_NOT_FOUND');
  });

  it('gives each persona the notifications about the invoices it sees', async () => {
    const supplier = mockPersona('proveedor')!.user.taxId;
    const { body } = await call(routes.listNotifications, { as: 'proveedor' });
    const items = (body as { items: { reference: { issuerTaxId?: string } | null }[] }).items;
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((item) => item.reference?.issuerTaxId === supplier)).toBe(true);
  });

  it('refuses what the role may not do, and a call without a session, with the API error body', async () => {
    const forbidden = await call(routes.getDashboard, { as: 'proveedor', query: { client: andina!.taxId } });
    expect(forbidden.status).toBe(403);
    expect(ErrorBody.parse(forbidden.body)).toMatchObject({ message: 'Sesión inválida.', txId: 'mock-test-0001' });

    const anonymous = await fetch(`${API}/invoices`);
    expect(anonymous.status).toBe(401);
  });

  it('answers a request its schema refuses with 400 and a Spanish reason', async () => {
    const { status, body } = await call(routes.getDashboard, { query: { client: andina!.taxId, period: '13/2026' } });
    expect(status).toBe(400);
    const error = ErrorBody.parse(body);
    expect(error.errors[0]).toMatchObject({ code: 'ERROR_INVALID_PARAMETER', parameters: { parameter: 'period' } });
    expect(error.message).toContain('MM/AAAA');
  });

  it('keeps what a call changed: an approved invoice lists as accepted, and cannot be approved twice', async () => {
    const invoice = completed();
    expect((await call(routes.approveInvoice, { path: keyOf(invoice) })).status).toBe(200);
    const { body } = await call(routes.listInvoices, {
      query: { search: invoice.id, client: invoice.client, invoiceStatus: 'ACCEPTED' },
    });
    expect((body as { items: Invoice[] }).items.map((each) => each.id)).toContain(invoice.id);

    const again = await call(routes.approveInvoice, { path: keyOf(invoice) });
    expect(again.status).toBe(409);
    expect(ErrorBody.parse(again.body).errors[0]?.code).toBe('ERROR_APPROVE_INVOICE_WITHOUT_COMPLETED_STATUS');
  });
});

describe('the mock sample world', () => {
  it('is the same for the same day', () => {
    expect(createMockWorld(TODAY)).toEqual(createMockWorld(TODAY));
  });

  it('has valid RUCs, both currencies, every status, and an IGV of 18 % on facturas', () => {
    const world = createMockWorld(TODAY);
    const rucs = world.invoices.flatMap((invoice) => [invoice.supplierId, invoice.client]);
    expect(rucs.filter((ruc) => !isValidRuc(ruc))).toEqual([]);
    expect(new Set(world.invoices.map((invoice) => invoice.currency))).toEqual(new Set(CURRENCIES));
    expect(new Set(world.invoices.map((invoice) => invoice.status))).toEqual(new Set(INVOICE_STATUSES));
    for (const invoice of world.invoices.filter((each) => each.type === 'FACTURA')) {
      expect(Math.abs((invoice.amount - invoice.taxAmount) * 0.18 - invoice.taxAmount)).toBeLessThanOrEqual(0.01);
    }
  });

  it('has a persona for every role of the portal', () => {
    expect(new Set(MOCK_PERSONAS.map((persona) => persona.user.level))).toEqual(
      new Set(['SUPPLIER', 'MANAGER', 'ADMIN']),
    );
  });
});

import {
  APP_VERSION,
  TEXT_LIMITS,
  cleanMessageText,
  conversationAfter,
  messageIdOf,
  sideOf,
  type InvoiceMessage,
  type IntakeBatchSummary,
  type IntakeDocumentResult,
  EMPTY_DASHBOARD,
  dashboardDelta,
  BadRequestError,
  DEFAULT_PREFERENCES,
  preferencesView,
  storedPreferencesOf,
  type StoredPreferences,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  buildOpenApi,
  fromCents,
  parseTaxIds,
  suggestByKind,
  toCents,
  type AcquirerConformity,
  type ConformityDocument,
  type Invoice,
  type InvoiceDetail,
  type InvoiceAuditAction,
  type InvoiceAuditEvent,
  type InvoiceStatus,
  type RouteBody,
  type RouteDef,
  type RouteId,
  type RoutePath,
  type RouteQuery,
  type RouteResponse,
  type Routes,
  type StatusHistoryEntry,
  INVOICE_STATUS_LABELS,
} from '@portal/shared';
import { MOCK_CLIENTS, MOCK_EMPLOYEES, MOCK_OFFICES, MOCK_SUPPLIERS, mockIntakeResults, type MockWorld } from './data';
import type { MockPersona } from './personas';

/** What a mock route receives: the request parsed with the route's own schemas, and who calls. */
export interface MockContext<R extends RouteDef> {
  readonly path: RoutePath<R>;
  readonly query: RouteQuery<R>;
  readonly body: RouteBody<R>;
  /** Null on public routes only: the others answer 401 without a persona. */
  readonly persona: MockPersona | null;
  /** The company the call acts for (the company-id header, or the persona's first). */
  readonly company: string | null;
  readonly world: MockWorld;
  readonly now: Date;
  /** Base URL of the mock's file links. */
  readonly filesUrl: string;
}

type MockResolver<R extends RouteDef> = (context: MockContext<R>) => RouteResponse<R>;

/** One answer per route of the manifest: a route added to it without one here does not compile. */
export type MockRoutes = { readonly [K in RouteId]: MockResolver<Routes[K]> };

const HOUR_MS = 3_600_000;
/** How long verifySession says a mock session lasts (Cognito's ID token: one hour). */
const MOCK_SIGNED_IN_HOURS = 1;

function signedIn(persona: MockPersona | null): MockPersona {
  if (!persona) throw new Error('A jwt route resolved without a persona');
  return persona;
}

/** Opaque enough for the client: the offset of the next page. */
function paginate<T>(items: readonly T[], query: { limit: number; cursor?: string | undefined }) {
  const offset = query.cursor === undefined ? 0 : Number(query.cursor);
  if (!Number.isInteger(offset) || offset < 0) throw new BadRequestError('ERROR_INVALID_CURSOR');
  const end = offset + query.limit;
  return { items: items.slice(offset, end), nextCursor: end < items.length ? String(end) : null };
}

/** A supplier sees what it issued; staff see the invoices of the company they act for (or of `client`). */
function visibleInvoices(context: MockContext<RouteDef>): Invoice[] {
  const persona = signedIn(context.persona);
  const own = parseTaxIds(persona.user.taxId);
  if (persona.user.level === 'SUPPLIER') return context.world.invoices.filter((i) => own.includes(i.supplierId));
  if (persona.user.level === 'ADMIN') return context.world.invoices;
  return context.world.invoices.filter((invoice) => own.includes(invoice.client));
}

type InvoiceFilterQuery = RouteQuery<Routes['countInvoices']>;

function matchesFilter(invoice: Invoice, filter: InvoiceFilterQuery, company: string | null, supplier: boolean) {
  const client = filter.client ?? filter.acquirer ?? (supplier ? undefined : (company ?? undefined));
  if (client && invoice.client !== client) return false;
  if (filter.issuer && invoice.supplierId !== filter.issuer) return false;
  if (filter.invoiceStatus && !filter.invoiceStatus.includes(invoice.status)) return false;
  if (filter.invoiceType && !filter.invoiceType.includes(invoice.type)) return false;
  if (filter.responsible && invoice.responsible?.id !== filter.responsible) return false;
  if (filter.office && invoice.officeId !== filter.office && invoice.locationId !== filter.office) return false;
  if (filter.dueFrom && (!invoice.scheduledAt || invoice.scheduledAt < filter.dueFrom)) return false;
  if (filter.dueTo && (!invoice.scheduledAt || invoice.scheduledAt > filter.dueTo)) return false;
  if (filter.acquirerConformity && invoice.acquirerConformity?.state !== filter.acquirerConformity) return false;
  if (filter.observed && !invoice.observation) return false;
  if (filter.search) {
    const needle = filter.search.toLowerCase();
    const haystack = `${invoice.id} ${invoice.supplierId} ${invoice.supplierName}`.toLowerCase();
    if (!haystack.includes(needle)) return false;
  }
  return true;
}

function filteredInvoices(context: MockContext<RouteDef>, filter: InvoiceFilterQuery): Invoice[] {
  const supplier = signedIn(context.persona).user.level === 'SUPPLIER';
  return visibleInvoices(context).filter((invoice) => matchesFilter(invoice, filter, context.company, supplier));
}

type InvoiceKey = RoutePath<Routes['getInvoice']>;

function findInvoice(context: MockContext<RouteDef>, key: InvoiceKey): Invoice {
  const invoice = visibleInvoices(context).find(
    (each) => each.supplierId === key.supplierId && each.type === key.invoiceType && each.id === key.invoiceId,
  );
  // Another tenant's invoice answers 404 as a missing one, as the API does.
  if (!invoice) throw new NotFoundError('ERROR_INVOICE_NOT_FOUND', { invoiceId: key.invoiceId });
  return invoice;
}

function detailOf(invoice: Invoice): InvoiceDetail {
  const location = MOCK_OFFICES[invoice.client]?.find((office) => office.id === invoice.locationId) ?? null;
  return { ...invoice, officeLocation: location };
}

function historyEntry(status: InvoiceStatus, context: MockContext<RouteDef>, message: string | null) {
  const persona = signedIn(context.persona);
  const entry: StatusHistoryEntry = {
    status,
    title: INVOICE_STATUS_LABELS[status],
    additionalMessage: message,
    date: context.now.toISOString(),
    by: `${persona.user.firstName} ${persona.user.lastName}`,
  };
  return entry;
}

const TRAIL_ACTIONS: Record<InvoiceStatus, InvoiceAuditAction> = {
  PENDING: 'SUBMITTED',
  COMPLETED: 'COMPLETED',
  ACCEPTED: 'APPROVED',
  REJECTED: 'REJECTED',
  SCHEDULED: 'PAYMENT_SYNCED',
  PAID: 'PAYMENT_SYNCED',
};

/** The sample world keeps status histories only: its trail is told from them, one record per entry. */
function trailOf(invoice: Invoice): InvoiceAuditEvent[] {
  return invoice.statusHistory.map((entry, index) => {
    const previous = index > 0 ? invoice.statusHistory[index - 1]!.status : null;
    return {
      id: `${invoice.id}-${index}`,
      occurredAt: entry.date,
      action: TRAIL_ACTIONS[entry.status],
      actor: entry.by
        ? { id: entry.by, name: entry.by, email: null, role: index === 0 ? 'SUPPLIER' : 'MANAGER', signIn: 'PASSWORD' }
        : { id: 'system', name: 'Proceso automático', email: null, role: null, signIn: 'SYSTEM' },
      changes: previous === entry.status ? [] : [{ field: 'status', before: previous, after: entry.status }],
      note: entry.additionalMessage,
      txId: `mock-${index}`,
    };
  });
}

/** Changes an invoice of the world in place and answers its detail. */
function change(context: MockContext<RouteDef>, key: InvoiceKey, update: (invoice: Invoice) => Partial<Invoice>) {
  const invoice = findInvoice(context, key);
  Object.assign(invoice, update(invoice));
  return detailOf(invoice);
}

const conversationKey = (key: InvoiceKey) => `${key.supplierId}#${key.invoiceType}#${key.invoiceId}`;

/** A message posted in the mock as the API posts it: cleaned text, the side's mark and summary moved. */
function postMockMessage(
  context: MockContext<RouteDef> & { readonly body: RouteBody<Routes['postInvoiceMessage']> },
  key: InvoiceKey,
  kind: 'MESSAGE' | 'OBSERVE',
) {
  const persona = signedIn(context.persona);
  const invoice = findInvoice(context, key);
  const cleaned = cleanMessageText(context.body.text);
  if (!cleaned.ok) {
    throw cleaned.problem === 'EMPTY'
      ? new BadRequestError('ERROR_MESSAGE_EMPTY', { parameter: 'text' })
      : new BadRequestError('ERROR_MESSAGE_TOO_LONG', { parameter: 'text', max: TEXT_LIMITS.message });
  }
  const side = sideOf(persona.user.level);
  const at = context.now.toISOString();
  const authorName = `${persona.user.firstName} ${persona.user.lastName}`.trim() || persona.user.email;
  const list = (context.world.messages[conversationKey(key)] ??= []);
  const message: InvoiceMessage = {
    id: messageIdOf(context.now, (list.length + 1).toString(16).padStart(8, '0')),
    at,
    authorName,
    authorRole: persona.user.level,
    side,
    text: cleaned.text,
    attachments: context.body.attachments.map((attachment, index) => ({
      key: attachment,
      fileName: `adjunto-${index + 1}.pdf`,
      contentType: 'application/pdf',
      size: 1024,
    })),
    observation: kind === 'OBSERVE',
  };
  list.push(message);
  const state = conversationAfter(
    { observation: invoice.observation ?? null, conversation: invoice.conversation ?? null },
    kind === 'OBSERVE' ? { kind, at, by: authorName, reason: cleaned.text } : { kind, side, at },
  );
  Object.assign(invoice, state);
  return { message, ...state };
}

function requireStatus(invoice: Invoice, allowed: readonly InvoiceStatus[], code: 'approve' | 'disapprove') {
  if (allowed.includes(invoice.status)) return;
  throw new ConflictError(
    code === 'approve'
      ? 'ERROR_APPROVE_INVOICE_WITHOUT_COMPLETED_STATUS'
      : 'ERROR_DISAPPROVE_INVOICE_WITHOUT_PENDING_OR_COMPLETED_STATUS',
  );
}

function approval(invoice: Invoice, context: MockContext<RouteDef>): Partial<Invoice> {
  return {
    status: 'ACCEPTED',
    approved: true,
    approvedAt: context.now.toISOString(),
    sapDocument: {
      number: `51056${invoice.numericId.padStart(5, '0')}`,
      fiscalYear: String(context.now.getFullYear()),
    },
    statusHistory: [...invoice.statusHistory, historyEntry('ACCEPTED', context, null)],
  };
}

/** A new invoice received now, PENDING while SUNAT has not answered. */
function received(
  context: MockContext<RouteDef>,
  fields: Pick<Invoice, 'prefixId' | 'numericId' | 'type' | 'supplierId' | 'client' | 'currency' | 'amount'> &
    Partial<Invoice>,
): Invoice {
  const id = `${fields.prefixId}-${String(Number(fields.numericId))}`;
  if (
    context.world.invoices.some(
      (each) => each.supplierId === fields.supplierId && each.type === fields.type && each.id === id,
    )
  ) {
    throw new ConflictError('ERROR_INVOICE_ALREADY_EXISTS', { invoiceId: id });
  }
  const client = MOCK_CLIENTS.find((each) => each.taxId === fields.client);
  if (!client) throw new NotFoundError('ERROR_CLIENT_NOT_FOUND');
  const receivedAt = context.now.toISOString();
  const invoice: Invoice = {
    id,
    status: 'PENDING',
    statusMessage: null,
    certStatus: 'PENDING',
    approved: false,
    supplierName: MOCK_SUPPLIERS.find((each) => each.taxId === fields.supplierId)?.name ?? 'Proveedor nuevo S.A.C.',
    clientName: client.name,
    responsible: null,
    officeId: null,
    locationId: null,
    operationType: null,
    taxAmount: Math.round((fields.amount / 1.18) * 18) / 100,
    serviceSheets: [],
    materialDocs: [],
    purchaseOrders: [],
    attachments: [],
    issuedAt: receivedAt.slice(0, 10),
    receivedAt,
    scheduledAt: null,
    paidAt: null,
    xmlUrl: null,
    pdfUrl: null,
    disapprovedWithoutRejection: false,
    notes: null,
    statusHistory: [
      { status: 'PENDING', title: INVOICE_STATUS_LABELS.PENDING, additionalMessage: null, date: receivedAt, by: null },
    ],
    ...fields,
  };
  context.world.invoices.unshift(invoice);
  return invoice;
}

/** The supplier the caller registers for: its own RUC, or (an administrator) the one the document names. */
function issuerFor(context: MockContext<RouteDef>, named?: string): string {
  const persona = signedIn(context.persona);
  if (persona.user.level === 'SUPPLIER') return parseTaxIds(persona.user.taxId)[0] ?? '';
  return named ?? MOCK_SUPPLIERS[0]!.taxId;
}

function conformityIn(documents: readonly ConformityDocument[], query: RouteQuery<Routes['listServiceSheets']>) {
  return documents.filter(
    (document) =>
      document.acquirerTaxId === query.acquirer &&
      (!query.issuer || document.issuerTaxId === query.issuer) &&
      (!query.responsible || document.responsible === query.responsible),
  );
}

function availableDocument(
  documents: readonly ConformityDocument[],
  id: string,
  query: RouteQuery<Routes['serviceSheetAvailability']>,
  notFound: 'ERROR_HES_NOT_FOUND' | 'ERROR_MIGO_NOT_FOUND',
): ConformityDocument {
  const document = documents.find(
    (each) => each.documentId === id && each.acquirerTaxId === query.acquirer && each.issuerTaxId === query.issuer,
  );
  if (!document) throw new NotFoundError(notFound, { documentId: id });
  if (document.associatedInvoice) {
    throw new NotFoundError('ERROR_CONFORMITY_DOCUMENT_NOT_AVAILABLE', { documentId: id });
  }
  return document;
}

/**
 * The suggested HES and MIGO of an invoice with the shared rule: the order's documents of the invoice's
 * company, supplier and currency that no other invoice holds (the mock names the holder by invoice number).
 */
function suggestionsFor(
  context: MockContext<Routes['suggestConformityDocuments']>,
): RouteResponse<Routes['suggestConformityDocuments']> {
  const invoice = findInvoice(context, context.path);
  const { purchaseOrder } = context.query;
  const ofOrder = (documents: readonly ConformityDocument[]) =>
    documents.filter(
      (doc) =>
        doc.purchaseOrder === purchaseOrder &&
        doc.acquirerTaxId === invoice.client &&
        doc.issuerTaxId === invoice.supplierId,
    );
  const groups = [
    { kind: 'SERVICE_SHEET' as const, documents: ofOrder(context.world.serviceSheets) },
    { kind: 'MATERIAL_DOCUMENT' as const, documents: ofOrder(context.world.materialDocs) },
  ];
  if (groups.every((group) => group.documents.length === 0)) {
    throw new NotFoundError('ERROR_PURCHASE_ORDER_NOT_FOUND', { documentId: purchaseOrder });
  }
  const open = groups.map((group) => ({
    kind: group.kind,
    documents: group.documents.filter(
      (doc) => doc.currency === invoice.currency && (!doc.associatedInvoice || doc.associatedInvoice === invoice.id),
    ),
  }));
  const target = fromCents(toCents(invoice.amount) - toCents(invoice.taxAmount));
  const found = suggestByKind(open, target);
  return {
    purchaseOrder,
    currency: invoice.currency,
    target,
    suggestions: found.suggestions.map((suggestion) => ({ ...suggestion, documents: [...suggestion.documents] })),
    candidates: found.candidates,
    complete: found.complete,
  };
}

function findUser<T extends { id: string }>(users: readonly T[], userId: string): T {
  const user = users.find((each) => each.id === userId);
  if (!user) throw new NotFoundError('ERROR_USER_NOT_FOUND');
  return user;
}

function acquirerAnswer(
  invoice: Invoice,
  context: MockContext<Routes['registerAcquirerConformity']>,
): AcquirerConformity {
  const persona = signedIn(context.persona);
  const countedFrom = invoice.receivedAt.slice(0, 10);
  const deadline = new Date(Date.parse(countedFrom) + 8 * 24 * HOUR_MS).toISOString().slice(0, 10);
  const answer = {
    decision: context.body.decision,
    cause: context.body.cause ?? null,
    reason: context.body.reason ?? null,
    at: context.now.toISOString(),
    by: persona.user.email,
  };
  return {
    countedFrom,
    countedFromBasis: 'RECEPTION',
    deadline,
    state: context.body.decision,
    answers: [...(invoice.acquirerConformity?.answers ?? []), answer].slice(-2),
    presumedAt: null,
  };
}

/** Each world's notification preferences by persona (ADR 0050), as the API keeps them per user. */
const mockPreferences = new WeakMap<MockWorld, Map<string, StoredPreferences>>();
function preferencesOfPersona(context: MockContext<RouteDef>) {
  const persona = signedIn(context.persona);
  const audience = persona.user.level === 'SUPPLIER' ? ('supplier' as const) : ('client' as const);
  const byPersona = mockPreferences.get(context.world) ?? new Map<string, StoredPreferences>();
  mockPreferences.set(context.world, byPersona);
  return { audience, byPersona, id: persona.id };
}

/** The feed of the people concerned: notifications about the invoices the caller sees. */
function notificationsOf(context: MockContext<RouteDef>) {
  const visible = new Set(visibleInvoices(context).map((invoice) => `${invoice.supplierId}/${invoice.id}`));
  return context.world.notifications.filter(
    (notification) =>
      !notification.reference ||
      visible.has(`${notification.reference.issuerTaxId}/${notification.reference.invoiceId}`),
  );
}

const health = (context: MockContext<RouteDef>) => ({
  status: 'ok' as const,
  version: APP_VERSION,
  time: context.now.toISOString(),
});

export const MOCK_ROUTES: MockRoutes = {
  healthcheck: health,
  heartbeat: health,
  openapi: () => buildOpenApi(),

  getCurrentUser: (context) => signedIn(context.persona).user,
  verifySession: (context) => {
    const { user } = signedIn(context.persona);
    return {
      valid: true,
      expiresAt: new Date(context.now.getTime() + MOCK_SIGNED_IN_HOURS * HOUR_MS).toISOString(),
      level: user.level,
      activeCompany: context.company,
      companies: parseTaxIds(user.taxId),
    };
  },

  listClients: () => ({ items: [...MOCK_CLIENTS] }),

  listInvoices: (context) =>
    paginate(
      filteredInvoices(context, context.query).map(({ statusHistory: _history, ...summary }) => summary),
      context.query,
    ),
  countInvoices: (context) => ({ count: filteredInvoices(context, context.query).length, exact: true }),
  createInvoiceFromXml: (context) => {
    const supplierId = issuerFor(context);
    const numericId = String(3000 + context.world.invoices.length);
    return received(context, {
      prefixId: 'F001',
      numericId,
      type: 'FACTURA',
      supplierId,
      // The XML names the client: the company acted for when it is one of the group (staff), else the first.
      client: MOCK_CLIENTS.find((client) => client.taxId === context.company)?.taxId ?? MOCK_CLIENTS[0]!.taxId,
      currency: 'PEN',
      amount: 1180,
      xmlUrl: context.body.url,
    });
  },
  createInvoiceWithoutXml: (context) => {
    const { body } = context;
    return received(context, {
      prefixId: body.prefixId,
      numericId: body.numericId,
      type: body.type,
      supplierId: issuerFor(context, body.supplierTaxId),
      client: body.clientTaxId,
      currency: body.currency,
      amount: body.amount,
      taxAmount: body.taxAmount,
      issuedAt: body.issueDate,
      pdfUrl: body.pdfUrl,
      notes: body.notes ?? null,
    });
  },

  createUpload: (context) => {
    const key = `mock/${context.now.getTime()}-${context.body.fileName}`;
    return {
      key,
      url: context.filesUrl,
      fields: { key, 'Content-Type': context.body.contentType },
      expiresAt: new Date(context.now.getTime() + HOUR_MS / 4).toISOString(),
      maxBytes: 10 * 1024 * 1024,
    };
  },
  getInvoiceFile: (context) => {
    const invoice = findInvoice(context, context.path);
    const extension = context.query.file === 'xml' ? 'xml' : 'pdf';
    const fileName =
      context.query.file === 'attachment'
        ? `adjunto-${context.query.index ?? 0}-${invoice.id}.pdf`
        : `${invoice.supplierId}-${invoice.id}.${extension}`;
    return {
      url: `${context.filesUrl}/${encodeURIComponent(fileName)}`,
      expiresAt: new Date(context.now.getTime() + HOUR_MS / 12).toISOString(),
      fileName,
    };
  },

  getInvoice: (context) => detailOf(findInvoice(context, context.path)),
  listInvoiceHistory: (context) => paginate(trailOf(findInvoice(context, context.path)), context.query),
  updateInvoice: (context) =>
    change(context, context.path, (invoice) => {
      if (invoice.certStatus === 'PENDING') throw new ConflictError('ERROR_UPDATE_INVOICE_WITH_PENDING_STATUS');
      if (invoice.certStatus === 'INVALID') {
        throw new ConflictError('ERROR_UPDATE_INVOICE_WITH_INVALID_CERTIFICATION_STATUS');
      }
      requireStatus(invoice, ['PENDING', 'COMPLETED'], 'disapprove');
      const { body } = context;
      const responsible = MOCK_EMPLOYEES[invoice.client]?.find((employee) => employee.id === body.responsibleId);
      if (!responsible) throw new NotFoundError('ERROR_EMPLOYEE_NOT_FOUND');
      return {
        status: 'COMPLETED',
        operationType: body.operationType,
        responsible,
        officeId: body.officeId,
        locationId: body.locationId,
        purchaseOrders: body.purchaseOrders,
        serviceSheets: body.serviceSheets,
        materialDocs: body.materialDocs,
        attachments: body.attachments,
        statusHistory:
          invoice.status === 'COMPLETED'
            ? invoice.statusHistory
            : [...invoice.statusHistory, historyEntry('COMPLETED', context, null)],
      };
    }),
  approveInvoice: (context) =>
    change(context, context.path, (invoice) => {
      requireStatus(invoice, ['COMPLETED'], 'approve');
      return approval(invoice, context);
    }),
  approveInvoiceDespiteRucRisk: (context) =>
    change(context, context.path, (invoice) => {
      requireStatus(invoice, ['COMPLETED'], 'approve');
      const persona = signedIn(context.persona);
      return {
        ...approval(invoice, context),
        rucRiskOverride: {
          by: persona.user.email,
          at: context.now.toISOString(),
          reason: context.body.reason,
          estadoRuc: 'SUSPENSION TEMPORAL',
          condDomiRuc: 'HABIDO',
        },
      };
    }),
  listInvoiceMessages: (context) => {
    const invoice = findInvoice(context, context.path);
    return {
      items: context.world.messages[conversationKey(context.path)] ?? [],
      observation: invoice.observation ?? null,
      conversation: invoice.conversation ?? null,
    };
  },
  postInvoiceMessage: (context) => postMockMessage(context, context.path, 'MESSAGE'),
  observeInvoice: (context) => postMockMessage(context, context.path, 'OBSERVE'),
  clearInvoiceObservation: (context) => {
    const invoice = findInvoice(context, context.path);
    if (!invoice.observation) throw new ConflictError('ERROR_INVOICE_NOT_OBSERVED');
    Object.assign(
      invoice,
      conversationAfter(
        { observation: invoice.observation, conversation: invoice.conversation ?? null },
        { kind: 'CLEAR' },
      ),
    );
    return {
      items: context.world.messages[conversationKey(context.path)] ?? [],
      observation: null,
      conversation: invoice.conversation ?? null,
    };
  },
  getInvoiceMessageFile: (context) => {
    findInvoice(context, context.path);
    const message = (context.world.messages[conversationKey(context.path)] ?? []).find(
      (each) => each.id === context.path.messageId,
    );
    if (!message) throw new NotFoundError('ERROR_MESSAGE_NOT_FOUND');
    const file = message.attachments[context.query.index];
    if (!file) throw new NotFoundError('ERROR_FILE_NOT_FOUND');
    return {
      url: `${context.filesUrl}/${encodeURIComponent(file.fileName)}`,
      expiresAt: new Date(context.now.getTime() + HOUR_MS / 12).toISOString(),
      fileName: file.fileName,
    };
  },
  countWaitingConversations: (context) => {
    const side = sideOf(signedIn(context.persona).user.level);
    return { count: visibleInvoices(context).filter((invoice) => invoice.conversation?.waitingOn === side).length };
  },
  disapproveInvoice: (context) =>
    change(context, context.path, (invoice) => {
      requireStatus(invoice, ['PENDING', 'COMPLETED'], 'disapprove');
      return {
        status: 'REJECTED',
        statusMessage: context.body.reason,
        disapprovedWithoutRejection: context.query.noRejection,
        statusHistory: [...invoice.statusHistory, historyEntry('REJECTED', context, context.body.reason)],
      };
    }),
  retrySapPosting: (context) =>
    change(context, context.path, (invoice) => {
      if (invoice.sapDocument) {
        throw new ConflictError('ERROR_SAP_POSTING_ALREADY_POSTED', { document: invoice.sapDocument.number });
      }
      requireStatus(invoice, ['ACCEPTED'], 'approve');
      return { sapDocument: approval(invoice, context).sapDocument };
    }),
  requestSunatValidation: (context) =>
    // The simulated SUNAT answers at once: the document is valid.
    change(context, context.path, () => ({ certStatus: 'VALID' })),
  registerAcquirerConformity: (context) =>
    change(context, context.path, (invoice) => ({ acquirerConformity: acquirerAnswer(invoice, context) })),

  getDashboard: (context) => {
    const { client, period } = context.query;
    const [month, year] = period?.split('/') ?? [];
    const invoices = context.world.invoices.filter(
      (invoice) => invoice.client === client && (!period || invoice.issuedAt.startsWith(`${year}-${month}`)),
    );
    // The counters move as the API's do (shared/src/rules/dashboard.ts): each invoice counted as if just written.
    const counts = { ...EMPTY_DASHBOARD };
    for (const invoice of invoices) {
      for (const [counter, by] of Object.entries(dashboardDelta(null, invoice))) {
        counts[counter as keyof typeof counts] += by;
      }
    }
    return { ...counts, latePostings: 0, failedPostings: 0 };
  },

  listEmployees: (context) => {
    const needle = context.query.q?.toLowerCase() ?? '';
    const employees = MOCK_EMPLOYEES[context.query.acquirer] ?? [];
    return { items: employees.filter((employee) => employee.fullName.toLowerCase().includes(needle)) };
  },
  listOfficeLocations: (context) => ({ items: [...(MOCK_OFFICES[context.query.taxId] ?? [])] }),

  listMaterialDocs: (context) => paginate(conformityIn(context.world.materialDocs, context.query), context.query),
  listServiceSheets: (context) => paginate(conformityIn(context.world.serviceSheets, context.query), context.query),
  materialDocAvailability: (context) =>
    availableDocument(context.world.materialDocs, context.path.id, context.query, 'ERROR_MIGO_NOT_FOUND'),
  serviceSheetAvailability: (context) =>
    availableDocument(context.world.serviceSheets, context.path.id, context.query, 'ERROR_HES_NOT_FOUND'),
  suggestConformityDocuments: suggestionsFor,
  purchaseOrderAvailability: (context) => {
    const { id } = context.path;
    const known = [...context.world.serviceSheets, ...context.world.materialDocs].some(
      (document) =>
        document.purchaseOrder === id &&
        document.acquirerTaxId === context.query.acquirer &&
        document.issuerTaxId === context.query.issuer,
    );
    if (!known) throw new NotFoundError('ERROR_PURCHASE_ORDER_NOT_FOUND', { documentId: id });
    return { id, available: true };
  },

  searchSuppliers: (context) => {
    const needle = context.query.query.toLowerCase();
    const found = MOCK_SUPPLIERS.filter(
      (supplier) => supplier.taxId.startsWith(needle) || supplier.name.toLowerCase().includes(needle),
    );
    return paginate(found, context.query);
  },

  listNotifications: (context) => ({ items: notificationsOf(context) }),
  markNotificationsAsRead: (context) => {
    const upTo = context.body.upTo ?? context.now.toISOString();
    const unread = notificationsOf(context).filter(
      (notification) => !notification.isRead && Date.parse(notification.registeredAt) <= Date.parse(upTo),
    );
    unread.forEach((notification) => (notification.isRead = true));
    return { updated: unread.length };
  },

  getNotificationPreferences: (context) => {
    const { audience, byPersona, id } = preferencesOfPersona(context);
    return { items: preferencesView(audience, byPersona.get(id) ?? DEFAULT_PREFERENCES) };
  },
  putNotificationPreferences: (context) => {
    const { audience, byPersona, id } = preferencesOfPersona(context);
    const stored = storedPreferencesOf(audience, context.body);
    if ('reason' in stored) throw new BadRequestError('ERROR_INVALID_PARAMETER', { ...stored });
    byPersona.set(id, stored);
    return { items: preferencesView(audience, stored) };
  },

  createExport: (context) => {
    const persona = signedIn(context.persona);
    const { list, format, filters } = context.body;
    const staffList = list === 'hes' || list === 'migo';
    if ((list === 'suppliers' && persona.user.level !== 'ADMIN') || (staffList && persona.user.level === 'SUPPLIER')) {
      throw new ForbiddenError('ERROR_EXPORT_LIST_NOT_ALLOWED', { list });
    }
    const running = context.world.exports.filter(
      (each) => each.owner === persona.id && (each.job.status === 'QUEUED' || each.job.status === 'RUNNING'),
    );
    if (running.length >= 3) throw new ConflictError('ERROR_TOO_MANY_EXPORTS', { limit: 3 });
    const total =
      list === 'invoices'
        ? filteredInvoices(context, filters as InvoiceFilterQuery).length
        : list === 'suppliers'
          ? null
          : (list === 'hes' ? context.world.serviceSheets : context.world.materialDocs).filter(
              (document) => document.acquirerTaxId === (filters.acquirer ?? context.company),
            ).length;
    const titles = {
      invoices: 'Comprobantes',
      hes: 'Conformidades HES',
      migo: 'Conformidades MIGO',
      suppliers: 'Proveedores',
    };
    const job = {
      id: crypto.randomUUID(),
      list,
      format,
      status: 'QUEUED' as const,
      rows: 0,
      total,
      totalChanged: false,
      progress: total === null ? null : 0,
      fileName: `${titles[list]} ${context.now.toISOString().slice(0, 10)}.${format}`,
      url: null,
      createdAt: context.now.toISOString(),
      finishedAt: null,
      resumedAt: null,
    };
    context.world.exports.push({ owner: persona.id, job });
    return job;
  },
  createIntakeBatch: (context) => {
    const persona = signedIn(context.persona);
    const owned = context.world.intakeBatches.filter((each) => each.owner === persona.id);
    if (owned.filter((each) => each.batch.status === 'QUEUED' || each.batch.status === 'PROCESSING').length >= 3) {
      throw new ConflictError('ERROR_TOO_MANY_INTAKE_BATCHES', { limit: 3 });
    }
    const company = context.company ?? MOCK_SUPPLIERS[0]!.taxId;
    const fileName = context.body.url.split('/').pop()?.replace(/^\d+-/, '') || 'comprobantes.zip';
    const now = context.now.toISOString();
    const results = mockIntakeResults(context.world.invoices, company, context.now);
    const batch: IntakeBatchSummary = {
      id: crypto.randomUUID(),
      status: 'QUEUED',
      fileName,
      company,
      counts: { total: null, processed: 0, accepted: 0, alreadyExisting: 0, refused: 0 },
      progress: null,
      error: null,
      createdAt: now,
      finishedAt: null,
      resumedAt: null,
    };
    context.world.intakeBatches.unshift({ owner: persona.id, batch, results, revealed: 0 });
    return batch;
  },
  getIntakeBatch: (context) => {
    const persona = signedIn(context.persona);
    const found = context.world.intakeBatches.find(
      (each) => each.batch.id === context.path.batchId && (each.owner === persona.id || persona.user.level === 'ADMIN'),
    );
    if (!found) throw new NotFoundError('ERROR_INTAKE_BATCH_NOT_FOUND');
    // Each read moves the batch on: the zip opened, then a third of the documents at a time, then done.
    const total = found.results.length;
    if (found.batch.status === 'QUEUED') {
      found.batch = { ...found.batch, status: 'PROCESSING', counts: { ...found.batch.counts, total }, progress: 0 };
    } else if (found.batch.status === 'PROCESSING') {
      found.revealed = Math.min(total, found.revealed + Math.ceil(total / 3));
      const shown = found.results.slice(0, found.revealed);
      const count = (outcome: IntakeDocumentResult['outcome']) => shown.filter((r) => r.outcome === outcome).length;
      const done = found.revealed >= total;
      found.batch = {
        ...found.batch,
        status: done ? 'DONE' : 'PROCESSING',
        counts: {
          total,
          processed: shown.length,
          accepted: count('ACCEPTED'),
          alreadyExisting: count('ALREADY_EXISTS'),
          refused: count('REFUSED'),
        },
        progress: total === 0 ? 0 : shown.length / total,
        finishedAt: done ? context.now.toISOString() : null,
      };
    }
    return { ...found.batch, results: paginate(found.results.slice(0, found.revealed), context.query) };
  },
  listIntakeBatches: (context) => {
    const persona = signedIn(context.persona);
    return {
      items: context.world.intakeBatches.filter((each) => each.owner === persona.id).map((each) => each.batch),
    };
  },
  getExport: (context) => {
    const persona = signedIn(context.persona);
    const found = context.world.exports.find(
      (each) => each.owner === persona.id && each.job.id === context.path.exportId,
    );
    if (!found) throw new NotFoundError('ERROR_EXPORT_NOT_FOUND');
    // Each read moves the export on: queued, then a third of the rows at a time, then ready.
    const { job } = found;
    if (job.status === 'QUEUED' || job.status === 'RUNNING') {
      const total = job.total ?? context.world.externalUsers.length;
      const rows = job.status === 'QUEUED' ? 0 : Math.min(total, job.rows + Math.ceil(total / 3));
      const ready = job.status === 'RUNNING' && rows >= total;
      found.job = {
        ...job,
        status: ready ? 'READY' : 'RUNNING',
        rows,
        progress: ready ? 1 : job.total === null ? null : total === 0 ? 0 : rows / total,
        finishedAt: ready ? context.now.toISOString() : null,
      };
    }
    const url = found.job.status === 'READY' ? `${context.filesUrl}/${encodeURIComponent(found.job.fileName)}` : null;
    return { ...found.job, url };
  },
  listExternalUsers: (context) => {
    const needle = context.query.query?.toLowerCase() ?? '';
    const found = context.world.externalUsers.filter(
      (user) =>
        user.email.startsWith(needle) ||
        (user.taxId ?? '').startsWith(needle) ||
        (user.companyName ?? '').toLowerCase().startsWith(needle),
    );
    return paginate(found, context.query);
  },
  createExternalUser: (context) => {
    const { body } = context;
    if (context.world.externalUsers.some((user) => user.email === body.email)) {
      throw new ConflictError('ERROR_USER_ALREADY_EXISTS');
    }
    const user = {
      id: `ext-${body.taxId}-${context.world.externalUsers.length + 1}`,
      taxId: body.taxId,
      firstName: body.firstName,
      lastName: body.lastName,
      role: 'SUPPLIER' as const,
      companyName: body.businessName,
      email: body.email,
      enabled: true,
      status: 'FORCE_CHANGE_PASSWORD',
      createdAt: context.now.toISOString(),
      canReceiveEmails: body.canReceiveEmails,
    };
    context.world.externalUsers.unshift(user);
    return { ...user, invitationSent: true };
  },
  resetExternalUserPassword: (context) => {
    const user = findUser(context.world.externalUsers, context.path.userId);
    return user.status === 'FORCE_CHANGE_PASSWORD'
      ? { delivery: 'INVITATION', message: `Se reenvió la invitación a ${user.email}.` }
      : { delivery: 'RESET_CODE', message: `Se envió a ${user.email} el correo para restablecer su contraseña.` };
  },
  disableExternalUser: (context) =>
    Object.assign(findUser(context.world.externalUsers, context.path.userId), { enabled: false }),
  enableExternalUser: (context) =>
    Object.assign(findUser(context.world.externalUsers, context.path.userId), { enabled: true }),
  whitelistNotifications: (context) =>
    Object.assign(findUser(context.world.externalUsers, context.path.userId), {
      canReceiveEmails: context.query.include,
    }),
  whitelistNotificationsBulk: (context) => ({
    results: context.body.userIds.map((userId) => {
      const user = context.world.externalUsers.find((each) => each.id === userId);
      if (!user)
        return { userId, ok: false, error: { code: 'ERROR_USER_NOT_FOUND', message: 'Usuario no encontrado.' } };
      user.canReceiveEmails = context.query.include;
      return { userId, ok: true };
    }),
  }),

  listInternalUsers: (context) => paginate(context.world.internalUsers, context.query),
  assignClientToInternalUser: (context) => {
    const user = findUser(context.world.internalUsers, context.path.userId);
    const companies = new Set([...parseTaxIds(user.taxId), context.query.client]);
    return Object.assign(user, { taxId: [...companies].join(',') });
  },
  unassignClientFromInternalUser: (context) => {
    const user = findUser(context.world.internalUsers, context.path.userId);
    const companies = parseTaxIds(user.taxId).filter((taxId) => taxId !== context.query.client);
    return Object.assign(user, { taxId: companies.length > 0 ? companies.join(',') : null });
  },
  listAuditEvents: (context) => {
    const { userId } = context.query;
    return paginate(
      context.world.auditEvents.filter((event) => !userId || event.target.userId === userId),
      context.query,
    );
  },

  listApiClients: (context) => ({ items: context.world.apiClients }),
  createApiClient: (context) => {
    const supplier = MOCK_SUPPLIERS.find((each) => each.taxId === context.body.taxId);
    if (!supplier) throw new NotFoundError('ERROR_API_CLIENT_UNKNOWN_SUPPLIER', { ruc: context.body.taxId });
    const client = {
      clientId: `mock${String(context.world.apiClients.length + 1).padStart(22, '0')}`,
      name: context.body.name,
      taxId: supplier.taxId,
      supplierName: supplier.name,
      scopes: [...new Set(context.body.scopes)],
      createdAt: context.now.toISOString(),
      createdBy: signedIn(context.persona).user.email,
      revokedAt: null,
      revokedBy: null,
    };
    context.world.apiClients.unshift(client);
    return {
      ...client,
      clientSecret: 'secreto-de-demostracion-que-solo-se-muestra-una-vez',
      tokenUrl: 'https://auth.proveedores.example.pe/oauth2/token',
    };
  },
  revokeApiClient: (context) => {
    const client = context.world.apiClients.find((each) => each.clientId === context.path.clientId);
    if (!client) throw new NotFoundError('ERROR_API_CLIENT_NOT_FOUND');
    if (client.revokedAt !== null) throw new ConflictError('ERROR_API_CLIENT_ALREADY_REVOKED');
    return Object.assign(client, {
      revokedAt: context.now.toISOString(),
      revokedBy: signedIn(context.persona).user.email,
    });
  },
};

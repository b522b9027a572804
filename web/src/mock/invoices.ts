import {
  TEXT_LIMITS,
  cleanMessageText,
  conversationAfter,
  messageIdOf,
  sideOf,
  type InvoiceMessage,
  BadRequestError,
  ConflictError,
  NotFoundError,
  parseTaxIds,
  type AcquirerConformity,
  type Invoice,
  type InvoiceDetail,
  type InvoiceAuditAction,
  type InvoiceAuditEvent,
  type InvoiceStatus,
  type RouteBody,
  type RouteDef,
  type RoutePath,
  type RouteQuery,
  type Routes,
  type StatusHistoryEntry,
  INVOICE_STATUS_LABELS,
} from '@portal/shared';
import { MOCK_CLIENTS, MOCK_OFFICES, MOCK_SUPPLIERS } from './directory';
import { HOUR_MS, signedIn, type MockContext } from './context';

/** A supplier sees what it issued; staff see the invoices of the company they act for (or of `client`). */
export function visibleInvoices(context: MockContext<RouteDef>): Invoice[] {
  const persona = signedIn(context.persona);
  const own = parseTaxIds(persona.user.taxId);
  if (persona.user.level === 'SUPPLIER') return context.world.invoices.filter((i) => own.includes(i.supplierId));
  if (persona.user.level === 'ADMIN') return context.world.invoices;
  return context.world.invoices.filter((invoice) => own.includes(invoice.client));
}

export type InvoiceFilterQuery = RouteQuery<Routes['countInvoices']>;

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

export function filteredInvoices(context: MockContext<RouteDef>, filter: InvoiceFilterQuery): Invoice[] {
  const supplier = signedIn(context.persona).user.level === 'SUPPLIER';
  return visibleInvoices(context).filter((invoice) => matchesFilter(invoice, filter, context.company, supplier));
}

export type InvoiceKey = RoutePath<Routes['getInvoice']>;

export function findInvoice(context: MockContext<RouteDef>, key: InvoiceKey): Invoice {
  const invoice = visibleInvoices(context).find(
    (each) => each.supplierId === key.supplierId && each.type === key.invoiceType && each.id === key.invoiceId,
  );
  // Another tenant's invoice answers 404 as a missing one, as the API does.
  if (!invoice) throw new NotFoundError('ERROR_INVOICE_NOT_FOUND', { invoiceId: key.invoiceId });
  return invoice;
}

export function detailOf(invoice: Invoice): InvoiceDetail {
  const location = MOCK_OFFICES[invoice.client]?.find((office) => office.id === invoice.locationId) ?? null;
  return { ...invoice, officeLocation: location };
}

export function historyEntry(status: InvoiceStatus, context: MockContext<RouteDef>, message: string | null) {
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
export function trailOf(invoice: Invoice): InvoiceAuditEvent[] {
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
export function change(
  context: MockContext<RouteDef>,
  key: InvoiceKey,
  update: (invoice: Invoice) => Partial<Invoice>,
) {
  const invoice = findInvoice(context, key);
  Object.assign(invoice, update(invoice));
  return detailOf(invoice);
}

export const conversationKey = (key: InvoiceKey) => `${key.supplierId}#${key.invoiceType}#${key.invoiceId}`;

/** A message posted in the mock as the API posts it: cleaned text, the side's mark and summary moved. */
export function postMockMessage(
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

export function requireStatus(invoice: Invoice, allowed: readonly InvoiceStatus[], code: 'approve' | 'disapprove') {
  if (allowed.includes(invoice.status)) return;
  throw new ConflictError(
    code === 'approve'
      ? 'ERROR_APPROVE_INVOICE_WITHOUT_COMPLETED_STATUS'
      : 'ERROR_DISAPPROVE_INVOICE_WITHOUT_PENDING_OR_COMPLETED_STATUS',
  );
}

export function approval(invoice: Invoice, context: MockContext<RouteDef>): Partial<Invoice> {
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

/**
 * What an invoice just received has not yet: no responsible, office, documents, schedule, files or notes
 * (new arrays each time, so that no two invoices share one).
 */
export function unreviewedInvoice() {
  return {
    responsible: null,
    officeId: null,
    locationId: null,
    operationType: null,
    serviceSheets: [],
    materialDocs: [],
    purchaseOrders: [],
    attachments: [],
    scheduledAt: null,
    paidAt: null,
    xmlUrl: null,
    pdfUrl: null,
    disapprovedWithoutRejection: false,
    notes: null,
  } satisfies Partial<Invoice>;
}

/** A new invoice received now, PENDING while SUNAT has not answered. */
export function received(
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
    ...unreviewedInvoice(),
    taxAmount: Math.round((fields.amount / 1.18) * 18) / 100,
    issuedAt: receivedAt.slice(0, 10),
    receivedAt,
    statusHistory: [
      { status: 'PENDING', title: INVOICE_STATUS_LABELS.PENDING, additionalMessage: null, date: receivedAt, by: null },
    ],
    ...fields,
  };
  context.world.invoices.unshift(invoice);
  return invoice;
}

/** The supplier the caller registers for: its own RUC, or (an administrator) the one the document names. */
export function issuerFor(context: MockContext<RouteDef>, named?: string): string {
  const persona = signedIn(context.persona);
  if (persona.user.level === 'SUPPLIER') return parseTaxIds(persona.user.taxId)[0] ?? '';
  return named ?? MOCK_SUPPLIERS[0]!.taxId;
}

export function acquirerAnswer(
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

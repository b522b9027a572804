import * as z from 'zod/mini';
import { Level } from '../domain.js';
import { IsoDateTime, PageQuery } from './common.js';
import { Invoice } from './invoices.js';
import { isStaffOnlyAt, staffOnly, supplierView } from './visibility.js';

// The invoice's audit trail: one record per change, append-only, with the before and after of every
// field the change touched, who made it (name, role, how they signed in), when, and from which call (txId).

export const INVOICE_AUDIT_ACTIONS = [
  'SUBMITTED',
  'RESUBMITTED',
  'EDITED',
  'COMPLETED',
  'APPROVED',
  'APPROVED_DESPITE_RUC_RISK',
  'REJECTED',
  'DISAPPROVED',
  'SAP_POSTING_RETRIED',
  'SAP_POSTED',
  'SAP_POSTING_FAILED',
  'SUNAT_CHECKED',
  'SUNAT_RECHECK_REQUESTED',
  'PAYMENT_SYNCED',
  'ACQUIRER_ANSWER_REGISTERED',
  'PRESUMED_CONFORMITY',
  'NOTE_APPLIED',
  'MESSAGE_POSTED',
  'OBSERVED',
  'OBSERVATION_CLEARED',
] as const;
export const InvoiceAuditAction = z.enum(INVOICE_AUDIT_ACTIONS);
export type InvoiceAuditAction = z.infer<typeof InvoiceAuditAction>;

export const INVOICE_AUDIT_ACTION_LABELS: Record<InvoiceAuditAction, string> = {
  SUBMITTED: 'Comprobante registrado',
  RESUBMITTED: 'Comprobante enviado nuevamente',
  EDITED: 'Datos editados',
  COMPLETED: 'Datos completados',
  APPROVED: 'Aprobación',
  APPROVED_DESPITE_RUC_RISK: 'Aprobación pese al riesgo del RUC',
  REJECTED: 'Rechazo',
  DISAPPROVED: 'Desaprobación sin rechazo',
  SAP_POSTING_RETRIED: 'Reintento de contabilización en SAP',
  SAP_POSTED: 'Contabilizado en SAP (MIRO)',
  SAP_POSTING_FAILED: 'Contabilización en SAP fallida',
  SUNAT_CHECKED: 'Consulta a SUNAT',
  SUNAT_RECHECK_REQUESTED: 'Nueva consulta a SUNAT solicitada',
  PAYMENT_SYNCED: 'Pago registrado desde SAP',
  ACQUIRER_ANSWER_REGISTERED: 'Conformidad del adquirente registrada',
  PRESUMED_CONFORMITY: 'Conformidad presunta (Ley 29623)',
  NOTE_APPLIED: 'Nota aplicada al comprobante',
  MESSAGE_POSTED: 'Mensaje',
  OBSERVED: 'Marcado como observado',
  OBSERVATION_CLEARED: 'Observación levantada',
};

/**
 * How the author signed in: the portal's password, the corporate SSO, a document sent by e-mail from the supplier's
 * registered address, a supplier's system with its API client, or no one (a worker or a scheduled job).
 */
export const SIGN_IN_METHODS = ['PASSWORD', 'CORPORATE', 'EMAIL', 'API', 'SYSTEM'] as const;
export const SignInMethod = z.enum(SIGN_IN_METHODS);
export type SignInMethod = z.infer<typeof SignInMethod>;

export const SIGN_IN_METHOD_LABELS: Record<SignInMethod, string> = {
  PASSWORD: 'Contraseña del portal',
  CORPORATE: 'Cuenta corporativa (SSO)',
  EMAIL: 'Correo electrónico',
  API: 'Cliente de API',
  SYSTEM: 'Proceso automático',
};

export const InvoiceAuditActor = z.object({
  /** The account (Cognito Username), or the process for SYSTEM. */
  id: staffOnly(z.string()),
  name: z.string(),
  email: staffOnly(z.nullable(z.string())),
  /** The session level; null for a process. */
  role: z.nullable(Level),
  signIn: SignInMethod,
});
export type InvoiceAuditActor = z.infer<typeof InvoiceAuditActor>;

/** A field's value as the trail keeps it: text, a number, a yes/no, a list of codes or files, or nothing. */
export const InvoiceAuditValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()]);
export type InvoiceAuditValue = z.infer<typeof InvoiceAuditValue>;

export const InvoiceAuditChange = z.object({
  field: z.string(),
  before: InvoiceAuditValue,
  after: InvoiceAuditValue,
});
export type InvoiceAuditChange = z.infer<typeof InvoiceAuditChange>;

/**
 * What of the trail is the group's own: the portal's SAP and SUNAT retries, and why an administrator approved despite
 * the RUC's risk. A supplier reads that approval as an approval.
 */
export const STAFF_ONLY_AUDIT_ACTIONS: readonly InvoiceAuditAction[] = [
  'SAP_POSTING_RETRIED',
  'SAP_POSTING_FAILED',
  'SUNAT_RECHECK_REQUESTED',
];

/**
 * One record of the trail. A supplier reads it without the changes of a staff-only field (STAFF_ONLY_AUDIT_FIELDS),
 * and not at all when it held nothing else or its action is staff-only: an empty record would still tell that
 * something was found.
 */
export const InvoiceAuditEvent = supplierView(
  z.object({
    id: z.string(),
    occurredAt: IsoDateTime,
    action: InvoiceAuditAction,
    actor: InvoiceAuditActor,
    /** Every audited field the change touched; a creation has `before` null on each. */
    changes: z.array(InvoiceAuditChange),
    /** What the author wrote with it (a rejection's reason, a message's text), as plain text. */
    note: z.nullable(z.string()),
    /** The call that made it (the API's x-request-id). */
    txId: staffOnly(z.string()),
  }),
  (event) => {
    if (STAFF_ONLY_AUDIT_ACTIONS.includes(event.action)) return undefined;
    const hidden = new Set<string>(STAFF_ONLY_AUDIT_FIELDS);
    const changes = event.changes.filter((change) => !hidden.has(change.field));
    if (changes.length === 0 && event.changes.length > 0) return undefined;
    if (event.action === 'APPROVED_DESPITE_RUC_RISK')
      return { ...event, action: 'APPROVED' as const, changes, note: null };
    return changes.length === event.changes.length ? event : { ...event, changes };
  },
);
export type InvoiceAuditEvent = z.infer<typeof InvoiceAuditEvent>;

/** GET …/history: the trail, oldest first, a page at a time. */
export const InvoiceHistoryQuery = PageQuery;

// ---------------------------------------------------------------------------------------------------------------
// The audited fields and how each is kept

const fileName = (key: string | null | undefined) => (key ? (key.split('/').pop() ?? key) : null);

/**
 * The fields the trail follows, each reduced to what a reader compares: an employee by name, a file by its name,
 * SUNAT's answer by its state, the payment by its method and net. The statusHistory and index attributes are not
 * fields of their own: the status is.
 */
export const INVOICE_AUDIT_FIELDS = {
  status: (invoice) => invoice.status,
  certStatus: (invoice) => invoice.certStatus,
  statusMessage: (invoice) => invoice.statusMessage,
  responsible: (invoice) => invoice.responsible?.fullName ?? null,
  officeId: (invoice) => invoice.officeId,
  locationId: (invoice) => invoice.locationId,
  operationType: (invoice) => invoice.operationType,
  currency: (invoice) => invoice.currency,
  amount: (invoice) => invoice.amount,
  taxAmount: (invoice) => invoice.taxAmount,
  issuedAt: (invoice) => invoice.issuedAt,
  receivedAt: (invoice) => invoice.receivedAt,
  purchaseOrders: (invoice) => [...invoice.purchaseOrders],
  serviceSheets: (invoice) => [...invoice.serviceSheets],
  materialDocs: (invoice) => [...invoice.materialDocs],
  attachments: (invoice) => invoice.attachments.map((key) => fileName(key)!),
  xmlUrl: (invoice) => fileName(invoice.xmlUrl),
  pdfUrl: (invoice) => fileName(invoice.pdfUrl),
  notes: (invoice) => invoice.notes,
  scheduledAt: (invoice) => invoice.scheduledAt,
  paidAt: (invoice) => invoice.paidAt,
  sapDocument: (invoice) =>
    invoice.sapDocument ? `${invoice.sapDocument.number}/${invoice.sapDocument.fiscalYear}` : null,
  sunat: (invoice) => invoice.sunat?.estadoCp ?? null,
  amountToPay: (invoice) => invoice.amountToPay ?? null,
  paymentMethod: (invoice) => invoice.payment?.method ?? null,
  netToPay: (invoice) => invoice.payment?.netToPay ?? null,
  remittance: (invoice) => invoice.remittance?.document ?? null,
  rucRiskOverride: (invoice) => invoice.rucRiskOverride?.reason ?? null,
  acquirerConformity: (invoice) => invoice.acquirerConformity?.state ?? null,
  // The "Observada" mark, by what it asks (a message's own text is the record's note).
  observation: (invoice) => invoice.observation?.reason ?? null,
  // The CDR the supplier sent, by its verdict, and whether staff were told it contradicts SUNAT.
  supplierCdr: (invoice) => invoice.supplierCdr?.responseCode ?? null,
  cdrContradiction: (invoice) => (invoice.supplierCdr?.contradiction ? 'Sí' : null),
} satisfies Record<string, (invoice: Invoice) => InvoiceAuditValue>;
export type InvoiceAuditField = keyof typeof INVOICE_AUDIT_FIELDS;

/** The attribute of the invoice a field records, where it is not the field's own name. */
const AUDIT_FIELD_SOURCES: Partial<Record<InvoiceAuditField, readonly string[]>> = {
  sunat: ['sunat', 'estadoCp'],
  paymentMethod: ['payment', 'method'],
  netToPay: ['payment', 'netToPay'],
  remittance: ['remittance', 'document'],
  acquirerConformity: ['acquirerConformity', 'state'],
  observation: ['observation', 'reason'],
  supplierCdr: ['supplierCdr', 'responseCode'],
  cdrContradiction: ['supplierCdr', 'contradiction'],
};

/** The audited fields that record a staff-only attribute of the invoice (as the invoice's schema declares them). */
export const STAFF_ONLY_AUDIT_FIELDS: readonly InvoiceAuditField[] = (
  Object.keys(INVOICE_AUDIT_FIELDS) as InvoiceAuditField[]
).filter((field) => isStaffOnlyAt(Invoice, AUDIT_FIELD_SOURCES[field] ?? [field]));

export const INVOICE_AUDIT_FIELD_LABELS: Record<InvoiceAuditField, string> = {
  status: 'Estado',
  certStatus: 'Validación SUNAT',
  statusMessage: 'Mensaje de estado',
  responsible: 'Responsable',
  officeId: 'Oficina',
  locationId: 'Sede',
  operationType: 'Tipo de operación',
  currency: 'Moneda',
  amount: 'Monto',
  taxAmount: 'IGV',
  issuedAt: 'Fecha de emisión',
  receivedAt: 'Recibido',
  purchaseOrders: 'Órdenes de compra',
  serviceSheets: 'HES',
  materialDocs: 'MIGO',
  attachments: 'Adjuntos',
  xmlUrl: 'XML',
  pdfUrl: 'PDF',
  notes: 'Notas',
  scheduledAt: 'Fecha de pago programada',
  paidAt: 'Fecha de pago',
  sapDocument: 'Documento MIRO',
  sunat: 'Estado en SUNAT',
  amountToPay: 'Importe a pagar',
  paymentMethod: 'Forma de pago',
  netToPay: 'Neto a pagar',
  remittance: 'Documento de pago SAP',
  rucRiskOverride: 'Aprobación pese al riesgo del RUC',
  acquirerConformity: 'Conformidad (Ley 29623)',
  observation: 'Observación',
  supplierCdr: 'Constancia de recepción (CDR)',
  cdrContradiction: 'CDR contradice a SUNAT',
};

const same = (a: InvoiceAuditValue, b: InvoiceAuditValue) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The fields a change touched, before and after, in the order of INVOICE_AUDIT_FIELDS. From nothing (`before`
 * null, a new invoice) every field that holds something is a change.
 */
export function invoiceChanges(before: Invoice | null, after: Invoice): InvoiceAuditChange[] {
  const changes: InvoiceAuditChange[] = [];
  for (const [field, read] of Object.entries(INVOICE_AUDIT_FIELDS) as [
    InvoiceAuditField,
    (i: Invoice) => InvoiceAuditValue,
  ][]) {
    const was = before ? read(before) : null;
    const is = read(after);
    const empty = is === null || (Array.isArray(is) && is.length === 0);
    if (before ? !same(was, is) : !empty) changes.push({ field, before: was, after: is });
  }
  return changes;
}

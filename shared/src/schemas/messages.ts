import * as z from 'zod/mini';
import { invoiceRefFields } from '../invoice-ref.js';
import { IsoDate, Ruc } from './common.js';

/** What the MIRO queue carries: the invoice whose outbox record the worker must post to SAP. */
export const MiroRequestMessage = z.object({
  ...invoiceRefFields,
  /** The outbox record's key: also the idempotency key of the SAP posting. */
  outboxKey: z.string(),
});
export type MiroRequestMessage = z.infer<typeof MiroRequestMessage>;

/** What the SUNAT queue carries: the invoice whose validity must be asked to SUNAT. */
export const SunatValidationMessage = z.object({
  ...invoiceRefFields,
  /**
   * The channel that brought the document in a group (a zip, an e-mail): SUNAT's confirmation of a grouped document is
   * told to its supplier by the group's one summary and the list, not by a feed item per document. Absent: a document
   * sent alone, or a check sent again after SUNAT failed to answer (a late verdict is told on its own).
   */
  channel: z.optional(z.enum(['ZIP', 'EMAIL'])),
});
export type SunatValidationMessage = z.infer<typeof SunatValidationMessage>;

export const NOTIFICATION_EVENTS = [
  'INVOICE_RECEIVED',
  'SUNAT_VALID',
  'SUNAT_INVALID',
  'INVOICE_APPROVED',
  'INVOICE_REJECTED',
  'PAYMENT_SCHEDULED',
  'INVOICE_PAID',
  'MIRO_FAILED',
  // The Ley 29623 conformity clock (rules/acquirer-conformity.ts).
  'ACQUIRER_CONFORMITY_DUE_SOON',
  'ACQUIRER_CONFORMITY_DUE_TODAY',
  'ACQUIRER_CONFORMITY_PRESUMED',
  'ACQUIRER_CONFORMITY_REGISTERED',
  'ACQUIRER_DISCONFORMITY_REGISTERED',
  // Messages on an invoice (rules/conversations.ts): the other side is told.
  'INVOICE_OBSERVED',
  'INVOICE_MESSAGE_FROM_STAFF',
  'INVOICE_MESSAGE_FROM_SUPPLIER',
  // The CDR the supplier sent contradicts SUNAT's check or the invoice (rules/cdr.ts); staff are told.
  'CDR_CONTRADICTION',
] as const;
export const NotificationEvent = z.enum(NOTIFICATION_EVENTS);
export type NotificationEvent = z.infer<typeof NotificationEvent>;

/**
 * What the notifications queue carries: one event about one invoice. The notifications worker writes
 * it to the feeds of the supplier and of the company, and e-mails the users whose reception is on.
 */
export const NotificationMessage = z.object({
  event: NotificationEvent,
  supplierId: invoiceRefFields.supplierId,
  supplierName: z.string(),
  client: Ruc,
  clientName: z.string(),
  // The fields in their order of old: the message's JSON stays as it was.
  invoiceType: invoiceRefFields.invoiceType,
  invoiceId: invoiceRefFields.invoiceId,
  /** Event details shown to people: the rejection reason, SUNAT's observation, the payment date. */
  detail: z.nullable(z.string()),
  occurredAt: z.iso.datetime({ offset: true }),
  /**
   * INVOICE_REJECTED: whether the rejection lets the supplier send the same document again (noRejection).
   * Absent in messages committed before the field was; the text then says neither.
   */
  retryAllowed: z.optional(z.boolean()),
  /** When the portal expects to pay the invoice (docs/ap-payment.md), said with its reception and approval. */
  expectedPaymentDate: z.optional(z.nullable(IsoDate)),
  /** INVOICE_PAID: SAP's payment document and method (the remittance). */
  remittance: z.optional(z.nullable(z.object({ document: z.string(), methodName: z.string() }))),
  /**
   * ACQUIRER_CONFORMITY_DUE_*: the invoice's responsible employee (its id at the company), whom the reminder's e-mail
   * goes to; absent or null, the company's staff are e-mailed.
   */
  responsibleId: z.optional(z.nullable(z.string())),
  /**
   * INVOICE_RECEIVED or SUNAT_VALID of a document that came in a zip or an e-mail: that channel's own answer (the
   * batch's summary, the reply to the e-mail) tells the supplier what was received, so its users get no feed item or
   * e-mail per document (docs/adr/0050-quiet-notifications.md). Absent: 'Cargar XML', the API, or a message committed
   * before channels were told apart.
   */
  channel: z.optional(z.enum(['ZIP', 'EMAIL'])),
});
export type NotificationMessage = z.infer<typeof NotificationMessage>;

import * as z from 'zod/mini';
import { staffOnly } from './visibility.js';
import { CertStatus, Currency, InvoiceStatus, InvoiceType, OperationType } from '../domain.js';
import { invoiceRefFields } from '../invoice-ref.js';
import { TEXT_LIMITS, COUNT_LIMITS } from '../limits.js';
import {
  IsoDate,
  IsoDateTime,
  IssueDate,
  Money,
  PageQuery,
  QueryBoolean,
  RequestMoney,
  Ruc,
  commaList,
} from './common.js';
import { InvoiceBreakdown } from './invoice-breakdown.js';
import { Employee, OfficeLocation } from './reference.js';
import { DetractionInput, InvoicePayment, PaymentTermsInput, Remittance } from './payment.js';
import { SapPosting } from './sap-posting.js';
import { SunatCheck } from './sunat-check.js';
import { NOTE_ORIGINAL_TYPES } from '../sunat/note-and-ruc-codes.js';
import { AcquirerConformity, AcquirerConformityFilter } from './acquirer-conformity.js';
import { ConversationSummary, InvoiceObservation } from './conversations.js';
import { SupplierCdr } from './supplier-cdr.js';

// Invoices (spec §3) and the requests that list, create and review them.

export const StatusHistoryEntry = z.object({
  status: InvoiceStatus,
  title: z.string(),
  additionalMessage: z.nullable(z.string()),
  date: IsoDateTime,
  /** Who made the change (an e-mail). */
  by: staffOnly(z.nullable(z.string())),
});
export type StatusHistoryEntry = z.infer<typeof StatusHistoryEntry>;

/** The document a note modifies (cac:BillingReference/cac:InvoiceDocumentReference): type, series and number. */
export const BillingReference = z.object({
  type: z.enum(NOTE_ORIGINAL_TYPES),
  prefixId: z.string(),
  numericId: z.string(),
  /** SERIE-NÚMERO as the portal keys invoices (the correlative without leading zeros). */
  id: z.string(),
});
export type BillingReference = z.infer<typeof BillingReference>;

/** A note's reason (cac:DiscrepancyResponse): SUNAT's catálogo 09/10 code and label, and the issuer's words. */
export const NoteReason = z.object({
  code: z.string(),
  label: z.string(),
  description: z.nullable(z.string()),
});
export type NoteReason = z.infer<typeof NoteReason>;

/** What an original's accepted notes credit and debit. */
export const NoteAdjustments = z.object({ credited: Money, debited: Money });
export type NoteAdjustments = z.infer<typeof NoteAdjustments>;

/** An administrator's approval despite the RUC risk: who, when, why, and what SUNAT said of the RUC then. */
export const RucRiskOverride = z.object({
  by: z.string(),
  at: IsoDateTime,
  reason: z.string(),
  estadoRuc: z.nullable(z.string()),
  condDomiRuc: z.nullable(z.string()),
});
export type RucRiskOverride = z.infer<typeof RucRiskOverride>;

/** The invoice of spec §3. */
export const Invoice = z.object({
  id: z.string(),
  prefixId: z.string(),
  numericId: z.string(),
  type: InvoiceType,
  status: InvoiceStatus,
  statusMessage: z.nullable(z.string()),
  certStatus: CertStatus,
  approved: z.boolean(),
  supplierId: Ruc,
  supplierName: z.string(),
  client: Ruc,
  clientName: z.string(),
  responsible: z.nullable(Employee),
  officeId: z.nullable(z.string()),
  locationId: z.nullable(z.string()),
  operationType: z.nullable(OperationType),
  currency: Currency,
  amount: Money,
  taxAmount: Money,
  serviceSheets: z.array(z.string()),
  materialDocs: z.array(z.string()),
  purchaseOrders: z.array(z.string()),
  attachments: z.array(z.string()),
  issuedAt: IsoDate,
  /** When the portal received it (its latest submission): every listing is newest received first. */
  receivedAt: IsoDateTime,
  scheduledAt: z.nullable(IsoDate),
  paidAt: z.nullable(IsoDate),
  xmlUrl: z.nullable(z.string()),
  pdfUrl: z.nullable(z.string()),
  disapprovedWithoutRejection: z.boolean(),
  notes: z.nullable(z.string()),
  statusHistory: z.array(StatusHistoryEntry),
  /** When it was approved (ACCEPTED): the list marks a posting not done soon after as late. */
  approvedAt: z.optional(z.nullable(IsoDateTime)),
  /** The MIRO posted in SAP for the approved invoice; absent until the MIRO worker posts it. */
  sapDocument: staffOnly(z.nullable(z.object({ number: z.string(), fiscalYear: z.string() }))),
  /** SUNAT's answer about the document (estadoRuc and condDomiRuc as SUNAT's labels); absent until asked. */
  sunat: z.optional(
    z.nullable(
      z.object({
        estadoCp: z.string(),
        estadoRuc: z.nullable(z.string()),
        condDomiRuc: z.nullable(z.string()),
        observaciones: z.array(z.string()),
        checkedAt: IsoDateTime,
      }),
    ),
  ),
  /**
   * What the XML says beyond the total: taxes by scheme, discounts, charges, anticipos, transferencia gratuita,
   * operation type (docs/ap-documents.md). Absent or null for an invoice typed in the form or stored before.
   */
  breakdown: z.optional(z.nullable(InvoiceBreakdown)),
  // Notes tied to their original (docs/ap-notes-and-risk.md); absent on documents that are not notes.
  /** A note's original (cac:BillingReference): its type, series and number. */
  billingReference: z.optional(z.nullable(BillingReference)),
  /** A note's SUNAT reason: catálogo 09 (credit) or 10 (debit) code and label, and the issuer's description. */
  noteReason: z.optional(z.nullable(NoteReason)),
  /** A note whose original is in the portal (false: issued before the portal, marked for the manager). */
  originalInPortal: z.optional(z.boolean()),
  /** An original's accepted notes: what they credit and debit (absent: none). */
  noteAdjustments: z.optional(z.nullable(NoteAdjustments)),
  /** An original's amount to pay: amount − accepted credit notes + accepted debit notes (absent: the amount). */
  amountToPay: z.optional(z.nullable(Money)),
  // The RUC risk gate.
  /** Approved by an administrator although SUNAT did not report the supplier ACTIVO and HABIDO. */
  rucRiskOverride: staffOnly(z.nullable(RucRiskOverride)),
  /**
   * Forma de pago, cuotas, detracción, retención, net to pay, due and expected payment dates (docs/ap-payment.md).
   * Absent on invoices stored before it was kept.
   */
  payment: z.optional(z.nullable(InvoicePayment)),
  /** SAP's payment once paid (the payment sync): document, date and method. */
  remittance: z.optional(z.nullable(Remittance)),
  /** The Ley 29623 conformity clock (schemas/acquirer-conformity.ts); absent or null when it does not apply. */
  acquirerConformity: z.optional(z.nullable(AcquirerConformity)),
  // Messages on an invoice (schemas/conversations.ts).
  /** Staff marked it "Observada" (not a status: a flag beside it); absent or null when not observed. */
  observation: z.optional(z.nullable(InvoiceObservation)),
  /** The conversation's summary: messages, the last one's side and time, whom it waits on. */
  conversation: z.optional(z.nullable(ConversationSummary)),
  /** SUNAT's CDR as the supplier sent it with the document; absent when none came. */
  supplierCdr: z.optional(z.nullable(SupplierCdr)),
});
export type Invoice = z.infer<typeof Invoice>;

/** A note or an original as the other's detail links to it. */
export const LinkedInvoice = z.object({
  supplierId: Ruc,
  type: InvoiceType,
  id: z.string(),
  status: InvoiceStatus,
  currency: Currency,
  amount: Money,
  issuedAt: IsoDate,
  amountToPay: z.optional(z.nullable(Money)),
  noteReason: z.optional(z.nullable(NoteReason)),
  /** An original's review data, which its notes take. */
  operationType: z.optional(z.nullable(OperationType)),
  purchaseOrders: z.optional(z.array(z.string())),
});
export type LinkedInvoice = z.infer<typeof LinkedInvoice>;

/** The invoice as its detail panel shows it: with the office location resolved. */
export const InvoiceDetail = z.extend(Invoice, {
  officeLocation: z.nullable(OfficeLocation),
  /** The MIRO posting of an approved invoice (absent before the approval). */
  sapPosting: staffOnly(z.nullable(SapPosting)),
  /** While SUNAT has not answered (certStatus PENDING): since when it waits and when the portal asks again. */
  sunatCheck: z.optional(z.nullable(SunatCheck)),
  /** A note's original, when it is in the portal. */
  original: z.optional(z.nullable(LinkedInvoice)),
  /** An original's notes, credit and debit, oldest received first. */
  linkedNotes: z.optional(z.array(LinkedInvoice)),
});
export type InvoiceDetail = z.infer<typeof InvoiceDetail>;

/** A row of the invoices table: the invoice without its history. */
export const InvoiceSummary = z.omit(Invoice, { statusHistory: true });
export type InvoiceSummary = z.infer<typeof InvoiceSummary>;

/** The path parameters of every route about one invoice (`INVOICE_API_PATH`): an `InvoiceRef` as the wire spells it. */
export const InvoiceKeyPath = z.object({
  ...invoiceRefFields,
  invoiceId: z.string().check(z.regex(/^[A-Z0-9]{1,4}-\d{1,8}$/, 'debe tener la forma SERIE-NÚMERO')),
});

/** The invoice filter of spec §3. */
const invoiceFilter = {
  client: z.optional(Ruc),
  search: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(TEXT_LIMITS.search))),
  responsible: z.optional(z.string().check(z.minLength(1), z.maxLength(TEXT_LIMITS.referenceId))),
  invoiceStatus: z.optional(commaList(InvoiceStatus)),
  invoiceType: z.optional(commaList(InvoiceType)),
  office: z.optional(z.string().check(z.minLength(1), z.maxLength(TEXT_LIMITS.referenceId))),
  acquirer: z.optional(Ruc),
  issuer: z.optional(Ruc),
  /** "Vence entre": the expected payment date from `dueFrom` to `dueTo`, both included (soonest first). */
  dueFrom: z.optional(IsoDate),
  dueTo: z.optional(IsoDate),
  /** Invoices whose Ley 29623 conformity clock is in this state (OPEN: soonest deadline first). */
  acquirerConformity: z.optional(AcquirerConformityFilter),
  /** "Observadas": only invoices staff marked as observed. */
  observed: z.optional(QueryBoolean),
};

/** GET /invoices: the invoice filter of spec §3, paginated. */
export const ListInvoicesQuery = z.extend(PageQuery, invoiceFilter);

/** GET /invoices/count: the same filter, without pages. */
export const CountInvoicesQuery = z.object(invoiceFilter);

/**
 * How many invoices match: exact from the counters kept with every change, or — for a search, an office or a
 * responsible — counted up to a bound, beyond which `exact` is false and `count` is a lower bound ("más de").
 */
export const InvoiceCount = z.object({ count: z.number(), exact: z.boolean() });
export type InvoiceCount = z.infer<typeof InvoiceCount>;

/** Create-invoice-without-XML form (spec §3). */
export const CreateInvoiceWithoutXmlBody = z.object({
  prefixId: z.string().check(z.trim(), z.regex(/^[A-Z0-9]{4}$/, 'la serie tiene 4 caracteres')),
  numericId: z.string().check(z.trim(), z.regex(/^\d{1,8}$/, 'el correlativo tiene de 1 a 8 dígitos')),
  type: InvoiceType,
  clientTaxId: Ruc,
  supplierTaxId: Ruc,
  /**
   * Only for a RUC the supplier directory does not know yet: the business name of a known RUC is the
   * directory's (a supplier cannot present itself as another company), whatever is sent.
   */
  supplierName: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(TEXT_LIMITS.partyName))),
  currency: Currency,
  amount: RequestMoney.check(z.positive()),
  taxAmount: RequestMoney,
  issueDate: IssueDate,
  pdfUrl: z
    .string()
    .check(
      z.minLength(1, 'Para crear un comprobante debe adjuntar un archivo PDF.'),
      z.maxLength(TEXT_LIMITS.objectKey),
    ),
  notes: z.optional(z.string().check(z.maxLength(TEXT_LIMITS.notes))),
  /** A note's original (required when the type is a note). */
  billingReference: z.optional(
    z.object({
      type: z.enum(NOTE_ORIGINAL_TYPES),
      prefixId: z.string().check(z.trim(), z.regex(/^[A-Z0-9]{4}$/, 'la serie tiene 4 caracteres')),
      numericId: z.string().check(z.trim(), z.regex(/^\d{1,8}$/, 'el correlativo tiene de 1 a 8 dígitos')),
    }),
  ),
  /** A note's reason: its catálogo 09 (credit) or 10 (debit) code (required when the type is a note). */
  noteReasonCode: z.optional(z.string().check(z.trim(), z.regex(/^\d{2}$/, 'el código tiene 2 dígitos'))),
  /** The issuer's words for the reason (cbc:Description). */
  noteReasonDescription: z.optional(
    z.string().check(z.trim(), z.minLength(1), z.maxLength(TEXT_LIMITS.noteReasonDescription)),
  ),
  /** Forma de pago and cuotas; Contado when absent. */
  paymentTerms: z.optional(PaymentTermsInput),
  /** The detracción (SPOT) the document states, if any. */
  detraction: z.optional(DetractionInput),
});

export const CreateInvoiceFromXmlBody = z.object({
  url: z.string().check(z.minLength(1), z.maxLength(TEXT_LIMITS.objectKey)),
  /** SUNAT's CDR of the document, uploaded for INVOICE_CDR: kept as the supplier's evidence. */
  cdrUrl: z.optional(z.string().check(z.minLength(1), z.maxLength(TEXT_LIMITS.objectKey))),
});

/** SAP document numbers the manager types (OC, HES, MIGO): at most `count`, none by default. */
const documentIds = (count: number) =>
  z._default(
    z
      .array(z.string().check(z.trim(), z.minLength(1), z.maxLength(TEXT_LIMITS.sapDocumentId)))
      .check(z.maxLength(count)),
    [],
  );

/** PUT invoice: what the manager completes (spec §2 edit sidebar, §5 rules). */
export const UpdateInvoiceBody = z.object({
  operationType: OperationType,
  responsibleId: z.string().check(z.minLength(1), z.maxLength(TEXT_LIMITS.referenceId)),
  officeId: z.string().check(z.minLength(1), z.maxLength(TEXT_LIMITS.referenceId)),
  locationId: z.string().check(z.minLength(1), z.maxLength(TEXT_LIMITS.referenceId)),
  // Bounded so that one update, with its document claims and releases, fits in one transaction.
  purchaseOrders: documentIds(COUNT_LIMITS.purchaseOrders),
  serviceSheets: documentIds(30),
  materialDocs: documentIds(30),
  attachments: z._default(
    z.array(z.string().check(z.minLength(1), z.maxLength(TEXT_LIMITS.objectKey))).check(z.maxLength(20)),
    [],
  ),
});

export const DisapproveQuery = z.object({ noRejection: z._default(QueryBoolean, false) });
export const DisapproveBody = z.object({
  reason: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Por favor, ingrese el motivo de rechazo del comprobante.'),
      z.maxLength(TEXT_LIMITS.reason),
    ),
});

/** POST …/approve-despite-ruc-risk: an administrator's written reason. */
export const ApproveDespiteRucRiskBody = z.object({
  reason: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Indique el motivo por el que aprueba el comprobante pese al estado del RUC del proveedor.'),
      z.maxLength(TEXT_LIMITS.reason),
    ),
});

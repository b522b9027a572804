import * as z from 'zod/mini';
import {
  COUNT_LIMITS,
  Currency,
  DOCUMENT_ADJUSTMENTS_SHAPE,
  DOCUMENT_VALUE_SHAPE,
  IsoDate,
  Money,
  TEXT_LIMITS,
  type InvoiceType,
} from '@portal/shared';

/** The document kinds read from XML: every InvoiceType but the plain RECIBO, which has no electronic form. */
export const PARSED_DOCUMENT_TYPES = [
  'FACTURA',
  'BOLETA',
  'NOTA_DE_CREDITO',
  'NOTA_DE_DEBITO',
  'RECIBO_POR_HONORARIOS',
] as const satisfies readonly InvoiceType[];
export const ParsedDocumentType = z.enum(PARSED_DOCUMENT_TYPES);
export type ParsedDocumentType = z.infer<typeof ParsedDocumentType>;

export const ParsedParty = z.object({
  /** RUC for a company or a person with business income; a DNI or other identity document for some customers. */
  taxId: z.string().check(z.minLength(1), z.maxLength(TEXT_LIMITS.partyTaxId)),
  /** SUNAT catálogo 06 code: '6' RUC, '1' DNI, '4' carné de extranjería…; null when the XML does not say. */
  taxIdType: z.nullable(z.string()),
  name: z.string().check(z.minLength(1), z.maxLength(TEXT_LIMITS.partyName)),
});
export type ParsedParty = z.infer<typeof ParsedParty>;

export const ParsedInstallment = z.object({
  /** As written, e.g. Cuota001. */
  id: z.string(),
  amount: Money,
  dueDate: IsoDate,
});
export type ParsedInstallment = z.infer<typeof ParsedInstallment>;

/** Forma de pago (cac:PaymentTerms with cbc:ID FormaPago, required by SUNAT since 2021). */
export const ParsedPaymentTerms = z.object({
  method: z.enum(['CONTADO', 'CREDITO']),
  /** Monto neto pendiente de pago, given with Crédito; null when absent. */
  pendingAmount: z.nullable(Money),
  installments: z.array(ParsedInstallment).check(z.maxLength(COUNT_LIMITS.installments)),
});
export type ParsedPaymentTerms = z.infer<typeof ParsedPaymentTerms>;

/** The detracción (SPOT) a document states: cac:PaymentTerms and cac:PaymentMeans with cbc:ID Detraccion. */
export const ParsedDetraction = z.object({
  /** Catálogo 51 tipo de operación (cbc:InvoiceTypeCode listID), e.g. '1001'; null when absent. */
  operationType: z.nullable(z.string()),
  /** Catálogo 54 code (cbc:PaymentMeansID). */
  code: z.string(),
  /** cbc:PaymentPercent. */
  percent: z.number(),
  /** cbc:Amount and its currencyID (SUNAT asks for soles). */
  amount: Money,
  currency: Currency,
  /** The supplier's Banco de la Nación account (cac:PayeeFinancialAccount/cbc:ID); null when absent. */
  account: z.nullable(z.string()),
});
export type ParsedDetraction = z.infer<typeof ParsedDetraction>;

/** The document a note modifies, and why. */
export const ParsedDocumentReference = z.object({
  prefixId: z.string(),
  numericId: z.string(),
  /** SUNAT catálogo 01 code of the modified document ('01' factura, '03' boleta); null when absent. */
  typeCode: z.nullable(z.string()),
  /** Why (cac:DiscrepancyResponse): the catálogo 09/10 code of cbc:ResponseCode and cbc:Description; null when absent. */
  reasonCode: z.nullable(z.string()),
  reasonDescription: z.nullable(z.string()),
});
export type ParsedDocumentReference = z.infer<typeof ParsedDocumentReference>;

/**
 * What the portal takes from a SUNAT electronic document. Amounts are in the document's currency. Texts and
 * lists are within the limits of docs/limits.md, which the reader enforces.
 */
export const ParsedDocument = z.object({
  type: ParsedDocumentType,
  /** cbc:UBLVersionID as written ('2.0', '2.1'); null when absent. */
  ublVersion: z.nullable(z.string()),
  /** Series, e.g. F001. */
  prefixId: z.string().check(z.minLength(1)),
  /** Correlative as written, leading zeros kept. */
  numericId: z.string().check(z.minLength(1)),
  issueDate: IsoDate,
  /** Every due date the document states (cbc:DueDate, payment means, installments), ascending, no repeats. */
  dueDates: z.array(IsoDate).check(z.maxLength(COUNT_LIMITS.dueDates)),
  currency: Currency,
  supplier: ParsedParty,
  customer: ParsedParty,
  /** IGV: the tax subtotals of scheme 1000 (whatever their rate); 0 when there are none. */
  taxAmount: Money,
  /**
   * Retención del impuesto a la renta: scheme 3000 or a withholding total of the renta; on a recibo por honorarios
   * its 4ta categoría in any shape of docs/ap-documents.md. 0 when none.
   */
  incomeTaxWithholding: Money,
  /** Importe total: PayableAmount of the legal (or, for debit notes, requested) monetary total. */
  payableAmount: Money,
  purchaseOrders: z
    .array(z.string().check(z.maxLength(TEXT_LIMITS.sapDocumentId)))
    .check(z.maxLength(COUNT_LIMITS.purchaseOrders)),
  /** The modified document, for notes; null for the others. */
  billingReference: z.nullable(ParsedDocumentReference),
  /** Null when the document has no forma de pago (UBL 2.0 documents, notes). */
  paymentTerms: z.nullable(ParsedPaymentTerms),

  // Every document SUNAT accepts, read right (docs/ap-documents.md).
  ...DOCUMENT_VALUE_SHAPE,
  ...DOCUMENT_ADJUSTMENTS_SHAPE,
  /** Present only when the operation is subject to detracción (SPOT). */
  detraction: z.optional(ParsedDetraction),
});
export type ParsedDocument = z.infer<typeof ParsedDocument>;

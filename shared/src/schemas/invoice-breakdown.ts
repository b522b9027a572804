import * as z from 'zod/mini';
import { COUNT_LIMITS, TEXT_LIMITS } from '../limits.js';
import { Money } from './common.js';

// What an electronic document says beyond its total (docs/ap-documents.md): the taxes by SUNAT tax
// scheme, the document-level discounts and charges, the anticipos deducted, a transferencia gratuita and the
// operation type. Read from the XML; an invoice typed in the form has none.

/** A document-level discount or charge (cac:AllowanceCharge), by its catálogo 53 code. */
export const DocumentAllowanceCharge = z.object({
  /** Catálogo 53 code as written ('02' descuento global, '50' cargo global…); null when the XML gives none. */
  code: z.nullable(z.string().check(z.maxLength(TEXT_LIMITS.code))),
  amount: Money,
});
export type DocumentAllowanceCharge = z.infer<typeof DocumentAllowanceCharge>;

/** An anticipo deducted (cac:PrepaidPayment), with the document that billed it when the XML names it. */
export const DocumentPrepayment = z.object({
  /** Series and number of the anticipo's factura or boleta (cac:AdditionalDocumentReference 02/03); null when absent. */
  documentId: z.nullable(z.string().check(z.maxLength(TEXT_LIMITS.documentId))),
  amount: Money,
});
export type DocumentPrepayment = z.infer<typeof DocumentPrepayment>;

/** The taxes of the document by SUNAT tax scheme (catálogo 05), each the sum of its header subtotals; 0 when absent. */
export const DocumentTaxes = z.object({
  /** Scheme 1000. */
  igv: Money,
  /** Impuesto Selectivo al Consumo, scheme 2000. */
  isc: Money,
  /** Impuesto al consumo de las bolsas de plástico, scheme 7152. */
  icbper: Money,
  /** IVAP (1016) and otros tributos (9999). */
  other: Money,
});
export type DocumentTaxes = z.infer<typeof DocumentTaxes>;

/** A document's operation and value before taxes, as the XML reads and as an invoice's breakdown keeps them. */
export const DOCUMENT_VALUE_SHAPE = {
  /**
   * Tipo de operación, catálogo 51 (cbc:InvoiceTypeCode/@listID, or cbc:ProfileID): '0101' venta interna, '0200'
   * exportación de bienes…; null when absent.
   */
  operationType: z.nullable(z.string().check(z.maxLength(TEXT_LIMITS.code))),
  /** Valor de venta (cbc:LineExtensionAmount of the monetary total): the value before taxes; null when absent. */
  saleValue: z.nullable(Money),
  /** Taxes by SUNAT tax scheme (catálogo 05); `igv` equals the document's tax amount. */
  taxes: DocumentTaxes,
};

/** What a document adds to or deducts from its value, as the XML reads and as an invoice's breakdown keeps it. */
export const DOCUMENT_ADJUSTMENTS_SHAPE = {
  /** Document-level discounts (catálogo 53), except the deduction of anticipos, which `prepaidAmount` carries. */
  allowances: z.array(DocumentAllowanceCharge).check(z.maxLength(COUNT_LIMITS.allowanceCharges)),
  /** Document-level charges (catálogo 53), except percepciones, which are not part of the importe total. */
  charges: z.array(DocumentAllowanceCharge).check(z.maxLength(COUNT_LIMITS.allowanceCharges)),
  /** Anticipos deducted from the importe total (cbc:PrepaidAmount, IGV included); 0 when none. */
  prepaidAmount: Money,
  /** Each anticipo deducted (cac:PrepaidPayment) and the document that billed it, when named. */
  prepayments: z.array(DocumentPrepayment).check(z.maxLength(COUNT_LIMITS.prepayments)),
  /**
   * Transferencia gratuita: the importe total is 0.00 and what the document bills is given free (tax scheme
   * 9996, price type 02 of catálogo 16, legend 1002). Registered; nothing to pay, no payment expected.
   */
  freeOfCharge: z.boolean(),
  /** Valor referencial of what is given free: scheme 9996's taxable amount; 0 when nothing is. */
  freeOfChargeValue: Money,
};

export const InvoiceBreakdown = z.object({
  ...DOCUMENT_VALUE_SHAPE,
  /** Retención de renta (scheme 3000): the 8 % of 4ta categoría on a recibo por honorarios; 0 when none. */
  incomeTaxWithholding: Money,
  ...DOCUMENT_ADJUSTMENTS_SHAPE,
});
export type InvoiceBreakdown = z.infer<typeof InvoiceBreakdown>;

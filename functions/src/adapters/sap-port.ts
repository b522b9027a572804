import type { SapWithholdingKind } from '@portal/shared';

/* What the portal asks of SAP and what SAP answers, in the portal's words. */

/** One line of the MIRO: a purchase-order item and the conformity document that receives it. */
export interface SupplierInvoiceItem {
  readonly purchaseOrder: string;
  readonly purchaseOrderItem: string;
  /** Net amount of the line (the HES or MIGO amount). */
  readonly amount: number;
  /** HES (services). */
  readonly serviceEntrySheet?: string | null;
  /** MIGO material document and its fiscal year (goods). */
  readonly referenceDocument?: string | null;
  readonly referenceDocumentFiscalYear?: string | null;
}

/** A withholding the MIRO carries (docs/ap-payment.md): the detracción or the retención del IGV. */
export interface SupplierInvoiceWithholding {
  readonly kind: SapWithholdingKind;
  /** In the document's currency: the invoice's total, and what is withheld of it. */
  readonly baseAmount: number;
  readonly amount: number;
}

/** The supplier invoice to post, as the portal holds it. */
export interface SupplierInvoicePosting {
  /** Same key, same document: the outbox record's key. */
  readonly idempotencyKey: string;
  /** RUC of the group company; mapped to its company code by configuration. */
  readonly client: string;
  /** RUC of the supplier: the invoicing party. */
  readonly supplierId: string;
  /** series-number, e.g. F001-123. */
  readonly supplierInvoiceId: string;
  /** yyyy-mm-dd */
  readonly documentDate: string;
  /** yyyy-mm-dd */
  readonly postingDate: string;
  readonly currency: string;
  readonly grossAmount: number;
  readonly taxAmount: number;
  /** A credit note is posted as a credit memo (SupplierInvoiceIsCreditMemo 'X'). */
  readonly creditMemo: boolean;
  /**
   * A note: a subsequent credit or debit (IsSubsequentDebitCredit 'X' on its lines: a price adjustment of
   * the order, no quantity) against the original's SAP document (InvoiceReference, InvoiceReferenceFiscalYear).
   */
  readonly adjusts?: SapDocument | null;
  readonly items: readonly SupplierInvoiceItem[];
  /** Withholding tax data of the header (A_SuplrInvcHeaderWhldgTax); none when nothing is withheld. */
  readonly withholdings?: readonly SupplierInvoiceWithholding[];
}

export interface SapDocument {
  readonly number: string;
  readonly fiscalYear: string;
}

/** An invoice in a payment run: scheduled, and paid once paidAt is known. */
export interface PaymentRunItem {
  readonly supplierId: string;
  readonly invoiceId: string;
  readonly invoiceType: string | null;
  /** yyyy-mm-dd */
  readonly scheduledAt: string;
  readonly paidAt: string | null;
  /** ISO date-time of the last change of the item in SAP: the sync's cursor. */
  readonly changedAt: string;
  /** The payment document once paid (the remittance); null before, or when SAP does not report it. */
  readonly payment?: {
    readonly document: string;
    readonly fiscalYear: string | null;
    readonly method: string;
    readonly methodName: string;
    readonly amount: number | null;
    readonly currency: string | null;
  } | null;
}

/** What identifies a posted supplier invoice in SAP besides its document number (see findSupplierInvoice). */
export interface SupplierInvoiceReference {
  readonly client: string;
  readonly supplierId: string;
  readonly supplierInvoiceId: string;
  readonly creditMemo: boolean;
  /**
   * A debit note's subsequent debit (an InvoiceReference set): told apart from an invoice of the same supplier and
   * series-number, which SUNAT numbers apart (a factura F001-5 and a nota de débito F001-5 may both exist).
   */
  readonly adjustment?: boolean;
}

export interface SapPort {
  postSupplierInvoice(posting: SupplierInvoicePosting): Promise<SapDocument>;
  /**
   * The document SAP holds for this supplier's invoice at this company (not reversed), or null: how a
   * posting that SAP made but whose answer was lost is found again.
   */
  findSupplierInvoice(reference: SupplierInvoiceReference): Promise<SapDocument | null>;
  /** Payment-run items changed at or after `since` (all when null), oldest change first. */
  paymentRunItemsSince(since: string | null): Promise<PaymentRunItem[]>;
}

import type { Currency, OperationType } from '../domain.js';
import type { ErrorItem } from '../errors/errors.js';

/**
 * The rules of spec §5 for completing an invoice, as pure functions: the API enforces them and the
 * web form shows them while the user types. Each returns the first broken rule, or null.
 */

/** Amounts are compared in cents; a difference up to one cent is rounding, not a mismatch. */
export const AMOUNT_TOLERANCE = 0.01;

export interface ReviewInput {
  readonly operationType: OperationType;
  readonly purchaseOrders: readonly string[];
  readonly serviceSheets: readonly string[];
  readonly materialDocs: readonly string[];
  readonly attachments: readonly string[];
}

const isPdf = (key: string) => /\.pdf$/i.test(key.split('?')[0] ?? '');

/** Rules that need nothing but the form: which documents fit which operation type. */
export function checkReviewShape(input: ReviewInput): ErrorItem | null {
  const hasHes = input.serviceSheets.length > 0;
  const hasMigo = input.materialDocs.length > 0;
  if (input.operationType === 'GOODS' && hasHes) return item('ERROR_ADD_HES_WITH_GOODS_OPERATION_TYPE');
  if (input.operationType === 'SERVICES' && hasMigo) return item('ERROR_ADD_MIGO_WITH_SERVICE_OPERATION_TYPE');
  if (hasHes && hasMigo) return item('ERROR_UPDATE_INVOICE_WITH_HES_AND_MIGO_AT_THE_SAME_TIME');
  if (input.operationType === 'WITHOUT_PURCHASE_ORDER') {
    if (input.purchaseOrders.length > 0 || hasHes || hasMigo) {
      return {
        code: 'ERROR_INVALID_PARAMETER',
        parameters: {
          parameter: 'purchaseOrders',
          reason: 'una operación sin orden de compra no lleva OC, HES ni MIGO',
        },
      };
    }
    if (!input.attachments.some(isPdf)) return item('ERROR_WITHOUT_PO_REQUIRES_ATTACHMENTS');
    return null;
  }
  if (input.purchaseOrders.length === 0) return item('ERROR_UPDATE_INVOICE_WITHOUT_PURCHASE_ORDERS');
  if (!hasHes && !hasMigo) return item('ERROR_UPDATE_INVOICE_WITHOUT_CONFORMITY_DOCUMENTS');
  return null;
}

export interface ConformityFacts {
  readonly documentId: string;
  readonly kind: 'SERVICE_SHEET' | 'MATERIAL_DOCUMENT';
  readonly purchaseOrder: string;
  readonly issuerTaxId: string;
  readonly currency: Currency;
  readonly amount: number;
  /** Key of the invoice that holds it, or null when free. */
  readonly claimedBy: string | null;
}

export interface InvoiceFacts {
  /** Key of the invoice being completed (its own claims do not count against it). */
  readonly key: string;
  readonly supplierId: string;
  readonly currency: Currency;
  readonly amount: number;
  readonly taxAmount: number;
}

/**
 * Rules that need the conformity documents as SAP recorded them: they exist, belong to the supplier,
 * share the invoice currency, cover exactly the purchase orders entered, are free, and add up to the
 * invoice amount without IGV. `documents` holds what was found, keyed by document id.
 */
export function checkConformity(
  invoice: InvoiceFacts,
  input: Pick<ReviewInput, 'purchaseOrders' | 'serviceSheets' | 'materialDocs'>,
  documents: ReadonlyMap<string, ConformityFacts>,
  knownPurchaseOrders: ReadonlySet<string>,
): ErrorItem | null {
  for (const order of input.purchaseOrders) {
    if (!knownPurchaseOrders.has(order)) return item('ERROR_PURCHASE_ORDER_NOT_FOUND', { documentId: order });
  }
  const requested = [
    ...input.serviceSheets.map((id) => ({ id, missing: 'ERROR_HES_NOT_FOUND' as const })),
    ...input.materialDocs.map((id) => ({ id, missing: 'ERROR_MIGO_NOT_FOUND' as const })),
  ];
  const found: ConformityFacts[] = [];
  for (const { id, missing } of requested) {
    const doc = documents.get(id);
    if (!doc) return item(missing, { documentId: id });
    found.push(doc);
  }
  if (found.length === 0) return null;
  for (const doc of found) {
    if (doc.issuerTaxId !== invoice.supplierId) {
      return item('ERROR_INVOICE_AND_CONFORMITY_DOCUMENTS_WITH_DIFFERENT_SUPPLIER', { documentId: doc.documentId });
    }
  }
  for (const doc of found) {
    if (doc.currency !== invoice.currency) {
      return item('ERROR_INVOICE_AND_CONFORMITY_DOCUMENTS_WITH_DIFFERENT_CURRENCY', { documentId: doc.documentId });
    }
  }
  const orders = new Set(input.purchaseOrders);
  const uncovered = found.find((doc) => !orders.has(doc.purchaseOrder));
  if (uncovered) {
    return item('ERROR_CONFORMITY_DOCUMENTS_WITH_UNCOVERED_PURCHASE_ORDERS', {
      documentId: uncovered.documentId,
      purchaseOrder: uncovered.purchaseOrder,
    });
  }
  const withoutDocuments = input.purchaseOrders.find((order) => !found.some((doc) => doc.purchaseOrder === order));
  if (withoutDocuments)
    return item('ERROR_PURCHASE_ORDERS_WITHOUT_CONFORMITY_DOCUMENTS', { purchaseOrder: withoutDocuments });
  const taken = found.find((doc) => doc.claimedBy !== null && doc.claimedBy !== invoice.key);
  if (taken) return item('ERROR_CONFORMITY_DOCUMENT_NOT_AVAILABLE', { documentId: taken.documentId });
  const documentsTotal = cents(found.reduce((sum, doc) => sum + doc.amount, 0));
  const invoiceNet = cents(invoice.amount - invoice.taxAmount);
  if (Math.abs(documentsTotal - invoiceNet) > cents(AMOUNT_TOLERANCE)) {
    return item('ERROR_INVOICE_AND_CONFORMITY_DOCUMENTS_WITH_DISTANT_AMOUNTS', {
      documentsAmount: (documentsTotal / 100).toFixed(2),
      invoiceAmountWithoutTax: (invoiceNet / 100).toFixed(2),
    });
  }
  return null;
}

function cents(amount: number): number {
  return Math.round(amount * 100);
}

function item(code: ErrorItem['code'], parameters: Record<string, unknown> = {}): ErrorItem {
  return { code, parameters };
}

/**
 * The rules of spec §5 for a note (docs/ap-notes-and-risk.md "Which §5 rules apply to notes"). A note is
 * an adjustment of its original: it carries no HES or MIGO (the original claimed them) and no amount match; it takes
 * its original's operation type and purchase orders. A note whose original is not in the portal gets them from the
 * manager, as an invoice does: purchase orders, or PDF support when it has none.
 */
export interface NoteOriginalFacts {
  /** SERIE-NÚMERO of the original. */
  readonly id: string;
  readonly operationType: OperationType | null;
  readonly purchaseOrders: readonly string[];
}

export function checkNoteReviewShape(input: ReviewInput, original: NoteOriginalFacts | null): ErrorItem | null {
  if (input.serviceSheets.length > 0 || input.materialDocs.length > 0)
    return item('ERROR_NOTE_WITH_CONFORMITY_DOCUMENTS');
  if (original) {
    if (original.operationType === null) return item('ERROR_NOTE_ORIGINAL_NOT_REVIEWED', { original: original.id });
    const sameOrders =
      new Set(input.purchaseOrders).size === new Set(original.purchaseOrders).size &&
      input.purchaseOrders.every((order) => original.purchaseOrders.includes(order));
    if (input.operationType !== original.operationType || !sameOrders) {
      return item('ERROR_NOTE_REVIEW_NOT_ORIGINAL', {
        original: original.id,
        purchaseOrders: original.purchaseOrders.length > 0 ? original.purchaseOrders.join(', ') : 'ninguna',
      });
    }
    // The original's own review stands for the rest (its orders, or its PDF support without them).
    return null;
  }
  if (input.operationType === 'WITHOUT_PURCHASE_ORDER') {
    if (input.purchaseOrders.length > 0) {
      return {
        code: 'ERROR_INVALID_PARAMETER',
        parameters: { parameter: 'purchaseOrders', reason: 'una operación sin orden de compra no lleva OC' },
      };
    }
    return input.attachments.some(isPdf) ? null : item('ERROR_WITHOUT_PO_REQUIRES_ATTACHMENTS');
  }
  return input.purchaseOrders.length === 0 ? item('ERROR_UPDATE_INVOICE_WITHOUT_PURCHASE_ORDERS') : null;
}

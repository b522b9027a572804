import {
  checkConformity,
  checkNoteReviewShape,
  checkReviewShape,
  isNoteType,
  formatErrorMessage,
  type ConformityFacts,
  type Employee,
  type ErrorCode,
  type ErrorItem,
  type InvoiceDetail,
  type NoteOriginalFacts,
  type OperationType,
} from '@portal/shared';
import type { CodeCheck, CodeKind } from './use-code-checks';
import { detailMessages } from './messages';

const text = detailMessages.form;

/** What the manager is entering (spec §2 edit sidebar). */
export interface ReviewDraft {
  readonly operationType: OperationType | null;
  readonly responsible: Employee | null;
  readonly officeId: string | null;
  readonly locationId: string | null;
  readonly purchaseOrders: readonly string[];
  readonly serviceSheets: readonly string[];
  readonly materialDocs: readonly string[];
  /** Stored keys: the attachments kept and the files uploaded in this edit. */
  readonly attachments: readonly string[];
}

export type ReviewField =
  | 'operationType'
  | 'responsible'
  | 'office'
  | 'location'
  | 'purchaseOrders'
  | 'serviceSheets'
  | 'materialDocs'
  | 'attachments';

export interface ReviewFeedback {
  /** The message under each field, if any. */
  readonly errors: Partial<Record<ReviewField, string>>;
  /** Availability checks still running: the rules that need their answers wait for them. */
  readonly checking: boolean;
  /** The HES/MIGO total against the invoice amount without IGV, once every document is known. */
  readonly documentsTotal: number | null;
}

/**
 * A note's original as its review takes it: null when the original is not in the portal; undefined for a
 * document that is no note.
 */
export function noteOriginalOf(invoice: InvoiceDetail): NoteOriginalFacts | null | undefined {
  if (!isNoteType(invoice.type)) return undefined;
  const original = invoice.original;
  return original
    ? { id: original.id, operationType: original.operationType ?? null, purchaseOrders: original.purchaseOrders ?? [] }
    : null;
}

export function draftOf(invoice: InvoiceDetail): ReviewDraft {
  // A note takes its original's operation type and orders.
  const original = noteOriginalOf(invoice);
  return {
    operationType: original?.operationType ?? invoice.operationType,
    responsible: invoice.responsible,
    officeId: invoice.officeId,
    locationId: invoice.locationId,
    purchaseOrders: original ? original.purchaseOrders : invoice.purchaseOrders,
    serviceSheets: invoice.serviceSheets,
    materialDocs: invoice.materialDocs,
    attachments: invoice.attachments,
  };
}

/** Shape rules that refuse what was entered: shown at once, while the user types. */
const REFUSED: Partial<Record<ErrorCode, readonly ReviewField[]>> = {
  ERROR_ADD_HES_WITH_GOODS_OPERATION_TYPE: ['serviceSheets'],
  ERROR_ADD_MIGO_WITH_SERVICE_OPERATION_TYPE: ['materialDocs'],
  ERROR_UPDATE_INVOICE_WITH_HES_AND_MIGO_AT_THE_SAME_TIME: ['serviceSheets', 'materialDocs'],
  ERROR_INVALID_PARAMETER: ['purchaseOrders'],
  ERROR_NOTE_WITH_CONFORMITY_DOCUMENTS: ['serviceSheets', 'materialDocs'],
  ERROR_NOTE_ORIGINAL_NOT_REVIEWED: ['purchaseOrders'],
  ERROR_NOTE_REVIEW_NOT_ORIGINAL: ['purchaseOrders'],
};

/** Shape rules that ask for something still missing: shown once the user tries to save. */
const MISSING: Partial<Record<ErrorCode, ReviewField>> = {
  ERROR_UPDATE_INVOICE_WITHOUT_PURCHASE_ORDERS: 'purchaseOrders',
  ERROR_UPDATE_INVOICE_WITHOUT_CONFORMITY_DOCUMENTS: 'serviceSheets',
  ERROR_WITHOUT_PO_REQUIRES_ATTACHMENTS: 'attachments',
};

function messageOf(error: ErrorItem): string {
  // The shared rule names the form field in its parameters; the person reads the reason alone.
  if (error.code === 'ERROR_INVALID_PARAMETER') return text.withoutOrderNoCodes;
  return formatErrorMessage(error.code, error.parameters);
}

const CODE_FIELDS: readonly { field: ReviewField; kind: CodeKind; codes: (draft: ReviewDraft) => readonly string[] }[] =
  [
    { field: 'purchaseOrders', kind: 'PURCHASE_ORDER', codes: (draft) => draft.purchaseOrders },
    { field: 'serviceSheets', kind: 'SERVICE_SHEET', codes: (draft) => draft.serviceSheets },
    { field: 'materialDocs', kind: 'MATERIAL_DOCUMENT', codes: (draft) => draft.materialDocs },
  ];

/**
 * Spec §5 as the user types, with the shared rule functions the API enforces: the shape rules
 * (HES not with goods, MIGO not with services, not both, OC or PDF support required), each code's
 * availability, and — once every document is known — coverage of the orders, supplier, currency and
 * the amount without IGV. `submitted` adds what is merely missing (required fields, OC, documents).
 */
export function reviewFeedback(
  invoice: Pick<InvoiceDetail, 'supplierId' | 'currency' | 'amount' | 'taxAmount'>,
  draft: ReviewDraft,
  lookup: (kind: CodeKind, code: string) => CodeCheck | undefined,
  submitted: boolean,
  /** A note's original (null: not in the portal); undefined for a document that is no note. */
  noteOriginal?: NoteOriginalFacts | null,
): ReviewFeedback {
  const errors: Partial<Record<ReviewField, string>> = {};
  const put = (field: ReviewField, message: string) => {
    errors[field] ??= message;
  };

  if (submitted) {
    if (!draft.operationType) put('operationType', text.operationTypeRequired);
    if (!draft.responsible) put('responsible', text.responsibleRequired);
    if (!draft.officeId) put('office', text.officeRequired);
    if (!draft.locationId) put('location', text.locationRequired);
  }

  // Without an operation type only the combination of HES and MIGO can be judged yet. A note has its own rules.
  const note = noteOriginal !== undefined;
  const shape = note
    ? checkNoteReviewShape({ ...draft, operationType: draft.operationType ?? 'GOOD_AND_SERVICE' }, noteOriginal)
    : checkReviewShape({ ...draft, operationType: draft.operationType ?? 'GOOD_AND_SERVICE' });
  const judged =
    draft.operationType ||
    shape?.code === 'ERROR_UPDATE_INVOICE_WITH_HES_AND_MIGO_AT_THE_SAME_TIME' ||
    shape?.code === 'ERROR_NOTE_WITH_CONFORMITY_DOCUMENTS'
      ? shape
      : null;
  if (judged) {
    const refused = REFUSED[judged.code];
    const missing = MISSING[judged.code];
    if (refused) refused.forEach((field) => put(field, messageOf(judged)));
    else if (missing && submitted) {
      const field = missing === 'serviceSheets' && draft.operationType === 'GOODS' ? 'materialDocs' : missing;
      put(field, messageOf(judged));
    }
  }

  // Each code's own answer: unknown, another supplier's, or used on another invoice.
  let checking = false;
  let allKnown = true;
  const facts = new Map<string, ConformityFacts>();
  const knownOrders = new Set<string>();
  for (const { field, kind, codes } of CODE_FIELDS) {
    for (const code of codes(draft)) {
      const check = lookup(kind, code);
      if (!check || check.state === 'checking') {
        checking = true;
        allKnown = false;
      } else if (check.state === 'unavailable' || check.state === 'failed') {
        put(field, check.message);
        allKnown = false;
      } else if (check.state === 'held') {
        allKnown = false;
      } else if (check.document) {
        const { document } = check;
        facts.set(code, {
          documentId: document.documentId,
          kind: kind === 'SERVICE_SHEET' ? 'SERVICE_SHEET' : 'MATERIAL_DOCUMENT',
          purchaseOrder: document.purchaseOrder,
          issuerTaxId: document.issuerTaxId,
          currency: document.currency,
          amount: document.amount,
          claimedBy: null,
        });
      } else {
        knownOrders.add(code);
      }
    }
  }

  // The rules that need the documents, once the shape is right and SAP's answers are all in (never for a note).
  let documentsTotal: number | null = null;
  if (!note && !shape && allKnown && facts.size > 0) {
    documentsTotal = [...facts.values()].reduce((sum, doc) => sum + doc.amount, 0);
    const mismatch = checkConformity({ key: 'this-invoice', ...invoice }, draft, facts, knownOrders);
    if (mismatch) {
      const onOrders =
        mismatch.code === 'ERROR_PURCHASE_ORDERS_WITHOUT_CONFORMITY_DOCUMENTS' ||
        mismatch.code === 'ERROR_PURCHASE_ORDER_NOT_FOUND';
      put(
        onOrders ? 'purchaseOrders' : draft.serviceSheets.length > 0 ? 'serviceSheets' : 'materialDocs',
        messageOf(mismatch),
      );
    }
  }

  return { errors, checking, documentsTotal };
}

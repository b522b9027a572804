import {
  BadRequestError,
  ConflictError,
  acquirerConformityView,
  checkConformity,
  checkNoteReviewShape,
  checkReviewShape,
  isNoteType,
  type Invoice,
  type InvoiceDetail,
  type NoteOriginalFacts,
} from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import { invoiceKeyOf, type StoredInvoice } from '../../repositories/invoice-store.js';
import { uploadUseItems } from '../../repositories/upload-uses.js';
import { callerStamp } from '../audit-stamp.js';
import { loadInvoiceInReach, retryingInvoiceChange, type InvoicePath } from '../invoice-access.js';
import { originalOf } from './linked-invoices.js';
import type { ReviewDeps, UpdateBody } from './review-deps.js';
import { EDITABLE, historyEntry, refsOf, requireStatus, sameRef, withoutVersion } from './review-steps.js';

export type UpdateDeps = Pick<ReviewDeps, 'store' | 'clock' | 'verifyAttachment'>;

/**
 * PUT: the manager completes the invoice. Steps:
 * 1. the invoice is editable and SUNAT confirmed it;
 * 2. the form's shape fits the operation type (shared rules);
 * 3. responsible, office location, purchase orders and conformity documents exist and fit;
 * 4. one transaction writes the invoice (PENDING → COMPLETED), claims the new documents,
 *    releases the dropped ones and moves the dashboard counters.
 */
export async function updateInvoice(
  deps: UpdateDeps,
  caller: Caller,
  path: InvoicePath,
  body: UpdateBody,
): Promise<InvoiceDetail> {
  const { store, clock } = deps;
  return retryingInvoiceChange(async () => {
    const before = await loadInvoiceInReach(store, caller, path);
    requireStatus(before, EDITABLE, 'ERROR_UPDATE_INVOICE_NOT_EDITABLE');
    if (before.certStatus === 'PENDING') throw new ConflictError('ERROR_UPDATE_INVOICE_WITH_PENDING_STATUS');
    if (before.certStatus === 'INVALID') {
      throw new ConflictError('ERROR_UPDATE_INVOICE_WITH_INVALID_CERTIFICATION_STATUS');
    }
    const noteWithoutOriginal = await checkShape(deps, before, body);
    const added = await checkNewAttachments(deps, caller, before, body.attachments);
    const { responsible, location } = await checkReferences(deps, before, body, noteWithoutOriginal);

    const held = refsOf(before);
    const wanted = refsOf(body);
    const after: Invoice = {
      ...before,
      operationType: body.operationType,
      responsible,
      officeId: body.officeId,
      locationId: body.locationId,
      purchaseOrders: [...body.purchaseOrders],
      serviceSheets: [...body.serviceSheets],
      materialDocs: [...body.materialDocs],
      attachments: [...body.attachments],
      status: 'COMPLETED',
      statusHistory:
        before.status === 'PENDING'
          ? [...before.statusHistory, historyEntry(caller, 'COMPLETED', null, clock())]
          : before.statusHistory,
    };
    const plain = withoutVersion(
      await store.commit({
        before,
        after,
        whileStatusIn: EDITABLE,
        claim: wanted.filter((ref) => !held.some(sameRef(ref))),
        release: held.filter((ref) => !wanted.some(sameRef(ref))),
        alsoPut: uploadUseItems(added, before, clock()),
        audit: callerStamp(caller, before.status === 'PENDING' ? 'COMPLETED' : 'EDITED'),
      }),
    );
    return {
      ...plain,
      officeLocation: location,
      ...(plain.acquirerConformity
        ? { acquirerConformity: acquirerConformityView(plain.acquirerConformity, plain, clock()) }
        : {}),
    };
  });
}

/**
 * Step 2: the form's shape fits the operation type. A note is reviewed as an adjustment of its original: no HES/MIGO,
 * no amount match. Answers whether the invoice is a note whose original is not in the portal.
 */
async function checkShape(deps: UpdateDeps, before: StoredInvoice, body: UpdateBody): Promise<boolean> {
  const { store } = deps;
  const note = isNoteType(before.type);
  const original = note ? await originalOf(store, before) : null;
  const originalFacts: NoteOriginalFacts | null = original
    ? { id: original.id, operationType: original.operationType, purchaseOrders: original.purchaseOrders }
    : null;
  const shapeError = note ? checkNoteReviewShape(body, originalFacts) : checkReviewShape(body);
  if (shapeError) throw new BadRequestError(shapeError.code, shapeError.parameters);
  return note && !original;
}

/** Step 3: the responsible, the office location, the purchase orders and the conformity documents exist and fit. */
async function checkReferences(
  deps: UpdateDeps,
  before: StoredInvoice,
  body: UpdateBody,
  noteWithoutOriginal: boolean,
) {
  const { store } = deps;
  const note = isNoteType(before.type);
  const [responsible, location] = await Promise.all([
    store.activeEmployee(before.client, body.responsibleId),
    store.officeLocation(before.client, body.locationId),
  ]);
  if (!responsible) throw new BadRequestError('ERROR_EMPLOYEE_NOT_FOUND', { responsibleId: body.responsibleId });
  if (!location || location.office !== body.officeId) {
    throw new BadRequestError('ERROR_OFFICE_LOCATION_NOT_FOUND', {
      officeId: body.officeId,
      locationId: body.locationId,
    });
  }

  const wanted = refsOf(body);
  const [documents, orders] = await Promise.all([
    store.conformityDocuments(before.client, wanted),
    store.purchaseOrdersOf(before.client, before.supplierId, body.purchaseOrders),
  ]);
  // A note's orders are its original's, or those the manager gives a note whose original is not here.
  const unknownOrder = noteWithoutOriginal ? body.purchaseOrders.find((order) => !orders.has(order)) : undefined;
  if (unknownOrder) throw new BadRequestError('ERROR_PURCHASE_ORDER_NOT_FOUND', { documentId: unknownOrder });
  const conformityError = note
    ? null
    : checkConformity(
        { key: invoiceKeyOf(before), ...before },
        body,
        // A document is known only under the kind it was entered as (an HES id is not a MIGO).
        new Map(
          [...documents].filter(([, doc]) => wanted.some(sameRef({ kind: doc.kind, documentId: doc.documentId }))),
        ),
        orders,
      );
  if (conformityError) {
    const status = conformityError.code === 'ERROR_CONFORMITY_DOCUMENT_NOT_AVAILABLE' ? ConflictError : BadRequestError;
    throw new status(conformityError.code, conformityError.parameters);
  }
  return { responsible, location };
}

/**
 * The attachments the form adds (those the invoice does not hold yet), each an upload made for the
 * invoice's company (or, by an admin, under 'admin') that exists and passed the byte checks; the first
 * that is not refuses the whole change. Answers the keys added.
 */
async function checkNewAttachments(
  deps: Pick<UpdateDeps, 'verifyAttachment'>,
  caller: Caller,
  before: Invoice,
  attachments: readonly string[],
): Promise<string[]> {
  const added = attachments.filter((key) => !before.attachments.includes(key));
  if (added.length === 0) return [];
  if (!deps.verifyAttachment) throw new Error('verifyAttachment is not wired: attachments cannot be checked');
  const tenants = caller.level === 'ADMIN' ? [before.client, 'admin'] : [before.client];
  for (const [index, key] of attachments.entries()) {
    if (!before.attachments.includes(key)) await deps.verifyAttachment(key, tenants, index + 1);
  }
  return added;
}

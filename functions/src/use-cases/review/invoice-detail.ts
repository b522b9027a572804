import {
  acquirerConformityView,
  isNoteType,
  keys,
  sapPostingView,
  sunatCheckView,
  withPostedDocument,
  type Invoice,
  type InvoiceDetail,
} from '@portal/shared';
import type { MiroOutboxRecord } from '../../repositories/miro-outbox.js';
import { sunatCheckKeyOf, type SunatCheckRecord } from '../../repositories/sunat-checks.js';
import { linkedOf, notesOf, originalOf } from './linked-invoices.js';
import type { DetailDeps } from './review-deps.js';

/** The SUNAT check or the MIRO record a change just committed with the invoice. */
export interface JustCommitted {
  readonly check?: SunatCheckRecord;
  readonly record?: MiroOutboxRecord;
}

/**
 * The invoice as the user sees it, with its office, SAP posting, SUNAT check and notes. `known` holds the SUNAT
 * check or the MIRO record the caller just committed with the invoice: the response shows that snapshot (not read
 * back), not a state SUNAT's or SAP's worker may already have moved it to since. What of it a supplier reads is the
 * route's answer projected for its role (schemas/visibility.ts).
 */
export async function invoiceDetail(
  deps: DetailDeps,
  invoice: Invoice,
  known: JustCommitted = {},
): Promise<InvoiceDetail> {
  const { store, clock } = deps;
  const [officeLocation, record, check, original, notes] = await Promise.all([
    invoice.locationId ? store.officeLocation(invoice.client, invoice.locationId) : null,
    known.record ??
      (invoice.approved ? deps.miro.get(keys.miroOutbox(invoice.supplierId, invoice.type, invoice.id)) : null),
    known.check ??
      (invoice.certStatus === 'PENDING' && deps.sunat ? deps.sunat.checks.get(sunatCheckKeyOf(invoice)) : null),
    originalOf(store, invoice),
    notesOf(deps.noteLinks, invoice),
  ]);
  const sunatCheck = check ? sunatCheckView(check) : null;
  return {
    ...withPostedDocument(invoice, record),
    officeLocation,
    // The Ley 29623 clock with the days left today (the stage's clock).
    ...(invoice.acquirerConformity
      ? { acquirerConformity: acquirerConformityView(invoice.acquirerConformity, invoice, clock()) }
      : {}),
    ...(record ? { sapPosting: sapPostingView(record, clock()) } : {}),
    ...(sunatCheck ? { sunatCheck } : {}),
    ...(isNoteType(invoice.type) ? { original: original ? linkedOf(original) : null } : {}),
    ...(notes.length > 0 ? { linkedNotes: notes.map(linkedOf) } : {}),
  };
}

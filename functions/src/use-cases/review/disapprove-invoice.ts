import { notificationAbout, type Invoice, type InvoiceDetail, type NotificationMessage } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import { outgoingItem, outgoingMessage } from '../../repositories/outgoing.js';
import { callerStamp } from '../audit-stamp.js';
import { loadInvoiceInReach, retryingInvoiceChange, type InvoicePath } from '../invoice-access.js';
import { invoiceDetail } from './invoice-detail.js';
import type { DetailDeps, DisapproveBody, DisapproveQuery, ReviewDeps } from './review-deps.js';
import { EDITABLE, historyEntry, refsOf, requireStatus, withoutVersion } from './review-steps.js';

export type DisapproveDeps = DetailDeps & Pick<ReviewDeps, 'outgoing'>;

/**
 * Reject: PENDING or COMPLETED → REJECTED with the reason; the conformity documents are released.
 * noRejection=true lets the supplier submit the same document again (disapprovedWithoutRejection).
 */
export async function disapproveInvoice(
  deps: DisapproveDeps,
  caller: Caller,
  path: InvoicePath,
  query: DisapproveQuery,
  body: DisapproveBody,
): Promise<InvoiceDetail> {
  const { store, clock } = deps;
  const rejected = await retryingInvoiceChange(async () => {
    const before = await loadInvoiceInReach(store, caller, path);
    requireStatus(before, EDITABLE, 'ERROR_DISAPPROVE_INVOICE_WITHOUT_PENDING_OR_COMPLETED_STATUS');
    const after: Invoice = {
      ...before,
      status: 'REJECTED',
      statusMessage: body.reason,
      disapprovedWithoutRejection: query.noRejection,
      serviceSheets: [],
      materialDocs: [],
      statusHistory: [...before.statusHistory, historyEntry(caller, 'REJECTED', body.reason, clock())],
    };
    // The supplier's notice is committed with the rejection: sent now, or by the outbox sweeper.
    // It says whether the supplier may send the document again (noRejection) or the rejection is definitive.
    const notice: NotificationMessage = {
      ...notificationAbout('INVOICE_REJECTED', after, body.reason, clock()),
      retryAllowed: query.noRejection,
    };
    const message = outgoingMessage('notifications', notice, clock());
    const stored = await store.commit({
      before,
      after,
      whileStatusIn: EDITABLE,
      release: refsOf(before),
      alsoPut: [outgoingItem(message)],
      audit: callerStamp(caller, query.noRejection ? 'DISAPPROVED' : 'REJECTED', body.reason),
    });
    return { stored, message };
  });
  await deps.outgoing.deliver([rejected.message]);
  return invoiceDetail(deps, withoutVersion(rejected.stored));
}

import {
  ConflictError,
  SUNAT_RECHECK_HISTORY_TITLE,
  type InvoiceDetail,
  type StatusHistoryEntry,
  type SunatValidationMessage,
} from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import { invoiceKeyOf } from '../../repositories/invoice-store.js';
import { outgoingItem, outgoingMessage } from '../../repositories/outgoing.js';
import { openSunatCheckItem, sunatCheckKeyOf, type SunatCheckRecord } from '../../repositories/sunat-checks.js';
import { callerStamp } from '../audit-stamp.js';
import { loadInvoiceInReach, retryingInvoiceChange, type InvoicePath } from '../invoice-access.js';
import { invoiceDetail } from './invoice-detail.js';
import type { DetailDeps, ReviewDeps } from './review-deps.js';
import { actorOf, historyEntry, requireStatus, withoutVersion } from './review-steps.js';

export type RequestSunatValidationDeps = DetailDeps & Pick<ReviewDeps, 'outgoing' | 'log' | 'sunat'>;

/**
 * Staff ask SUNAT again about an invoice under review that waits for SUNAT (certStatus PENDING) or that SUNAT
 * did not validate (INVALID: SUNAT may not know a document issued minutes ago). Idempotent: a check already
 * queued or under way (its message still on its way) is left as it is and answered; else one transaction
 * writes the invoice (certStatus PENDING, a history entry naming who asked), its check (OPEN, as read) and the
 * SUNAT message, which is then sent. Two requests at once: one writes, the other reloads and finds it queued.
 */
export async function requestSunatValidation(
  deps: RequestSunatValidationDeps,
  caller: Caller,
  path: InvoicePath,
): Promise<InvoiceDetail> {
  const { store, clock, sunat } = deps;
  if (!sunat) throw new Error('sunat is not wired: a new SUNAT check cannot be requested');
  const requested = await retryingInvoiceChange(async () => {
    const before = await loadInvoiceInReach(store, caller, path);
    if (before.certStatus === 'VALID') throw new ConflictError('ERROR_SUNAT_VALIDATION_ALREADY_VALID');
    requireStatus(before, ['PENDING'], 'ERROR_SUNAT_VALIDATION_NOT_UNDER_REVIEW');
    const key = sunatCheckKeyOf(before);
    const check = await sunat.checks.get(key);
    const queued =
      before.certStatus === 'PENDING' &&
      check?.state === 'OPEN' &&
      check.outgoingId !== null &&
      (await sunat.messages.isLive('sunatValidation', check.outgoingId));
    if (queued) return { stored: before, message: null, check };

    const now = clock();
    const body: SunatValidationMessage = {
      supplierId: before.supplierId,
      invoiceType: before.type,
      invoiceId: before.id,
    };
    const message = outgoingMessage('sunatValidation', body, now);
    const entry: StatusHistoryEntry = {
      ...historyEntry(caller, before.status, before.certStatus === 'INVALID' ? before.statusMessage : null, clock()),
      title: SUNAT_RECHECK_HISTORY_TITLE,
    };
    const opened = openSunatCheckItem(before, {
      pendingSince: now,
      dueAt: new Date(now.getTime() + sunat.staleAfterSeconds * 1000),
      outgoingId: message.id,
      requestedBy: actorOf(caller),
    });
    const stored = await store.commit({
      before,
      // SUNAT's previous answer (its refusal, or that it could not be asked) stays in the history entry.
      after: {
        ...before,
        certStatus: 'PENDING',
        statusMessage: null,
        statusHistory: [...before.statusHistory, entry],
      },
      whileStatusIn: ['PENDING'],
      alsoPut: [outgoingItem(message)],
      putIf: [{ item: opened, ...checkAsRead(check) }],
      audit: callerStamp(caller, 'SUNAT_RECHECK_REQUESTED'),
    });
    return { stored, message, check: opened };
  });
  if (requested.message) {
    deps.log.info('new SUNAT check requested', { invoice: invoiceKeyOf(requested.stored), by: caller.sub });
    // Sent now; if the send fails, the committed outgoing item stays for the relay.
    await deps.outgoing.deliver([requested.message]);
  }
  return invoiceDetail(deps, withoutVersion(requested.stored), { check: requested.check });
}

/** The check as read, for a write that must find it unchanged: absent, open (its place in the due list) or done. */
function checkAsRead(check: SunatCheckRecord | null) {
  if (!check) return { condition: 'attribute_not_exists(pk)' };
  if (check.state === 'OPEN')
    return { condition: 'gsi1sk = :seen', values: { ':seen': check.gsi1sk ?? null } as Record<string, unknown> };
  return { condition: '#state = :done', names: { '#state': 'state' }, values: { ':done': 'DONE' } };
}

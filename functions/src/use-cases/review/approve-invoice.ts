import {
  ConflictError,
  ForbiddenError,
  rucRiskOf,
  rucRiskText,
  type InvoiceDetail,
  type RucRisk,
} from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import type { StoredInvoice } from '../../repositories/invoice-store.js';
import { newMiroOutboxRecord } from '../../repositories/miro-outbox.js';
import { outgoingItem } from '../../repositories/outgoing.js';
import { callerStamp } from '../audit-stamp.js';
import { loadInvoiceInReach, retryingInvoiceChange, type InvoicePath } from '../invoice-access.js';
import { miroRequestMessage } from '../miro/miro-request.js';
import { MIRO_TIMING } from '../miro/miro-timing.js';
import { invoiceDetail } from './invoice-detail.js';
import { noteApprovalWrites } from './note-approval.js';
import type { DetailDeps, ReviewDeps } from './review-deps.js';
import { actorOf, historyEntry, requireStatus, withoutVersion } from './review-steps.js';

export type ApproveDeps = DetailDeps & Pick<ReviewDeps, 'outgoing' | 'miro' | 'miroGraceMs' | 'noteLinks'>;

/** An approval by an administrator despite the RUC risk (POST …/approve-despite-ruc-risk). */
export interface ApproveOptions {
  readonly overrideReason?: string;
}

/**
 * Approve: COMPLETED → ACCEPTED, the MIRO outbox record and the queue message's outgoing item in one
 * conditional transaction, then the message. If it cannot be sent, the outgoing item stays for the relay.
 */
export async function approveInvoice(
  deps: ApproveDeps,
  caller: Caller,
  path: InvoicePath,
  options: ApproveOptions = {},
): Promise<InvoiceDetail> {
  const { store, clock } = deps;
  const miroGraceMs = deps.miroGraceMs ?? MIRO_TIMING.defaultGraceMs;
  const overrideReason = options.overrideReason ?? null;
  // The manifest lets only administrators send an override; a wiring that let anyone else is refused here too.
  if (overrideReason !== null && caller.level !== 'ADMIN') throw new ForbiddenError();
  const approved = await retryingInvoiceChange(async () => {
    const before = await loadInvoiceInReach(store, caller, path);
    requireStatus(before, ['COMPLETED'], 'ERROR_APPROVE_INVOICE_WITHOUT_COMPLETED_STATUS');
    const risk = checkRucRisk(before, overrideReason);
    const noteWrites = await noteApprovalWrites(deps, before, caller);
    const now = clock();
    const override =
      risk && overrideReason !== null
        ? {
            by: actorOf(caller),
            at: now.toISOString(),
            reason: overrideReason,
            estadoRuc: risk.estadoRuc,
            condDomiRuc: risk.condDomiRuc,
          }
        : null;
    const message = miroRequestMessage(before, clock());
    const record = newMiroOutboxRecord(before, actorOf(caller), now, miroGraceMs);
    const stored = await store.commit({
      before,
      after: {
        ...before,
        status: 'ACCEPTED',
        approved: true,
        approvedAt: now.toISOString(),
        statusHistory: [
          ...before.statusHistory,
          historyEntry(
            caller,
            'ACCEPTED',
            override ? `Excepción por el estado del RUC (${rucRiskText(override)}): ${override.reason}` : null,
            clock(),
          ),
        ],
        ...(override ? { rucRiskOverride: override } : {}),
      },
      whileStatusIn: ['COMPLETED'],
      create: record,
      alsoPut: [outgoingItem(message)],
      alsoWrite: noteWrites,
      alsoCount: [deps.miro.approvalCount(before.client)],
      audit: override
        ? callerStamp(caller, 'APPROVED_DESPITE_RUC_RISK', override.reason)
        : callerStamp(caller, 'APPROVED'),
    });
    return { stored, message, record };
  });

  // Sent now; if the send fails, the committed outgoing item stays for the relay (the outbox guarantee).
  await deps.outgoing.deliver([approved.message]);
  // The supplier hears of the approval from the MIRO worker, with SAP's document number.
  return invoiceDetail(deps, withoutVersion(approved.stored), { record: approved.record });
}

/**
 * The RUC risk gate: SUNAT does not report the supplier ACTIVO and HABIDO. Without a reason such an approval is
 * refused; with one (an administrator's) it goes on; a reason where there is no risk is refused too.
 */
function checkRucRisk(before: StoredInvoice, overrideReason: string | null): RucRisk | null {
  const risk = rucRiskOf(before.sunat);
  if (risk && overrideReason === null) {
    throw new ConflictError('ERROR_APPROVE_INVOICE_WITH_RUC_RISK', {
      risk: rucRiskText(risk),
      estadoRuc: risk.estadoRuc,
      condDomiRuc: risk.condDomiRuc,
    });
  }
  if (!risk && overrideReason !== null) throw new ConflictError('ERROR_RUC_RISK_OVERRIDE_NOT_NEEDED');
  return risk;
}

import {
  CDR_VERDICT_CONTRADICTIONS,
  cdrVerdictReasons,
  notificationAbout,
  type Invoice,
  type SunatValidationMessage,
} from '@portal/shared';
import type { SunatVerdict } from '../../adapters/sunat.js';
import type { StoredInvoice } from '../../repositories/invoice-store.js';
import { outgoingMessage, type OutgoingMessage } from '../../repositories/outgoing.js';
import { cdrContradictionNotice } from '../cdr-notice.js';
import { SUNAT_FAILURE_MESSAGE } from './sunat-validation-deps.js';

/** What SUNAT's verdict writes on the invoice: its certStatus, the message it shows and SUNAT's answer. */
export function certificationOf(invoice: StoredInvoice, verdict: SunatVerdict, checkedAt: string) {
  return {
    certStatus: verdict.certStatus,
    statusMessage:
      verdict.certStatus === 'INVALID'
        ? verdict.reason
        : invoice.statusMessage === SUNAT_FAILURE_MESSAGE
          ? null
          : invoice.statusMessage,
    sunat: {
      estadoCp: verdict.estadoCp,
      estadoRuc: verdict.estadoRuc,
      condDomiRuc: verdict.condDomiRuc,
      observaciones: verdict.observaciones,
      checkedAt,
    },
  } satisfies Pick<Invoice, 'certStatus' | 'statusMessage' | 'sunat'>;
}

/** The notice of a verdict, to commit with it. */
export function verdictNoticeOf(
  invoice: Invoice,
  checkedAt: string,
  channel: SunatValidationMessage['channel'],
  now: Date,
): OutgoingMessage {
  // The moment SUNAT answered makes a notice sent again the same notice (one feed item, one e-mail).
  const valid = invoice.certStatus === 'VALID';
  const body = notificationAbout(
    valid ? 'SUNAT_VALID' : 'SUNAT_INVALID',
    invoice,
    valid ? null : invoice.statusMessage,
    new Date(checkedAt),
  );
  // A confirmation of a document that came in a group is the group's (one notice per group); a refusal is told on
  // its own, since the supplier must act on it.
  return outgoingMessage('notifications', valid && channel ? { ...body, channel } : body, now);
}

/**
 * The supplier's CDR judged beside SUNAT's answer (rules/cdr.ts): a verdict SUNAT's check contradicts is flagged on
 * the invoice and told to staff in the same write; the CDR never changes certStatus.
 */
export function cdrBesideVerdict(
  invoice: Invoice,
  checkedAt: string,
  now: Date,
): { change: Pick<Invoice, 'supplierCdr'> | Record<string, never>; notices: OutgoingMessage[] } {
  const kept = invoice.supplierCdr;
  if (!kept) return { change: {}, notices: [] };
  const identity = (kept.contradiction?.reasons ?? []).filter(
    (reason) => !CDR_VERDICT_CONTRADICTIONS.includes(reason.kind),
  );
  const verdict = cdrVerdictReasons(kept, invoice);
  const reasons = [...verdict, ...identity];
  const contradiction = reasons.length > 0 ? { reasons, flaggedAt: kept.contradiction?.flaggedAt ?? checkedAt } : null;
  const notices = verdict.length > 0 ? [cdrContradictionNotice(invoice, verdict, new Date(checkedAt), now)] : [];
  return { change: { supplierCdr: { ...kept, contradiction } }, notices };
}

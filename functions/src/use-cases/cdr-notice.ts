import { notificationAbout } from '@portal/shared';
import { outgoingMessage, type OutgoingMessage } from '../repositories/outgoing.js';

/**
 * Staff's CDR_CONTRADICTION notice: the supplier's CDR says what SUNAT or the document does not (another acquirer, a
 * verdict SUNAT's check contradicts), each reason told; dated when it was found (`at`), committed with the change.
 */
export function cdrContradictionNotice(
  invoice: Parameters<typeof notificationAbout>[1],
  reasons: readonly { readonly message: string }[],
  at: Date,
  now: Date,
): OutgoingMessage {
  const detail = reasons.map((reason) => reason.message).join(' ');
  return outgoingMessage('notifications', notificationAbout('CDR_CONTRADICTION', invoice, detail, at), now);
}

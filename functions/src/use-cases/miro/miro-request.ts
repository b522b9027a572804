import { keys, type InvoiceType, type MiroRequestMessage } from '@portal/shared';
import { outgoingMessage, type OutgoingMessage } from '../../repositories/outgoing.js';

/** The invoice a MIRO request names. */
export interface MiroRequestSubject {
  readonly supplierId: string;
  readonly type: InvoiceType;
  readonly id: string;
}

/**
 * What is posted to SAP for an approval, as the MIRO queue carries it: the invoice and its outbox record. Built here
 * for the approval, an administrator's retry and the sweeper's re-send alike.
 */
export function miroRequestOf(invoice: MiroRequestSubject): MiroRequestMessage {
  return {
    supplierId: invoice.supplierId,
    invoiceType: invoice.type,
    invoiceId: invoice.id,
    outboxKey: keys.miroOutbox(invoice.supplierId, invoice.type, invoice.id).pk,
  };
}

/** The MIRO request as an outgoing message, to commit with the change that asks for the posting. */
export function miroRequestMessage(invoice: MiroRequestSubject, now: Date): OutgoingMessage {
  return outgoingMessage('miroRequests', miroRequestOf(invoice), now);
}

import { INVOICE_TYPE_LABELS } from '../domain.js';
import { counted, formatCount, formatDate, sentenceEnd } from '../format.js';
import type { NotificationEvent, NotificationMessage } from '../schemas/messages.js';
import type { Invoice } from '../schemas/invoices.js';

/** The events that tell when the invoice is expected to be paid: its reception and its approval. */
const EXPECTED_PAYMENT_EVENTS: readonly NotificationEvent[] = ['INVOICE_RECEIVED', 'INVOICE_APPROVED'];

/**
 * How an event reaches one audience (ADR 0039): an e-mail at once ('IMMEDIATE'), a line of the daily digest
 * ('DIGEST', staff only: «Resumen diario» at 07:00 Lima), or the feed alone ('FEED_ONLY'). Every event of an audience
 * is written to its feed at once, whatever its delivery.
 */
export type Delivery = 'IMMEDIATE' | 'DIGEST' | 'FEED_ONLY';

/** The two audiences of an invoice's events: the supplier's users and the company's staff. */
export type NotificationAudience = 'supplier' | 'client';

/**
 * The notification policy, in one place: for each event, how each audience gets it (null: not told at all). The
 * staff get the routine events of their company's day in one digest; what needs a person now stays an e-mail. The
 * supplier is e-mailed what it must know or act on; SUNAT's confirmation and the scheduling of a payment are in its
 * feed only (the receipt and the approval already say the expected payment, the payment's e-mail that it is paid).
 */
const POLICY: Record<NotificationEvent, Record<NotificationAudience, Delivery | null>> = {
  INVOICE_RECEIVED: { supplier: 'IMMEDIATE', client: 'DIGEST' },
  SUNAT_VALID: { supplier: 'FEED_ONLY', client: 'DIGEST' },
  SUNAT_INVALID: { supplier: 'IMMEDIATE', client: 'DIGEST' },
  INVOICE_APPROVED: { supplier: 'IMMEDIATE', client: null },
  INVOICE_REJECTED: { supplier: 'IMMEDIATE', client: null },
  PAYMENT_SCHEDULED: { supplier: 'FEED_ONLY', client: null },
  INVOICE_PAID: { supplier: 'IMMEDIATE', client: 'DIGEST' },
  MIRO_FAILED: { supplier: null, client: 'IMMEDIATE' },
  ACQUIRER_CONFORMITY_DUE_SOON: { supplier: null, client: 'IMMEDIATE' },
  ACQUIRER_CONFORMITY_DUE_TODAY: { supplier: null, client: 'IMMEDIATE' },
  ACQUIRER_CONFORMITY_PRESUMED: { supplier: 'IMMEDIATE', client: 'DIGEST' },
  ACQUIRER_CONFORMITY_REGISTERED: { supplier: 'IMMEDIATE', client: null },
  ACQUIRER_DISCONFORMITY_REGISTERED: { supplier: 'IMMEDIATE', client: null },
  INVOICE_OBSERVED: { supplier: 'IMMEDIATE', client: null },
  INVOICE_MESSAGE_FROM_STAFF: { supplier: 'IMMEDIATE', client: null },
  INVOICE_MESSAGE_FROM_SUPPLIER: { supplier: null, client: 'IMMEDIATE' },
  CDR_CONTRADICTION: { supplier: null, client: 'IMMEDIATE' },
};

/** Who reads an event in the portal: the supplier's users, the company's staff, or both. */
export function audiencesOf(event: NotificationEvent): { supplier: boolean; client: boolean } {
  return { supplier: POLICY[event].supplier !== null, client: POLICY[event].client !== null };
}

/** How an audience gets an event; null when the event is not for it. */
export function deliveryOf(event: NotificationEvent, audience: NotificationAudience): Delivery | null {
  return POLICY[event][audience];
}

/** The staff's events told in the daily digest, in the order the digest counts them. */
export const DIGEST_EVENTS: readonly NotificationEvent[] = (Object.keys(POLICY) as NotificationEvent[]).filter(
  (event) => POLICY[event].client === 'DIGEST',
);

/** The digest's count of one kind of event (es-PE): «12 comprobantes recibidos», «1 no válido en SUNAT». */
export function digestCountText(event: NotificationEvent, count: number): string {
  switch (event) {
    case 'INVOICE_RECEIVED':
      return counted(count, { one: 'comprobante recibido', other: 'comprobantes recibidos' });
    case 'SUNAT_VALID':
      return `${counted(count, { one: 'válido', other: 'válidos' })} en SUNAT`;
    case 'SUNAT_INVALID':
      return counted(count, { one: 'no válido en SUNAT', other: 'no válidos en SUNAT' });
    case 'INVOICE_PAID':
      return counted(count, { one: 'pagado', other: 'pagados' });
    case 'ACQUIRER_CONFORMITY_PRESUMED':
      return `${formatCount(count)} con conformidad presunta (Ley 29623)`;
    default:
      return counted(count, { one: 'aviso', other: 'avisos' });
  }
}

/** What happened to one invoice in the digest's list (es-PE, lower case): «recibido», «válido en SUNAT». */
export function digestEventWord(event: NotificationEvent): string {
  switch (event) {
    case 'INVOICE_RECEIVED':
      return 'recibido';
    case 'SUNAT_VALID':
      return 'válido en SUNAT';
    case 'SUNAT_INVALID':
      return 'no válido en SUNAT';
    case 'INVOICE_PAID':
      return 'pagado';
    case 'ACQUIRER_CONFORMITY_PRESUMED':
      return 'conformidad presunta';
    default:
      return 'aviso';
  }
}

/** The Spanish sentence a person reads in the feed and in the e-mail. */
export function notificationText(message: NotificationMessage): string {
  return sentenceEnd(notificationBody(message));
}

function notificationBody(message: NotificationMessage): string {
  const document = `${INVOICE_TYPE_LABELS[message.invoiceType].toLowerCase()} ${message.invoiceId}`;
  const detail = message.detail ?? '';
  switch (message.event) {
    case 'INVOICE_RECEIVED':
      return `${sentenceEnd(`Se recibió la ${document} de ${message.supplierName} para ${message.clientName}`)}${expectedPayment(message)}`;
    case 'SUNAT_VALID':
      return sentenceEnd(`SUNAT confirmó la validez de la ${document} de ${message.supplierName}`);
    case 'SUNAT_INVALID':
      return sentenceEnd(`SUNAT no validó la ${document} de ${message.supplierName}${detail ? `: ${detail}` : ''}`);
    case 'INVOICE_APPROVED':
      return `${message.clientName} aprobó la ${document}.${expectedPayment(message)}`;
    case 'INVOICE_REJECTED':
      return `${message.clientName} rechazó la ${document}.${detail ? ` Motivo: ${sentenceEnd(detail)}` : ''}${rejectionOutcome(message.retryAllowed)}`;
    case 'PAYMENT_SCHEDULED':
      return `${message.clientName} programó el pago de la ${document}${detail ? ` para el ${formatDate(detail)}` : ''}.`;
    case 'INVOICE_PAID':
      return `${message.clientName} pagó la ${document}${detail ? ` el ${formatDate(detail)}` : ''}${remittance(message)}.`;
    case 'MIRO_FAILED':
      return sentenceEnd(
        `No se pudo registrar en SAP la ${document} de ${message.supplierName}${detail ? `: ${detail}` : ''}`,
      );
    case 'ACQUIRER_CONFORMITY_DUE_SOON':
      return `Quedan 2 días para expresar en la Plataforma de Confirmación de SUNAT la conformidad o disconformidad de ${message.clientName} con la ${document} de ${message.supplierName}: el plazo vence el ${formatDate(detail)}. Sin respuesta, la conformidad se presume (Ley 29623).`;
    case 'ACQUIRER_CONFORMITY_DUE_TODAY':
      return `${sentenceEnd(`Hoy ${formatDate(detail)} vence el plazo para expresar en la Plataforma de Confirmación de SUNAT la conformidad o disconformidad de ${message.clientName} con la ${document} de ${message.supplierName}`)} Sin respuesta, la conformidad se presume (Ley 29623).`;
    case 'ACQUIRER_CONFORMITY_PRESUMED':
      return `Venció el ${formatDate(detail)} el plazo sin respuesta de ${message.clientName}: se presume su conformidad con la ${document} de ${message.supplierName} (Ley 29623).`;
    case 'ACQUIRER_CONFORMITY_REGISTERED':
      return `${message.clientName} registró su conformidad con la ${document} (Ley 29623).`;
    case 'ACQUIRER_DISCONFORMITY_REGISTERED':
      return `${message.clientName} registró su disconformidad con la ${document} (Ley 29623)${detail ? `. ${sentenceEnd(detail)}` : '.'}`;
    case 'INVOICE_OBSERVED':
      return `${message.clientName} observó la ${document}${quoted(detail)}. Responda desde el portal para levantar la observación.`;
    case 'INVOICE_MESSAGE_FROM_STAFF':
      return `${message.clientName} le escribió sobre la ${document}${quoted(detail)}.`;
    case 'INVOICE_MESSAGE_FROM_SUPPLIER':
      return `${message.supplierName} escribió sobre la ${document}${quoted(detail)}.`;
    case 'CDR_CONTRADICTION':
      return sentenceEnd(
        `La constancia de recepción (CDR) que ${message.supplierName} envió con la ${document} no concuerda con SUNAT ni con el comprobante${detail ? `: ${detail}` : ''}`,
      );
  }
}

/** ': «…»' with a message's excerpt (plain text: the feed and the e-mail escape it). */
function quoted(detail: string): string {
  return detail ? `: «${detail}»` : '';
}

/** ' Fecha de pago estimada: 20/03/26.' when the portal expects a payment (docs/ap-payment.md). */
function expectedPayment(message: NotificationMessage): string {
  return message.expectedPaymentDate ? ` Fecha de pago estimada: ${formatDate(message.expectedPaymentDate)}.` : '';
}

/** ' (documento de pago 2000000123, Transferencia bancaria)': SAP's remittance of a payment. */
function remittance(message: NotificationMessage): string {
  const paid = message.remittance;
  return paid ? ` (documento de pago ${paid.document}, ${paid.methodName})` : '';
}

/** What the supplier may do after a rejection (spec §4: definitive, unless the rejecter allowed a retry). */
function rejectionOutcome(retryAllowed: boolean | undefined): string {
  if (retryAllowed === undefined) return '';
  return retryAllowed
    ? ' Puede corregir y volver a enviar el comprobante desde el portal.'
    : ' El rechazo es definitivo: el comprobante no puede volver a enviarse.';
}

/** Subject line of the e-mail for an event. */
export function notificationSubject(message: NotificationMessage): string {
  return `Portal de Proveedores · ${INVOICE_TYPE_LABELS[message.invoiceType]} ${message.invoiceId}`;
}

/** The event message about an invoice, as every producer (review, intake, workers, jobs) sends it. */
export function notificationAbout(
  event: NotificationEvent,
  invoice: Pick<Invoice, 'supplierId' | 'supplierName' | 'client' | 'clientName' | 'type' | 'id'> &
    Partial<Pick<Invoice, 'payment' | 'remittance'>>,
  detail: string | null,
  occurredAt: Date,
): NotificationMessage {
  const payment = invoice.payment;
  return {
    ...(payment?.expectedPaymentDate && EXPECTED_PAYMENT_EVENTS.includes(event)
      ? { expectedPaymentDate: payment.expectedPaymentDate }
      : {}),
    ...(event === 'INVOICE_PAID' && invoice.remittance
      ? { remittance: { document: invoice.remittance.document, methodName: invoice.remittance.methodName } }
      : {}),
    event,
    supplierId: invoice.supplierId,
    supplierName: invoice.supplierName,
    client: invoice.client,
    clientName: invoice.clientName,
    invoiceType: invoice.type,
    invoiceId: invoice.id,
    detail,
    occurredAt: occurredAt.toISOString(),
  };
}

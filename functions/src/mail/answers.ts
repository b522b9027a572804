import {
  INBOUND_MAIL,
  counted,
  formatCount,
  intakeAddress,
  invoicePageUrl,
  plural,
  sentenceEnd,
  type Invoice,
} from '@portal/shared';
import type { Email } from '../adapters/email.js';
import type { MailRefusedError } from './attachments.js';

/** What an answer names of a registered invoice: its number, its link and the company it was registered for. */
export type RegisteredInvoice = Pick<Invoice, 'id' | 'supplierId' | 'type' | 'clientName'>;

/** What became of one document of the message, as its answer tells it (and its record keeps it, for a resume). */
export type DocumentResult =
  | {
      readonly base: string;
      readonly kind: 'ACCEPTED';
      readonly invoice: RegisteredInvoice;
      readonly cdrWarning: string | null;
    }
  | { readonly base: string; readonly kind: 'ALREADY_EXISTS'; readonly invoiceId: string; readonly message: string }
  | { readonly base: string; readonly kind: 'REFUSED'; readonly message: string };

/** Why a whole message was not taken: what its answer says to do. */
export type MessageRefusal =
  | { readonly kind: 'UNKNOWN_SENDER' }
  /** The envelope's sender is not the From, nor another address of the same supplier. */
  | { readonly kind: 'SENDER_MISMATCH'; readonly envelope: string }
  | { readonly kind: 'UNKNOWN_ADDRESS' }
  | { readonly kind: 'FILES'; readonly reason: MailRefusedError['reason']; readonly detail: string };

/** An answer as the processed-message record keeps it until it is sent. */
export interface StoredAnswer {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

const SIGNATURE = '\n\nPortal de Proveedores\nEste mensaje se envió automáticamente; no responda a esta dirección.';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The e-mail of a stored answer: its text, and the same as paragraphs (links made clickable). */
export function emailOf(answer: StoredAnswer): Email {
  const html = answer.text
    .split('\n\n')
    .map(
      (paragraph) =>
        `<p>${escapeHtml(paragraph)
          .replace(/\n/g, '<br>')
          .replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>')}</p>`,
    )
    .join('');
  return { to: answer.to, subject: answer.subject, text: answer.text, html };
}

const reSubject = (subject: string) => (subject ? `Re: ${subject}` : 'Su envío de comprobantes por correo');

/** One line per document: registered (with its link), existing or refused. */
function resultLines(results: readonly DocumentResult[], portalUrl: string | null): string[] {
  return results.map((result) => {
    switch (result.kind) {
      case 'ACCEPTED': {
        const url = portalUrl
          ? invoicePageUrl(portalUrl, {
              supplierId: result.invoice.supplierId,
              invoiceType: result.invoice.type,
              invoiceId: result.invoice.id,
            })
          : null;
        return `• ${result.invoice.id}: registrado para ${sentenceEnd(result.invoice.clientName)}${url ? ` Véalo en ${url}` : ''}${
          result.cdrWarning ? `\n  Aviso sobre el CDR: ${result.cdrWarning}` : ''
        }`;
      }
      case 'ALREADY_EXISTS':
        return `• ${result.invoiceId}: ya estaba registrado en el portal; no se registró de nuevo.`;
      case 'REFUSED':
        return `• ${result.base}: no se registró. ${result.message}`;
    }
  });
}

/** Said of a message whose processing stopped (a crash) and was taken up again by another run. */
const RESUMED_NOTE =
  'El procesamiento de su correo se interrumpió y se reanudó; cada comprobante se registró una sola vez.';

/** The answer to a registered supplier: one line per document, registered (with its link), existing or refused. */
export function resultAnswer(options: {
  readonly to: string;
  readonly subject: string;
  readonly results: readonly DocumentResult[];
  readonly portalUrl: string | null;
  /** The message's processing was taken up again after a run stopped. */
  readonly resumed?: boolean;
}): StoredAnswer {
  const { results, portalUrl } = options;
  const accepted = results.filter((result) => result.kind === 'ACCEPTED').length;
  const lines = resultLines(results, portalUrl);
  const summary =
    accepted === results.length
      ? `Se ${plural(accepted, { one: 'registró su comprobante', other: `registraron sus ${formatCount(accepted)} comprobantes` })} en el Portal de Proveedores.`
      : `Recibimos su correo con ${counted(results.length, { one: 'comprobante', other: 'comprobantes' })}; se ${registered(accepted)}. Este es el detalle:`;
  return {
    to: options.to,
    subject: reSubject(options.subject),
    text: `${summary}\n\n${lines.join('\n')}${options.resumed ? `\n\n${RESUMED_NOTE}` : ''}${SIGNATURE}`,
  };
}

/** 'registró 1', 'registraron 3': the verb agrees with how many were registered. */
const registered = (accepted: number) =>
  `${plural(accepted, { one: 'registró', other: 'registraron' })} ${formatCount(accepted)}`;

const remainder = (left: number) =>
  left <= 0
    ? ''
    : plural(left, {
        one: 'El comprobante restante no se registró.',
        other: `Los ${formatCount(left)} comprobantes restantes no se registraron.`,
      });

/**
 * The answer to a supplier whose message could not be processed to its end (its runs kept stopping): what was
 * registered before, and that the rest was not, with what to do. Sending the same e-mail again is safe: what was
 * registered is told as already registered.
 */
export function failedAnswer(options: {
  readonly to: string;
  readonly subject: string;
  /** The documents the message holds. */
  readonly total: number;
  /** The results recorded before it stopped, in the message's order. */
  readonly results: readonly DocumentResult[];
  readonly portalUrl: string | null;
}): StoredAnswer {
  const { results, total } = options;
  const accepted = results.filter((result) => result.kind === 'ACCEPTED').length;
  const portal = options.portalUrl ? ` (${options.portalUrl})` : '';
  const done =
    results.length === 0
      ? ['No se registró ninguno de sus comprobantes.']
      : [
          `Antes de interrumpirse se ${registered(accepted)} de ${formatCount(total)}; ` +
            'este es el detalle de lo procesado:',
          resultLines(results, options.portalUrl).join('\n'),
          remainder(total - results.length),
        ];
  return {
    to: options.to,
    subject: reSubject(options.subject),
    text:
      `No pudimos terminar de procesar su correo: su procesamiento se interrumpió varias veces. ` +
      `${done.filter((paragraph) => paragraph !== '').join('\n\n')}\n\n` +
      `Qué hacer: envíe el correo de nuevo (lo ya registrado se le indicará como ya registrado, sin duplicarse) o ` +
      `cargue los XML en el portal${portal} con «Cargar XML».${SIGNATURE}`,
  };
}

/** The answer to a message not taken: what happened and what to do, nothing registered. */
export function refusalAnswer(options: {
  readonly to: string;
  readonly subject: string;
  readonly refusal: MessageRefusal;
  readonly intakeDomain: string;
  readonly portalUrl: string | null;
}): StoredAnswer {
  const { refusal } = options;
  const portal = options.portalUrl ? ` (${options.portalUrl})` : '';
  const example = intakeAddress(options.intakeDomain, '20123456789');
  let body: string;
  switch (refusal.kind) {
    case 'UNKNOWN_SENDER':
      body =
        `No registramos los comprobantes de su correo: la dirección ${options.to} no pertenece a ninguna cuenta de ` +
        `proveedor del Portal de Proveedores.\n\nQué hacer: envíe el correo desde la dirección de su cuenta del portal, ` +
        `o cargue el XML en el portal${portal} con «Cargar XML». Si su empresa aún no tiene cuenta, pida el alta al ` +
        `área de cuentas por pagar de la empresa a la que factura.`;
      break;
    case 'SENDER_MISMATCH':
      body =
        `No registramos los comprobantes de su correo: llegó a nombre de ${options.to}, pero lo envió ` +
        `${refusal.envelope}, que no es una dirección de su empresa en el Portal de Proveedores.\n\nQué hacer: ` +
        `envíelo directamente desde la dirección de su cuenta del portal, sin servicios de reenvío ni listas de ` +
        `distribución, o cargue el XML en el portal${portal} con «Cargar XML».`;
      break;
    case 'UNKNOWN_ADDRESS':
      body =
        `No registramos los comprobantes de su correo: la dirección a la que lo envió no es la de recepción de ` +
        `ninguna empresa del grupo.\n\nQué hacer: envíelo a la dirección de la empresa a la que factura, con la forma ` +
        `${example} (su RUC en lugar del ejemplo); la encontrará en el portal${portal}, junto a «Cargar XML».`;
      break;
    case 'FILES':
      body =
        `No registramos nada de su correo: ${refusal.detail}\n\nQué hacer: adjunte el XML de cada comprobante con su ` +
        `PDF del mismo nombre (y, si lo tiene, el CDR de SUNAT como R-<nombre>.xml o R-<nombre>.zip), o todos juntos ` +
        `en un ZIP; hasta ${INBOUND_MAIL.maxAttachments} adjuntos y ${INBOUND_MAIL.maxMessageBytes / 1024 / 1024} MB ` +
        `por correo. No adjunte otros tipos de archivo.`;
      break;
  }
  return { to: options.to, subject: reSubject(options.subject), text: `${body}${SIGNATURE}` };
}

import type { InboundMailMessage } from '@portal/shared';
import type { DocumentResult } from '../../mail/answers.js';
import type { MailDocument } from '../../mail/attachments.js';
import type { InboundMailDeps, MailCaller, SenderAccount } from './inbound-mail-deps.js';

/**
 * The sender's supplier account as the caller its documents are registered as: signed in by e-mail, acting for the
 * RUC that issued the document when it has several (as the company header chooses).
 */
function mailCallerOf(message: InboundMailMessage, sender: SenderAccount, issuer: string | null): MailCaller {
  return {
    sub: sender.userId,
    username: sender.userId,
    email: sender.email,
    firstName: sender.firstName,
    lastName: sender.lastName,
    level: 'SUPPLIER',
    taxIds: sender.taxIds,
    groups: [],
    activeCompany: issuer !== null && sender.taxIds.includes(issuer) ? issuer : sender.taxIds[0]!,
    expiresAt: 0,
    signIn: 'EMAIL',
    txId: message.messageId,
  };
}

/**
 * One document of a message: refused when its files were, or when it is issued to another company than the intake
 * address's; otherwise registered as 'Cargar XML' would, and its fate told.
 */
export async function mailDocumentResult(
  deps: Pick<InboundMailDeps, 'partiesOf' | 'fromFiles'>,
  message: InboundMailMessage,
  sender: SenderAccount,
  company: string,
  document: MailDocument,
): Promise<DocumentResult> {
  if (!document.ok) return { base: document.base, kind: 'REFUSED', message: document.message };
  const parties = deps.partiesOf(document.xml.bytes);
  const customer = parties?.customer ?? null;
  if (customer !== null && customer !== company) {
    return {
      base: document.base,
      kind: 'REFUSED',
      message:
        `El comprobante está emitido al RUC ${customer}, pero se envió a la dirección de recepción del RUC ` +
        `${company}. Envíelo a la dirección de la empresa a la que factura.`,
    };
  }
  const outcome = await deps.fromFiles(mailCallerOf(message, sender, parties?.supplier ?? null), {
    sourceKey: `mail/${message.messageId}/${document.base}`,
    channel: 'EMAIL',
    xml: document.xml,
    ...(document.pdf ? { pdf: document.pdf } : {}),
    ...(document.cdr ? { cdr: document.cdr } : {}),
  });
  switch (outcome.outcome) {
    case 'ACCEPTED': {
      const { id, supplierId, type, clientName } = outcome.invoice;
      return {
        base: document.base,
        kind: 'ACCEPTED',
        invoice: { id, supplierId, type, clientName },
        cdrWarning: outcome.cdrWarning,
      };
    }
    case 'ALREADY_EXISTS':
      return {
        base: document.base,
        kind: 'ALREADY_EXISTS',
        invoiceId: outcome.invoiceId,
        message: outcome.message,
      };
    case 'REFUSED':
      return { base: document.base, kind: 'REFUSED', message: outcome.message };
  }
}

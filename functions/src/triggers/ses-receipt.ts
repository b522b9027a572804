import { BUCKETS, INBOUND_MAIL, InboundMailMessage, QUEUES } from '@portal/shared';
import { queueFromEnv } from '../adapters/sqs.js';
import { verdictsFromSes, type SesMail, type SesReceipt } from '../mail/verdicts.js';
import { logger } from '../observability/logger.js';
import { observed } from '../observability/observed.js';

/** The part of SES's Lambda-action event this function reads (one record per received message). */
export interface SesReceiptEvent {
  readonly Records: readonly {
    readonly ses: {
      readonly mail: SesMail & { readonly messageId: string };
      readonly receipt: SesReceipt & { readonly recipients: readonly string[] };
    };
  }[];
}

const queue = queueFromEnv(QUEUES.inboundMail.env);

/**
 * SES's receipt rule, second action (docs/adr/0035-mail-intake.md): the first wrote the raw message to
 * inbound-mail/<messageId> of the inbound-mail bucket; this one hands the inboundMail queue the message with SES's
 * verdicts, where the worker the local stage runs too takes it over.
 */
export async function receive(
  event: SesReceiptEvent,
  send = queue.send,
  bucket = process.env[BUCKETS.inboundMail.env],
) {
  if (!bucket) throw new Error(`${BUCKETS.inboundMail.env} is not set`);
  for (const record of event.Records) {
    const { mail, receipt } = record.ses;
    const message = InboundMailMessage.parse({
      messageId: mail.messageId,
      bucket,
      key: `${INBOUND_MAIL.prefix}${mail.messageId}`,
      recipients: receipt.recipients,
      envelopeSender: mail.source ?? '',
      verdicts: verdictsFromSes(receipt, mail),
    });
    logger.info('Inbound e-mail received', { messageId: message.messageId, verdicts: message.verdicts });
    await send(message);
  }
}

export const handler = observed((event: SesReceiptEvent) => receive(event));

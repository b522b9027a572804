import { InboundMailMessage } from '@portal/shared';
import { observed } from '../observability/observed.js';
import { inboundMail, inboundMailBucket } from '../use-cases/inbound-mail.factory.js';
import { sqsBatchHandler } from './sqs-batch.js';

/**
 * Consumer of the inbound-mail queue (issue 24, docs/adr/0035-mail-intake.md): one received e-mail per message. A
 * failure (DynamoDB, S3, SES down) is left for redelivery; the processed-message record makes a redelivery register
 * and answer nothing twice.
 */
export const handler = observed(
  sqsBatchHandler(InboundMailMessage, async (message) => {
    if (message.bucket !== inboundMailBucket) throw new Error(`inbound e-mail in an unknown bucket: ${message.bucket}`);
    await inboundMail.process(message);
  }),
);

import { InboundMailMessage, QUEUES } from '@portal/shared';
import { observed } from '../observability/observed.js';
import { inboundMailBucket, inboundMailDeps } from '../use-cases/inbound-mail/inbound-mail.factory.js';
import { processInboundMail } from '../use-cases/inbound-mail/process-inbound-mail.js';
import { sqsBatchHandler } from './sqs-batch.js';

/**
 * Consumer of the inbound-mail queue (docs/adr/0035-mail-intake.md): one received e-mail per message. A failure
 * (DynamoDB, S3, SES down) is left for redelivery, which resumes where the message's record says it was; on the last
 * delivery the message ends FAILED and its sender is told what was registered.
 */
export const handler = observed(
  sqsBatchHandler(InboundMailMessage, async (message, record) => {
    if (message.bucket !== inboundMailBucket) throw new Error(`inbound e-mail in an unknown bucket: ${message.bucket}`);
    const lastAttempt = Number(record.attributes.ApproximateReceiveCount) >= QUEUES.inboundMail.maxReceiveCount;
    await processInboundMail(inboundMailDeps, message, lastAttempt);
  }),
);

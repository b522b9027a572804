import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '../observability/logger.js';
import { outgoingIdOf, type Outgoing, type QueueKey } from '../repositories/outgoing.js';

type BatchHandler = (event: SQSEvent, context?: Context) => Promise<SQSBatchResponse>;

/**
 * Wraps a queue consumer: each message it handled (not among the batch item failures) that came from
 * the outbox (it carries its outgoing id) is acknowledged, so the outbox sweeper stops sending it. A
 * message whose acknowledgement fails is only sent again later; consumers are idempotent.
 */
export function acknowledgingOutgoing(
  queue: QueueKey,
  outgoing: Pick<Outgoing, 'acknowledge'>,
  handler: BatchHandler,
): BatchHandler {
  return async (event, context) => {
    const answer = await handler(event, context);
    const failed = new Set(answer.batchItemFailures.map((failure) => failure.itemIdentifier));
    await Promise.all(
      event.Records.filter((record) => !failed.has(record.messageId)).map(async (record) => {
        const id = outgoingIdOf(record.body);
        if (!id) return;
        try {
          await outgoing.acknowledge(queue, id);
        } catch (error) {
          logger.error('outgoing message not acknowledged; it will be sent again', error as Error);
        }
      }),
    );
    return answer;
  };
}

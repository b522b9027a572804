import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '../observability/logger.js';
import { outgoingIdOf, type Outgoing, type QueueKey } from '../repositories/outgoing.js';

type BatchHandler = (event: SQSEvent, context?: Context) => Promise<SQSBatchResponse>;

/**
 * Wraps a queue consumer: each message it handled (not among the batch item failures) that came from
 * the outbox (it carries its outgoing id) is acknowledged, the batch's together, so the outbox sweeper stops
 * sending it. A message whose acknowledgement fails is only sent again later; consumers are idempotent.
 */
export function acknowledgingOutgoing(
  queue: QueueKey,
  outgoing: Pick<Outgoing, 'acknowledgeAll'>,
  handler: BatchHandler,
): BatchHandler {
  return async (event, context) => {
    const answer = await handler(event, context);
    const failed = new Set(answer.batchItemFailures.map((failure) => failure.itemIdentifier));
    const ids = event.Records.filter((record) => !failed.has(record.messageId)).flatMap((record) => {
      const id = outgoingIdOf(record.body);
      return id ? [id] : [];
    });
    if (ids.length === 0) return answer;
    // The whole batch's acknowledgements in one write (one write per batch), not a delete per message.
    try {
      await outgoing.acknowledgeAll(queue, ids);
    } catch (error) {
      logger.error('outgoing messages not acknowledged; they will be sent again', error as Error);
    }
    return answer;
  };
}

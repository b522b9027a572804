import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type * as z from 'zod/mini';
import { logger } from '../observability/logger.js';

/**
 * The shape every worker shares: each record parsed with its message schema and handled on its own;
 * a record that fails — or cannot be parsed (a poison message) — is reported as a batch item
 * failure, so SQS redelivers it after the visibility timeout and moves it to the DLQ at the end.
 */
export function sqsBatchHandler<T extends z.ZodMiniType>(
  schema: T,
  handle: (message: z.output<T>, record: SQSRecord) => Promise<void>,
) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      const log = logger.createChild({
        persistentKeys: { messageId: record.messageId, receiveCount: record.attributes.ApproximateReceiveCount },
      });
      try {
        const parsed = schema.safeParse(JSON.parse(record.body));
        if (!parsed.success) throw new Error(`poison message: ${parsed.error.message}`);
        await handle(parsed.data, record);
      } catch (error) {
        log.error('message failed; left for redelivery', error as Error);
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures };
  };
}

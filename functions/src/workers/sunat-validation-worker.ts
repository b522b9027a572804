import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { SunatValidationMessage } from '@portal/shared';
import { recordSunatVerdict } from '../use-cases/sunat/record-sunat-verdict.js';
import { describe, type SunatValidationDeps } from '../use-cases/sunat/sunat-validation-deps.js';

/**
 * Consumer of the SUNAT queue. For each message: parse it (a malformed one is a poison message: reported as failed,
 * it ends in the DLQ), then record SUNAT's verdict on its invoice (record-sunat-verdict.ts); a failure is reported so
 * that the message is delivered again. Records are handled concurrently, so one slow SUNAT answer does not hold back
 * the batch.
 */
export function makeSunatValidationWorker(deps: SunatValidationDeps) {
  const { log } = deps;

  async function handleRecord(record: SQSRecord): Promise<void> {
    let message: SunatValidationMessage;
    try {
      message = SunatValidationMessage.parse(JSON.parse(record.body));
    } catch (error) {
      log.error('poison message: not a SunatValidationMessage; it will end in the DLQ', {
        messageId: record.messageId,
        receiveCount: record.attributes.ApproximateReceiveCount,
        body: record.body.slice(0, 1000),
        detail: describe(error),
      });
      throw error;
    }
    try {
      const receiveCount = Number(record.attributes.ApproximateReceiveCount) || 1;
      await recordSunatVerdict(deps, message, { messageId: record.messageId, receiveCount });
    } catch (error) {
      log.error('message failed; left for redelivery', {
        messageId: record.messageId,
        receiveCount: record.attributes.ApproximateReceiveCount,
        ...message,
        detail: describe(error),
      });
      throw error;
    }
  }

  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const results = await Promise.allSettled(event.Records.map(handleRecord));
    return {
      batchItemFailures: event.Records.filter((_, i) => results[i]?.status === 'rejected').map((record) => ({
        itemIdentifier: record.messageId,
      })),
    };
  };
}

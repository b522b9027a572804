import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { acknowledgingOutgoing } from './acknowledge.js';

const record = (messageId: string, body: unknown) => ({ messageId, body: JSON.stringify(body) });

describe('acknowledging outgoing messages', () => {
  it('acknowledges each handled message that came from the outbox, not the failed ones nor the others', async () => {
    const acknowledged: string[][] = [];
    const handler = acknowledgingOutgoing(
      'notifications',
      { acknowledgeAll: async (queue, ids) => void acknowledged.push(ids.map((id) => `${queue}/${id}`)) },
      async (): Promise<SQSBatchResponse> => ({ batchItemFailures: [{ itemIdentifier: 'm2' }] }),
    );
    const event = {
      Records: [
        record('m1', { event: 'X', outgoingId: 'a' }),
        record('m2', { event: 'X', outgoingId: 'b' }),
        record('m3', { event: 'X' }),
        { messageId: 'm4', body: 'not json' },
        record('m5', { event: 'X', outgoingId: 'c' }),
      ],
    } as unknown as SQSEvent;
    expect(await handler(event)).toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }] });
    // The batch's handled messages in one acknowledgement.
    expect(acknowledged).toEqual([['notifications/a', 'notifications/c']]);
  });

  it('writes nothing when no handled message came from the outbox', async () => {
    const acknowledged: string[][] = [];
    const handler = acknowledgingOutgoing(
      'notifications',
      { acknowledgeAll: async (_queue, ids) => void acknowledged.push([...ids]) },
      async (): Promise<SQSBatchResponse> => ({ batchItemFailures: [{ itemIdentifier: 'm1' }] }),
    );
    const event = { Records: [record('m1', { outgoingId: 'a' }), record('m2', {})] } as unknown as SQSEvent;
    await handler(event);
    expect(acknowledged).toEqual([]);
  });

  it('keeps the answer when an acknowledgement fails (the message is only sent again)', async () => {
    const handler = acknowledgingOutgoing(
      'miroRequests',
      { acknowledgeAll: async () => Promise.reject(new Error('DynamoDB caído')) },
      async () => ({ batchItemFailures: [] }),
    );
    const event = { Records: [record('m1', { outgoingId: 'a' })] } as unknown as SQSEvent;
    expect(await handler(event)).toEqual({ batchItemFailures: [] });
  });
});

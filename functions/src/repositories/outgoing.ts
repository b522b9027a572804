import { randomUUID } from 'node:crypto';
import { DeleteCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { QUEUES, TABLE, keys } from '@portal/shared';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Queue } from '../adapters/sqs.js';

export type QueueKey = keyof typeof QUEUES;

export interface OutgoingMessage {
  readonly queue: QueueKey;
  readonly id: string;
  readonly body: unknown;
  readonly createdAt: string;
}

/** A message to send once the change that causes it is committed. */
export function outgoingMessage(queue: QueueKey, body: unknown, now: Date): OutgoingMessage {
  return { queue, id: randomUUID(), body, createdAt: now.toISOString() };
}

/** The item that keeps the message in the change's own transaction (Put it with the change). */
export function outgoingItem(message: OutgoingMessage): Record<string, unknown> & { pk: string; sk: string } {
  return {
    ...keys.outgoing(message.queue, message.id),
    ...keys.outgoingIndexes(message.queue, message.createdAt, message.id),
    queue: message.queue,
    body: JSON.stringify(message.body),
    createdAt: message.createdAt,
  };
}

/**
 * The transactional outbox of queue messages: a change commits its messages with itself; `deliver`
 * sends them right after and forgets them; `relay` (a scheduled job) sends what a failed send left.
 * Consumers are idempotent, so a message sent twice (sent, then the delete failed) is harmless.
 */
export function makeOutgoing(
  db: DynamoDBDocumentClient,
  table: string,
  queues: Readonly<Record<QueueKey, Queue>>,
  log: Pick<Logger, 'error'>,
) {
  async function sendAndForget(queue: QueueKey, id: string, body: unknown): Promise<void> {
    await queues[queue].send(body);
    await db.send(new DeleteCommand({ TableName: table, Key: keys.outgoing(queue, id) }));
  }

  return {
    /** Sends committed messages now; one that cannot be sent stays for the relay. */
    async deliver(messages: readonly OutgoingMessage[]): Promise<void> {
      for (const message of messages) {
        try {
          await sendAndForget(message.queue, message.id, message.body);
        } catch (error) {
          log.error('message kept for the relay', error as Error);
        }
      }
    },

    /** Sends every message of every queue committed before `olderThan` and still there. */
    async relay(olderThan: Date, limitPerQueue = 100): Promise<number> {
      let sent = 0;
      const index = TABLE.indexes.byClient;
      for (const queue of Object.keys(QUEUES) as QueueKey[]) {
        const page = await db.send(
          new QueryCommand({
            TableName: table,
            IndexName: index.name,
            KeyConditionExpression: '#pk = :pk AND #sk < :before',
            ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey },
            ExpressionAttributeValues: { ':pk': keys.outgoingQueue(queue), ':before': olderThan.toISOString() },
            Limit: limitPerQueue,
          }),
        );
        for (const item of page.Items ?? []) {
          const id = String(item.pk).slice(keys.outgoingQueue(queue).length + 1);
          await sendAndForget(queue, id, JSON.parse(String(item.body)));
          sent += 1;
        }
      }
      return sent;
    },
  };
}

export type Outgoing = ReturnType<typeof makeOutgoing>;

import { randomUUID } from 'node:crypto';
import {
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { QUEUES, keys } from '@portal/shared';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Queue } from '../adapters/sqs.js';
import { updateIfHolds } from './conditional-update.js';
import { dueBefore } from './partition-items.js';
import { telemetry, traceContextNow, type StoredTraceContext } from '../observability/telemetry.js';

export type QueueKey = keyof typeof QUEUES;

export interface OutgoingMessage {
  readonly queue: QueueKey;
  readonly id: string;
  readonly body: unknown;
  readonly createdAt: string;
  /** The trace of the change that committed it (W3C), which the message continues even when the relay sends it. */
  readonly trace: StoredTraceContext;
}

/** A message to send once the change that causes it is committed; it keeps the active trace context. */
export function outgoingMessage(queue: QueueKey, body: unknown, now: Date): OutgoingMessage {
  return { queue, id: randomUUID(), body, createdAt: now.toISOString(), trace: traceContextNow() };
}

/**
 * The longest visibility timeout of a queue whose messages are committed as sent: the SUNAT checks, the
 * MIRO requests and the notices, two or three per invoice. `deliver` writes nothing more when their send succeeds,
 * only a mark when it fails; the price is that a message whose sender died between the commit and the send is sent
 * again by the relay after the queue's visibility timeout (2 or 3 minutes) rather than after the sweeper's grace.
 * The queues of longer timeouts (an export, a zip, an e-mail: 30 minutes or more, which a person waits for) keep the
 * sent mark written after the send.
 */
const PRESUMED_SENT_MAX_VISIBILITY_SECONDS = 180;

/** Whether a queue's messages are committed as sent (see PRESUMED_SENT_MAX_VISIBILITY_SECONDS). */
export const committedAsSent = (queue: QueueKey) =>
  QUEUES[queue].visibilityTimeoutSeconds <= PRESUMED_SENT_MAX_VISIBILITY_SECONDS;

/** When a message sent at `sentAt` (relayed `relays` times before) is due again if not acknowledged. */
const ackBy = (queue: QueueKey, sentAt: number, relays: number) =>
  new Date(sentAt + QUEUES[queue].visibilityTimeoutSeconds * 1000 * 2 ** relays).toISOString();

/** The item that keeps the message in the change's own transaction (Put it with the change). */
export function outgoingItem(message: OutgoingMessage): Record<string, unknown> & { pk: string; sk: string } {
  // Committed as sent: due for the relay as the sent mark of a send at the commit would make it.
  const asSent = committedAsSent(message.queue);
  return {
    ...keys.outgoing(message.queue, message.id),
    ...keys.outgoingIndexes(
      message.queue,
      asSent ? ackBy(message.queue, Date.parse(message.createdAt), 0) : message.createdAt,
      message.id,
    ),
    ...(asSent ? { sentAt: message.createdAt, relays: 0 } : {}),
    queue: message.queue,
    body: JSON.stringify(message.body),
    createdAt: message.createdAt,
    ...(message.trace.traceparent ? { traceparent: message.trace.traceparent } : {}),
    ...(message.trace.tracestate ? { tracestate: message.trace.tracestate } : {}),
  };
}

/** The trace context an item (outgoing or MIRO outbox) kept from the change that wrote it. */
export function storedTraceOf(item: Record<string, unknown>): StoredTraceContext {
  return {
    traceparent: typeof item.traceparent === 'string' ? item.traceparent : null,
    tracestate: typeof item.tracestate === 'string' ? item.tracestate : null,
  };
}

/** The field a message carries its outgoing item's id in (schemas drop it; the consumer's wrapper reads it). */
export const OUTGOING_ID_FIELD = 'outgoingId';

/** Deletes per BatchWriteItem (DynamoDB's limit), and requests of the unprocessed ones before giving up. */
const ACKNOWLEDGE_CHUNK = 25;
const ACKNOWLEDGE_ATTEMPTS = 5;

/** Times a message not acknowledged is sent again before it is left to its queue's DLQ and alarm. */
export const MAX_RELAYS = 3;

/** The outgoing id a message body carries, if any. */
export function outgoingIdOf(body: string): string | null {
  try {
    const parsed: unknown = JSON.parse(body);
    const id = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>)[OUTGOING_ID_FIELD] : null;
    return typeof id === 'string' && id.length > 0 ? id : null;
  } catch {
    return null;
  }
}

const withId = (body: unknown, id: string) =>
  body && typeof body === 'object' && !Array.isArray(body) ? { ...body, [OUTGOING_ID_FIELD]: id } : body;

/** Sent: due again (for the relay) when not acknowledged within the queue's visibility timeout, doubling per relay. */
async function markSent(
  db: DynamoDBDocumentClient,
  table: string,
  { queue, id, relays, now }: { queue: QueueKey; id: string; relays: number; now: number },
): Promise<void> {
  // False when acknowledged already: the consumer was quicker than this write.
  await updateIfHolds(db, table, {
    Key: keys.outgoing(queue, id),
    UpdateExpression: 'SET sentAt = :now, relays = :relays, gsi1sk = :due',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: {
      ':now': new Date(now).toISOString(),
      ':relays': relays,
      ':due': `${ackBy(queue, now, relays)}#${id}`,
    },
  });
}

/** A message committed as sent whose send failed: due for the relay as a message never sent is, after the grace. */
async function markUnsent(db: DynamoDBDocumentClient, table: string, message: OutgoingMessage): Promise<void> {
  await updateIfHolds(db, table, {
    Key: keys.outgoing(message.queue, message.id),
    UpdateExpression: 'SET gsi1sk = :due REMOVE sentAt, relays',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':due': keys.outgoingIndexes(message.queue, message.createdAt, message.id).gsi1sk },
  });
}

/**
 * The consumer handled these messages (one batch of its queue): their items deleted in BatchWriteItem requests
 * of up to 25 rather than one DeleteItem each (one request per 25 messages). What DynamoDB leaves unprocessed is
 * sent again a few times; what is still left fails the call (the messages are only sent again later: consumers are idempotent).
 */
async function acknowledgeAll(
  db: DynamoDBDocumentClient,
  table: string,
  queue: QueueKey,
  ids: readonly string[],
): Promise<void> {
  const unique = [...new Set(ids)];
  await Promise.all(
    Array.from({ length: Math.ceil(unique.length / ACKNOWLEDGE_CHUNK) }, async (_, chunk) => {
      let pending: readonly Record<string, unknown>[] = unique
        .slice(chunk * ACKNOWLEDGE_CHUNK, (chunk + 1) * ACKNOWLEDGE_CHUNK)
        .map((id) => ({ DeleteRequest: { Key: keys.outgoing(queue, id) } }));
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt >= ACKNOWLEDGE_ATTEMPTS) throw new Error(`${pending.length} acknowledgements left unprocessed`);
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
        const result = await db.send(new BatchWriteCommand({ RequestItems: { [table]: pending as never } }));
        pending = result.UnprocessedItems?.[table] ?? [];
      }
    }),
  );
}

/**
 * The transactional outbox of queue messages: a change commits its messages with itself; `deliver`
 * sends them right after; the item stays until the consumer has handled the message and acknowledges
 * it (`acknowledge`, from the workers' wrapper). `relay` (the outbox sweeper) sends again what was
 * never sent after the grace period, and what was sent but not acknowledged within the queue's
 * visibility timeout (a send that failed, a message the SQS stand-in lost in a restart), at most
 * MAX_RELAYS times. Consumers are idempotent, so a message sent twice is harmless. Every send continues the trace
 * of the change that committed the message (its stored traceparent), linked to the sender's own span.
 */
export function makeOutgoing(
  db: DynamoDBDocumentClient,
  table: string,
  queues: Readonly<Record<QueueKey, Queue>>,
  log: Pick<Logger, 'error'>,
  clock: () => Date = () => new Date(),
) {
  return {
    /**
     * Sends committed messages now, all at once (each its send, then, for a queue whose messages are not committed as
     * sent, its sent mark: a change's answer waits for the slowest message instead of every one in turn); one that
     * cannot be sent stays for the relay, due after the grace (a message committed as sent is marked unsent).
     */
    async deliver(messages: readonly OutgoingMessage[]): Promise<void> {
      await Promise.all(
        messages.map(async (message) => {
          const asSent = committedAsSent(message.queue);
          try {
            await telemetry.continueTrace(message.trace, `send ${message.queue}`, () =>
              queues[message.queue].send(withId(message.body, message.id)),
            );
          } catch (error) {
            log.error('message kept for the relay', error as Error);
            if (asSent)
              await markUnsent(db, table, message).catch((markError: Error) =>
                log.error('unsent mark failed', markError),
              );
            return;
          }
          if (!asSent) {
            await markSent(db, table, {
              queue: message.queue,
              id: message.id,
              relays: 0,
              now: clock().getTime(),
            }).catch((error: Error) => log.error('sent mark failed', error));
          }
        }),
      );
    },

    /**
     * Whether a committed message is still on its way: its item is there (not yet acknowledged by its consumer)
     * and the relay has not given up on it. False once handled, abandoned, or for an id never written.
     */
    async isLive(queue: QueueKey, id: string): Promise<boolean> {
      const result = await db.send(
        new GetCommand({ TableName: table, Key: keys.outgoing(queue, id), ConsistentRead: true }),
      );
      return Boolean(result.Item && !result.Item.abandonedAt);
    },

    /** The consumer handled the message: nothing left to send. */
    async acknowledge(queue: QueueKey, id: string): Promise<void> {
      await db.send(new DeleteCommand({ TableName: table, Key: keys.outgoing(queue, id) }));
    },

    acknowledgeAll: (queue: QueueKey, ids: readonly string[]) => acknowledgeAll(db, table, queue, ids),

    /**
     * Sends again every message of every queue due before `olderThan` (never sent, or not acknowledged in
     * time); one relayed MAX_RELAYS times already is left out of the index (its queue's DLQ alarm tells).
     */
    async relay(olderThan: Date, limitPerQueue = 100): Promise<number> {
      let relayed = 0;
      for (const queue of Object.keys(QUEUES) as QueueKey[]) {
        const due = await dueBefore(db, table, keys.outgoingQueue(queue), olderThan.toISOString(), limitPerQueue);
        for (const item of due) {
          const id = String(item.pk).slice(keys.outgoingQueue(queue).length + 1);
          const relays = Number(item.relays ?? 0) + (item.sentAt ? 1 : 0);
          if (relays > MAX_RELAYS) {
            log.error('message never acknowledged; left to its queue', new Error(`${queue} ${id}`));
            await db.send(
              new UpdateCommand({
                TableName: table,
                Key: keys.outgoing(queue, id),
                UpdateExpression: 'SET abandonedAt = :now REMOVE gsi1pk, gsi1sk',
                ExpressionAttributeValues: { ':now': clock().toISOString() },
              }),
            );
            continue;
          }
          await telemetry.continueTrace(storedTraceOf(item), `relay ${queue}`, () =>
            queues[queue].send(withId(JSON.parse(String(item.body)), id)),
          );
          await markSent(db, table, { queue, id, relays, now: clock().getTime() });
          relayed += 1;
        }
      }
      return relayed;
    },
  };
}

export type Outgoing = ReturnType<typeof makeOutgoing>;

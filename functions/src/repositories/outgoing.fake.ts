import {
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { QUEUES } from '@portal/shared';
import type { Queue } from '../adapters/sqs.js';
import { makeOutgoing, type QueueKey } from './outgoing.js';

/**
 * The real outbox (`makeOutgoing`) over outgoing items kept in memory as DynamoDB would (by key, found by the
 * relay's query on its due index, marked sent, deleted when acknowledged), and queues that record what they were
 * sent or, while `down`, throw as a send that dies would. A fake store puts its `alsoPut` items with `put`, in
 * the change's own write.
 */
export function fakeOutbox() {
  const items = new Map<string, Record<string, unknown>>();
  const db = {
    send: async (command: unknown) => {
      if (command instanceof QueryCommand) {
        const values = command.input.ExpressionAttributeValues!;
        return {
          Items: [...items.values()].filter(
            (item) => item.gsi1pk === values[':pk'] && String(item.gsi1sk) < String(values[':before']),
          ),
        };
      }
      if (command instanceof GetCommand) {
        const item = items.get(String(command.input.Key!.pk));
        return { Item: item ? { ...item } : undefined };
      }
      if (command instanceof UpdateCommand) {
        const item = items.get(String(command.input.Key!.pk));
        const values = command.input.ExpressionAttributeValues!;
        if (item && values[':due'])
          Object.assign(item, { sentAt: values[':now'], relays: values[':relays'], gsi1sk: values[':due'] });
        // The relay gives up on a message: out of the due index.
        else if (item && command.input.UpdateExpression?.includes('abandonedAt')) {
          Object.assign(item, { abandonedAt: values[':now'] });
          delete item.gsi1pk;
          delete item.gsi1sk;
        }
        return {};
      }
      if (command instanceof DeleteCommand) {
        items.delete(String(command.input.Key!.pk));
        return {};
      }
      if (command instanceof BatchWriteCommand) {
        for (const requests of Object.values(command.input.RequestItems!))
          for (const request of requests)
            if (request.DeleteRequest) items.delete(String(request.DeleteRequest.Key!.pk));
        return {};
      }
      throw new Error(`unexpected command ${(command as object).constructor.name}`);
    },
  } as unknown as DynamoDBDocumentClient;
  const sent: { queue: QueueKey; body: Record<string, unknown> }[] = [];
  const bodies: Record<string, unknown>[] = [];
  const state = { down: false };
  const queues = Object.fromEntries(
    (Object.keys(QUEUES) as QueueKey[]).map((queue): [QueueKey, Queue] => [
      queue,
      {
        send: async (body) => {
          if (state.down) throw new Error(`${queue} queue unreachable`);
          sent.push({ queue, body: body as Record<string, unknown> });
          bodies.push(body as Record<string, unknown>);
        },
      },
    ]),
  ) as Record<QueueKey, Queue>;
  const outgoing = makeOutgoing(db, 'portal-test', queues, { error: () => undefined });
  return {
    outgoing,
    /** The outgoing items committed and not acknowledged. */
    items: () => [...items.values()],
    /** What the queues were sent, in order (with the outgoing id each message carries). */
    sent,
    /** The bodies of `sent`, in order. */
    bodies,
    /** Puts the items a change commits with itself (a fake store's `alsoPut`). */
    put(extra: readonly Record<string, unknown>[] = []) {
      // Only the change's outgoing items: anything else it writes beside them (a SUNAT check) is not the outbox's.
      for (const item of extra) if (String(item.pk).startsWith('OUTGOING#')) items.set(String(item.pk), { ...item });
    },
    /** While true, every send throws (the queue is unreachable, or the process dies there). */
    set down(value: boolean) {
      state.down = value;
    },
    /** A run of the outbox sweeper, long after everything committed so far. */
    relay: () => outgoing.relay(new Date(Date.now() + 24 * 3600 * 1000)),
  };
}

import { context, trace } from '@opentelemetry/api';
import {
  BatchWriteCommand,
  DeleteCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { QUEUES, keys } from '@portal/shared';
import type { Queue } from '../adapters/sqs.js';
import { TRACEPARENT, injectIntoMessageAttributes, telemetry } from '../observability/telemetry.js';
import { OUTGOING_ID_FIELD, makeOutgoing, outgoingItem, outgoingMessage, type QueueKey } from './outgoing.js';

const COMMITTED_AT = new Date('2026-11-02T10:00:00Z');

/**
 * The outgoing items as DynamoDB keeps them (by key; the relay's query reads a queue's items), and queues that
 * record each message with the traceparent the SQS client's instrumentation would give it at that moment.
 */
function world(options: { refusing?: QueueKey; gate?: Promise<void> } = {}) {
  const items = new Map<string, Record<string, unknown>>();
  /** The UpdateItems the outbox wrote (sent and unsent marks), by item key. */
  const updates: string[] = [];
  const db = {
    send: async (command: unknown) => {
      if (command instanceof QueryCommand) {
        const pk = command.input.ExpressionAttributeValues![':pk'];
        return { Items: [...items.values()].filter((item) => keys.outgoingQueue(item.queue as QueueKey) === pk) };
      }
      if (command instanceof UpdateCommand) {
        updates.push(String(command.input.Key!.pk));
        const item = items.get(String(command.input.Key!.pk));
        const values = command.input.ExpressionAttributeValues!;
        if (item) Object.assign(item, { sentAt: values[':now'], gsi1sk: values[':due'] });
        return {};
      }
      if (command instanceof DeleteCommand) {
        items.delete(String(command.input.Key!.pk));
        return {};
      }
      throw new Error(`unexpected command ${(command as object).constructor.name}`);
    },
  } as unknown as DynamoDBDocumentClient;
  const sent: { queue: QueueKey; body: Record<string, unknown>; traceparent?: string }[] = [];
  const started: QueueKey[] = [];
  const queues = Object.fromEntries(
    (Object.keys(QUEUES) as QueueKey[]).map((queue): [QueueKey, Queue] => [
      queue,
      {
        send: async (body) => {
          started.push(queue);
          await options.gate;
          if (queue === options.refusing) throw new Error('SQS is unreachable');
          const traceparent = injectIntoMessageAttributes(undefined)?.[TRACEPARENT]?.StringValue;
          sent.push({ queue, body: body as Record<string, unknown>, traceparent });
        },
      },
    ]),
  ) as Record<QueueKey, Queue>;
  const log = { error: () => undefined };
  const outgoing = makeOutgoing(db, 'portal-test', queues, log, () => new Date('2026-11-02T10:05:00Z'));
  /** Commits a message as a change does: its item put with the change, inside the change's request span. */
  const commit = (queue: QueueKey, body: Record<string, unknown>) => {
    const request = telemetry.tracer.startSpan(
      'POST /suppliers/{supplierId}/invoices/{invoiceType}/{invoiceId}/review',
    );
    const message = context.with(trace.setSpan(context.active(), request), () =>
      outgoingMessage(queue, body, COMMITTED_AT),
    );
    request.end();
    const item = outgoingItem(message);
    items.set(item.pk, item);
    return { message, item, traceId: request.spanContext().traceId };
  };
  /** A run of the outbox sweeper, in its own invocation span (a trace of its own). */
  const runs: string[] = [];
  const sweep = telemetry.invocation(async (_event: unknown) => {
    runs.push(trace.getActiveSpan()!.spanContext().traceId);
    return outgoing.relay(new Date('2026-11-02T10:04:00Z'));
  });
  return { outgoing, sent, started, items, updates, commit, sweep, runs };
}

describe('the outbox of queue messages', () => {
  it("keeps the committing request's trace context with the message", () => {
    const { commit } = world();
    const { item, traceId } = commit('sunatValidation', { invoiceId: 'F001-1' });
    expect(String(item.traceparent).split('-')[1]).toBe(traceId);
  });

  it("sends a message the queue lost again in the committing request's trace, not the sweeper's", async () => {
    const w = world();
    const { message, traceId } = w.commit('miroRequests', { invoiceId: 'F001-7' });
    const lost = w.commit('notifications', { event: 'INVOICE_APPROVED' });

    const relayed = await w.sweep({ 'detail-type': 'Scheduled Event', resources: ['arn:aws:events:x:1:rule/sweeper'] });

    expect(relayed).toBe(2);
    const miro = w.sent.find((entry) => entry.queue === 'miroRequests')!;
    expect(miro.body).toEqual({ invoiceId: 'F001-7', [OUTGOING_ID_FIELD]: message.id });
    expect(miro.traceparent?.split('-')[1]).toBe(traceId);
    const notice = w.sent.find((entry) => entry.queue === 'notifications')!;
    expect(notice.traceparent?.split('-')[1]).toBe(lost.traceId);
    expect(lost.traceId).not.toBe(traceId);
    expect([traceId, lost.traceId]).not.toContain(w.runs[0]);
  });

  it("sends an item stored without a trace context (written before it was kept) in the sweeper's trace", async () => {
    const w = world();
    const { item } = w.commit('notifications', { event: 'INVOICE_APPROVED' });
    delete item.traceparent;
    await w.sweep({ 'detail-type': 'Scheduled Event', resources: ['arn:aws:events:x:1:rule/sweeper'] });
    expect(w.sent).toHaveLength(1);
    expect(w.sent[0]!.traceparent?.split('-')[1]).toBe(w.runs[0]);
  });

  it("sends a change's messages at once, and keeps the one its queue refuses for the relay", async () => {
    let open!: () => void;
    const w = world({ refusing: 'notifications', gate: new Promise<void>((resolve) => (open = resolve)) });
    const sunat = w.commit('sunatValidation', { invoiceId: 'F001-1' });
    const notice = w.commit('notifications', { event: 'INVOICE_RECEIVED' });
    const delivering = w.outgoing.deliver([sunat.message, notice.message]);
    await new Promise((resolve) => setImmediate(resolve));
    // Both sends are under way before either answers.
    expect(w.started).toEqual(['sunatValidation', 'notifications']);
    open();
    await delivering;
    expect(w.sent.map((message) => message.queue)).toEqual(['sunatValidation']);
    expect(w.items.get(sunat.item.pk)!.sentAt).toBeDefined();
    // Marked unsent: due for the relay at its commit time (after the sweeper's grace), as a message never sent.
    expect(w.updates).toEqual([notice.item.pk]);
    expect(w.items.get(notice.item.pk)!.sentAt).toBeUndefined();
    expect(w.items.get(notice.item.pk)!.gsi1sk).toBe(`${COMMITTED_AT.toISOString()}#${notice.message.id}`);
  });

  it("commits the SUNAT checks', MIRO requests' and notices' messages as sent, and marks a zip's once sent", async () => {
    const w = world();
    const quick = (['sunatValidation', 'miroRequests', 'notifications'] as const).map((queue) =>
      w.commit(queue, { invoiceId: 'F001-1' }),
    );
    const zip = w.commit('intakeBatches', { batchId: 'b1' });
    // Due for the relay when the queue's visibility timeout has passed since the commit, as if sent then.
    for (const { item, message } of quick) {
      const ackBy = new Date(COMMITTED_AT.getTime() + QUEUES[message.queue].visibilityTimeoutSeconds * 1000);
      expect(item).toMatchObject({ sentAt: COMMITTED_AT.toISOString(), relays: 0 });
      expect(item.gsi1sk).toBe(`${ackBy.toISOString()}#${message.id}`);
    }
    expect(zip.item.sentAt).toBeUndefined();
    expect(zip.item.gsi1sk).toBe(`${COMMITTED_AT.toISOString()}#${zip.message.id}`);

    await w.outgoing.deliver([...quick, zip].map(({ message }) => message));

    expect(w.sent).toHaveLength(4);
    // One write after the sends: the zip's sent mark (30 minutes or more a person waits for if the sender dies).
    expect(w.updates).toEqual([zip.item.pk]);
  });
});

describe("acknowledging a consumer's batch", () => {
  /** A table of outgoing items whose BatchWriteItem leaves the first `unprocessed` deletes of each request for later. */
  function table(ids: readonly string[], unprocessed: (attempt: number) => number) {
    const items = new Set(ids.map((id) => keys.outgoing('notifications', id).pk));
    const requests: number[] = [];
    const db = {
      send: async (command: unknown) => {
        if (!(command instanceof BatchWriteCommand)) throw new Error('a delete per message');
        const deletes = command.input.RequestItems!['portal-test']!;
        requests.push(deletes.length);
        const left = deletes.slice(0, unprocessed(requests.length));
        for (const request of deletes.slice(left.length)) items.delete(String(request.DeleteRequest!.Key!.pk));
        return { UnprocessedItems: left.length > 0 ? { 'portal-test': left } : {} };
      },
    } as unknown as DynamoDBDocumentClient;
    const outgoing = makeOutgoing(db, 'portal-test', {} as Record<QueueKey, Queue>, { error: () => undefined });
    return { items, requests, outgoing };
  }
  const ids = Array.from({ length: 30 }, (_, i) => `m${i}`);

  it('deletes the messages in requests of at most 25, sending again what DynamoDB left unprocessed', async () => {
    const t = table(ids, (request) => (request <= 2 ? 3 : 0));
    await t.outgoing.acknowledgeAll('notifications', [...ids, 'm0']);
    expect(t.items.size).toBe(0);
    expect(Math.max(...t.requests)).toBe(25);
    expect(t.requests.reduce((sum, count) => sum + count, 0)).toBe(30 + 3 + 3);
  });

  it('fails when DynamoDB keeps leaving some unprocessed (they are only sent again later)', async () => {
    const t = table(['m1', 'm2'], () => 1);
    await expect(t.outgoing.acknowledgeAll('notifications', ['m1', 'm2'])).rejects.toThrow(/unprocessed/);
    expect([...t.items]).toEqual([keys.outgoing('notifications', 'm1').pk]);
  });
});

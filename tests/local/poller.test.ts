import { createHash, randomUUID } from 'node:crypto';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPoller, type Poller, type PollerOptions } from '../../local/runtime/poller.js';
import { startSqs } from '../../local/stand-ins/sqs.js';
import { LOCAL_CREDENTIALS, waitFor, type RunningService } from '../../local/stand-ins/types.js';
import { deferred, freePort } from './helpers.js';

const REGION = 'us-east-1';
const VISIBILITY_SECONDS = 1;

let sqsService: RunningService;
let sqs: SQSClient;
const pollers: Poller[] = [];

beforeAll(async () => {
  sqsService = await startSqs({ port: await freePort(), host: '127.0.0.1' });
  sqs = new SQSClient({ endpoint: sqsService.endpoint, region: REGION, credentials: LOCAL_CREDENTIALS });
});

afterEach(async () => {
  await Promise.all(pollers.splice(0).map((poller) => poller.stop()));
});

afterAll(async () => {
  sqs?.destroy();
  await sqsService?.stop();
});

interface TestQueue {
  url: string;
  arn: string;
  dlqUrl: string;
  dlqArn: string;
}

/** A fresh queue and DLQ per test; without maxReceiveCount the queue has no RedrivePolicy. */
async function createQueues(maxReceiveCount?: number): Promise<TestQueue> {
  const name = `poller-${randomUUID().slice(0, 8)}`;
  const dlq = await createQueue(`${name}-dlq`, {});
  const queue = await createQueue(name, {
    VisibilityTimeout: String(VISIBILITY_SECONDS),
    ...(maxReceiveCount === undefined
      ? {}
      : { RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.arn, maxReceiveCount }) }),
  });
  return { url: queue.url, arn: queue.arn, dlqUrl: dlq.url, dlqArn: dlq.arn };
}

async function createQueue(name: string, attributes: Record<string, string>): Promise<{ url: string; arn: string }> {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
  const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }));
  return { url: QueueUrl!, arn: Attributes!.QueueArn! };
}

async function send(queueUrl: string, bodies: string[]): Promise<void> {
  await sqs.send(
    new SendMessageBatchCommand({
      QueueUrl: queueUrl,
      Entries: bodies.map((body, index) => ({
        Id: String(index),
        MessageBody: body,
        MessageAttributes: { kind: { DataType: 'String', StringValue: `kind-${body}` } },
      })),
    }),
  );
}

/** Visible plus in-flight messages. */
async function messagesLeft(queueUrl: string): Promise<number> {
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return Number(Attributes?.ApproximateNumberOfMessages) + Number(Attributes?.ApproximateNumberOfMessagesNotVisible);
}

function poll(
  queue: TestQueue,
  handler: PollerOptions['handler'],
  overrides: Partial<PollerOptions> = {},
): { deliveries: Array<{ at: number; records: SQSRecord[] }>; logs: string[] } {
  const deliveries: Array<{ at: number; records: SQSRecord[] }> = [];
  const logs: string[] = [];
  pollers.push(
    startPoller({
      sqs,
      queueUrl: queue.url,
      queueArn: queue.arn,
      dlqUrl: queue.dlqUrl,
      maxReceiveCount: 3,
      batchSize: 10,
      visibilityTimeoutSeconds: VISIBILITY_SECONDS,
      waitTimeSeconds: 1,
      region: REGION,
      log: (level, message) => logs.push(`${level}: ${message}`),
      ...overrides,
      handler: async (event: SQSEvent) => {
        deliveries.push({ at: Date.now(), records: event.Records });
        return handler(event);
      },
    }),
  );
  return { deliveries, logs };
}

function bodiesOf(deliveries: Array<{ records: SQSRecord[] }>): string[] {
  return deliveries.flatMap((delivery) => delivery.records.map((record) => record.body));
}

const until = (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 8_000) =>
  waitFor(async () => check(), { timeoutMs, what, intervalMs: 20 });

describe('local SQS poller', () => {
  it('delivers Lambda-shaped records and deletes every message of a successful batch', async () => {
    const queue = await createQueues(3);
    await send(queue.url, ['a', 'b', 'c']);

    const { deliveries } = poll(queue, async () => undefined);
    await until(() => bodiesOf(deliveries).length === 3, 'three deliveries');
    await until(async () => (await messagesLeft(queue.url)) === 0, 'the queue to be empty');

    expect(bodiesOf(deliveries).sort()).toEqual(['a', 'b', 'c']);
    const record = deliveries[0]!.records[0]!;
    expect(record).toMatchObject({
      eventSource: 'aws:sqs',
      eventSourceARN: queue.arn,
      awsRegion: REGION,
      md5OfBody: createHash('md5').update(record.body).digest('hex'),
      messageAttributes: { kind: { dataType: 'String', stringValue: `kind-${record.body}` } },
      attributes: { ApproximateReceiveCount: '1' },
    });
    expect(record.messageId).toMatch(/\S/);
    expect(record.receiptHandle).toMatch(/\S/);
    expect(Number(record.attributes.SentTimestamp)).toBeGreaterThan(0);
    expect(Number(record.attributes.ApproximateFirstReceiveTimestamp)).toBeGreaterThanOrEqual(
      Number(record.attributes.SentTimestamp),
    );
  });

  it('redelivers only the items in batchItemFailures, after the visibility timeout', async () => {
    const queue = await createQueues(3);
    await send(queue.url, ['ok-1', 'retry', 'ok-2']);

    let failedOnce = false;
    const { deliveries } = poll(queue, async (event): Promise<SQSBatchResponse> => {
      const retry = event.Records.find((record) => record.body === 'retry');
      if (retry && !failedOnce) {
        failedOnce = true;
        return { batchItemFailures: [{ itemIdentifier: retry.messageId }] };
      }
      return { batchItemFailures: [] };
    });
    await until(() => bodiesOf(deliveries).filter((body) => body === 'retry').length === 2, 'the failed item again');
    await until(async () => (await messagesLeft(queue.url)) === 0, 'the queue to be empty');

    expect(deliveries[0]!.records.map((record) => record.body).sort()).toEqual(['ok-1', 'ok-2', 'retry']);
    expect(bodiesOf(deliveries).sort()).toEqual(['ok-1', 'ok-2', 'retry', 'retry']);
    const redelivery = deliveries.find(
      (delivery, index) => index > 0 && delivery.records.some((r) => r.body === 'retry'),
    )!;
    expect(redelivery.at - deliveries[0]!.at).toBeGreaterThanOrEqual(VISIBILITY_SECONDS * 1000 - 50);
    expect(redelivery.records.find((record) => record.body === 'retry')!.attributes.ApproximateReceiveCount).toBe('2');
  });

  it('retries the whole batch when the handler throws or reports an unknown item', async () => {
    const queue = await createQueues(5);
    await send(queue.url, ['x', 'y']);

    let calls = 0;
    const { deliveries } = poll(queue, async (): Promise<SQSBatchResponse | void> => {
      calls++;
      if (calls === 1) throw new Error('boom');
      if (calls === 2) return { batchItemFailures: [{ itemIdentifier: 'not-in-this-batch' }] };
      return undefined;
    });
    await until(() => calls >= 3, 'a third delivery');
    await until(async () => (await messagesLeft(queue.url)) === 0, 'the queue to be empty');

    expect(deliveries.map((delivery) => delivery.records.map((r) => r.body).sort())).toEqual([
      ['x', 'y'],
      ['x', 'y'],
      ['x', 'y'],
    ]);
    expect(deliveries[2]!.records.map((record) => record.attributes.ApproximateReceiveCount)).toEqual(['3', '3']);
  });

  it('moves a message that always fails to the DLQ after maxReceiveCount receives (RedrivePolicy)', async () => {
    const queue = await createQueues(2);
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: queue.url,
        MessageBody: 'poison',
        MessageAttributes: { kind: { DataType: 'String', StringValue: 'poison' } },
      }),
    );

    const { deliveries, logs } = await failedToTheDlq(queue, 2);

    expect(bodiesOf(deliveries)).toEqual(['poison', 'poison']);
    // fauxqs moved it (the poller's own fallback logs when it does).
    expect(logs.filter((line) => line.includes('movido a la DLQ'))).toEqual([]);
    expect(await messagesLeft(queue.url)).toBe(0);
    const dlq = await dlqMessages(queue);
    expect(dlq?.[0]?.Body).toBe('poison');
    expect(dlq?.[0]?.MessageAttributes?.kind?.StringValue).toBe('poison');
  });

  it('moves the message itself when the queue has no RedrivePolicy', async () => {
    const queue = await createQueues(undefined);
    await send(queue.url, ['no-redrive']);

    const { deliveries, logs } = await failedToTheDlq(queue, 1);

    expect(bodiesOf(deliveries)).toEqual(['no-redrive']);
    await until(async () => (await messagesLeft(queue.url)) === 0, 'the source queue to be empty');
    const dlq = await dlqMessages(queue);
    expect(dlq?.[0]?.MessageAttributes?.kind?.StringValue).toBe('kind-no-redrive');
    expect(logs.some((line) => line.includes('DLQ'))).toBe(true);
  });

  it('stop() waits for the batch in flight and deletes it', async () => {
    const queue = await createQueues(3);
    await send(queue.url, ['slow']);

    const release = deferred();
    let started = false;
    const poller = startPoller({
      sqs,
      queueUrl: queue.url,
      queueArn: queue.arn,
      dlqUrl: queue.dlqUrl,
      maxReceiveCount: 3,
      batchSize: 10,
      visibilityTimeoutSeconds: 30,
      waitTimeSeconds: 20,
      region: REGION,
      log: () => undefined,
      handler: async () => {
        started = true;
        await release.promise;
      },
    });
    await until(() => started, 'the handler to start');

    let stopped = false;
    const stopping = poller.stop().then(() => {
      stopped = true;
    });
    // A few turns of the event loop: a stop() that did not wait for the handler would have resolved by now.
    for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);

    release.resolve();
    await stopping;
    expect(await messagesLeft(queue.url)).toBe(0);
  });

  it('backs off while SQS is unreachable and stops promptly', async () => {
    const deadPort = await freePort();
    const unreachable = new SQSClient({
      endpoint: `http://127.0.0.1:${deadPort}`,
      region: REGION,
      credentials: LOCAL_CREDENTIALS,
      maxAttempts: 1,
    });
    let attempts = 0;
    unreachable.middlewareStack.add(
      (next) => async (args) => {
        attempts++;
        return next(args);
      },
      { step: 'initialize' },
    );
    const logs: string[] = [];
    const poller = startPoller({
      sqs: unreachable,
      queueUrl: `http://127.0.0.1:${deadPort}/000000000000/nowhere`,
      queueArn: 'arn:aws:sqs:us-east-1:000000000000:nowhere',
      dlqUrl: `http://127.0.0.1:${deadPort}/000000000000/nowhere-dlq`,
      maxReceiveCount: 3,
      batchSize: 10,
      visibilityTimeoutSeconds: 30,
      region: REGION,
      log: (level, message) => logs.push(`${level}: ${message}`),
      handler: async () => undefined,
    });

    const began = Date.now();
    await until(() => attempts >= 3, 'three attempts');
    const third = Date.now() - began;
    const started = Date.now();
    await poller.stop();
    unreachable.destroy();

    // The third attempt came after 200 + 400 ms of back-off, not at once.
    expect(third).toBeGreaterThanOrEqual(600);
    expect(Date.now() - started).toBeLessThan(500);
    expect(logs[0]).toMatch(/^warn: no se pudo leer la cola/);
  });
});

async function dlqDepth(queue: TestQueue): Promise<number> {
  return messagesLeft(queue.dlqUrl);
}

/** Polls `queue` with a handler that always fails, until its one message is in the DLQ. */
async function failedToTheDlq(queue: TestQueue, maxReceiveCount: number): Promise<ReturnType<typeof poll>> {
  const polled = poll(
    queue,
    async () => {
      throw new Error('always fails');
    },
    { maxReceiveCount },
  );
  await until(async () => (await dlqDepth(queue)) === 1, 'the message in the DLQ');
  return polled;
}

/** The messages in the DLQ of `queue`, with their attributes. */
async function dlqMessages(queue: TestQueue) {
  const { Messages } = await sqs.send(
    new ReceiveMessageCommand({ QueueUrl: queue.dlqUrl, MessageAttributeNames: ['All'], WaitTimeSeconds: 1 }),
  );
  return Messages;
}

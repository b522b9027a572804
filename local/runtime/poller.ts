/**
 * The local stage's stand-in for Lambda's SQS event source mapping: long-polls a queue, hands
 * Lambda-shaped SQSEvents to a worker handler and deletes what the handler processed.
 *
 * What fauxqs 1.9.2 does itself (read in node_modules/fauxqs/dist/sqs/sqsStore.js and
 * actions/receiveMessage.js, and checked by tests/local/poller.test.ts):
 * - Visibility timeout: yes. A receive takes the message in flight for the request's
 *   VisibilityTimeout, or the queue's attribute when the request has none; when it expires the
 *   message goes back to the queue (at its tail). While a long poll waits, a 20 ms timer checks
 *   expiries, so a redelivered message wakes the poll. DeleteMessage with a stale receipt handle
 *   (message already redelivered) is silently ignored, as in AWS. ChangeMessageVisibility works.
 * - ApproximateReceiveCount: yes. Incremented on every receive; returned, with SentTimestamp,
 *   ApproximateFirstReceiveTimestamp and SenderId (always 000000000000), when asked through
 *   MessageSystemAttributeNames/AttributeNames.
 * - RedrivePolicy: yes, natively. On a receive, a message whose receive count would exceed
 *   maxReceiveCount is moved to the queue named by deadLetterTargetArn instead of being delivered,
 *   keeping its id, body, attributes and receive count (not reset). As in AWS, the move happens
 *   lazily, during a later ReceiveMessage on the source queue, and only if the DLQ exists.
 * - Not implemented: MessageRetentionPeriod (messages never expire) and persistence (all queues
 *   and messages live in memory and vanish when the process stops).
 *
 * So the poller relies on fauxqs for redrive. It still guards against a queue without a
 * RedrivePolicy (or a broker that ignores it): a received message whose ApproximateReceiveCount
 * exceeds maxReceiveCount is not given to the handler but sent to dlqUrl, with its attributes, and
 * then deleted.
 *
 * Delivery rules, as Lambda with ReportBatchItemFailures:
 * - the handler resolves without batchItemFailures (or with an empty list): every message is deleted;
 * - it returns batchItemFailures: those messages stay and reappear after the visibility timeout,
 *   all others are deleted; an identifier that is empty or not in the batch fails the whole batch;
 * - it throws: nothing is deleted, the whole batch reappears after the visibility timeout.
 * One batch at a time; receive errors back off exponentially (up to 10 s), never spinning.
 */
import { createHash } from 'node:crypto';
import {
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type Message,
  type MessageAttributeValue,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord, SQSRecordAttributes } from 'aws-lambda';

export type PollerLogLevel = 'info' | 'warn' | 'error';
export type PollerLog = (level: PollerLogLevel, message: string) => void;
export type SqsBatchHandler = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

export interface PollerOptions {
  readonly sqs: SQSClient;
  readonly queueUrl: string;
  /** Goes into every record's eventSourceARN. */
  readonly queueArn: string;
  readonly dlqUrl: string;
  /** Receives after which a message goes to the DLQ (the queue's RedrivePolicy should say the same). */
  readonly maxReceiveCount: number;
  /** Messages per handler call, 1 to 10 (a single ReceiveMessage). */
  readonly batchSize: number;
  readonly visibilityTimeoutSeconds: number;
  /** Long-poll wait, 0 to 20 s (default 20, as Lambda). */
  readonly waitTimeSeconds?: number;
  readonly region: string;
  readonly handler: SqsBatchHandler;
  /** Where to report handler failures and connection problems (default: console, Spanish text). */
  readonly log?: PollerLog;
}

export interface Poller {
  /** Stops polling; resolves after the batch in flight, if any, has been handled and deleted. */
  stop(): Promise<void>;
}

const MIN_BACKOFF_MS = 200;
const MAX_BACKOFF_MS = 10_000;
/** Pause between empty receives when long polling is off, so that an idle queue is not hammered. */
const SHORT_POLL_IDLE_MS = 250;

export function startPoller(options: PollerOptions): Poller {
  const { sqs, queueUrl, batchSize, maxReceiveCount } = options;
  const waitTimeSeconds = options.waitTimeSeconds ?? 20;
  const queueName = queueUrl.slice(queueUrl.lastIndexOf('/') + 1);
  const log = options.log ?? defaultLog(queueName);

  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10) {
    throw new RangeError(`batchSize debe ser un entero entre 1 y 10 (recibido: ${batchSize}).`);
  }
  if (!Number.isInteger(waitTimeSeconds) || waitTimeSeconds < 0 || waitTimeSeconds > 20) {
    throw new RangeError(`waitTimeSeconds debe ser un entero entre 0 y 20 (recibido: ${waitTimeSeconds}).`);
  }
  if (!Number.isInteger(maxReceiveCount) || maxReceiveCount < 1) {
    throw new RangeError(`maxReceiveCount debe ser un entero mayor que 0 (recibido: ${maxReceiveCount}).`);
  }

  const run: PollerRun = {
    options,
    sqs,
    queueUrl,
    batchSize,
    maxReceiveCount,
    waitTimeSeconds,
    log,
    stopped: false,
    receiveAbort: new AbortController(),
    wakeUp: undefined,
  };
  const loop = pollLoop(run);

  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        run.stopped = true;
        run.receiveAbort.abort();
        run.wakeUp?.();
        await loop;
      })();
      return stopping;
    },
  };
}

/** A running poller: its options, and whether it was stopped (a pause in progress ends at once). */
interface PollerRun {
  readonly options: PollerOptions;
  readonly sqs: SQSClient;
  readonly queueUrl: string;
  readonly batchSize: number;
  readonly maxReceiveCount: number;
  readonly waitTimeSeconds: number;
  readonly log: PollerLog;
  stopped: boolean;
  readonly receiveAbort: AbortController;
  wakeUp: (() => void) | undefined;
}

/** Sleeps, but returns at once when stop() is called. */
function pause(run: PollerRun, ms: number): Promise<void> {
  if (run.stopped) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      run.wakeUp = undefined;
      resolve();
    }
    run.wakeUp = done;
  });
}

async function receive(run: PollerRun): Promise<Message[]> {
  const output = await run.sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: run.queueUrl,
      MaxNumberOfMessages: run.batchSize,
      WaitTimeSeconds: run.waitTimeSeconds,
      VisibilityTimeout: run.options.visibilityTimeoutSeconds,
      MessageSystemAttributeNames: ['All'],
      MessageAttributeNames: ['All'],
    }),
    // Only the receive is aborted by stop(): an aborted long poll at worst leaves a message
    // invisible until its visibility timeout, never lost. Handling and deletes always finish.
    { abortSignal: run.receiveAbort.signal },
  );
  return output.Messages ?? [];
}

async function handleBatch(run: PollerRun, messages: Message[]): Promise<void> {
  const deliverable: Message[] = [];
  for (const message of messages) {
    if (receiveCount(message) > run.maxReceiveCount) await moveToDlq(run, message);
    else deliverable.push(message);
  }
  if (deliverable.length === 0) return;

  const records = deliverable.map((message) => toRecord(message, run.options.queueArn, run.options.region));
  let response: SQSBatchResponse | void;
  try {
    response = await run.options.handler({ Records: records });
  } catch (err) {
    run.log(
      'error',
      `el manejador falló con un lote de ${records.length} mensaje(s); volverán a la cola tras ` +
        `${run.options.visibilityTimeoutSeconds} s: ${describe(err)}`,
    );
    return;
  }

  const failed = failedMessageIds(run, response, records);
  if (failed === 'all') return;
  const done = deliverable.filter((message) => !failed.has(message.MessageId ?? ''));
  await deleteMessages(run, done);
}

/**
 * The ids the handler reported as failed, or 'all' when the report is malformed (Lambda then
 * retries the whole batch).
 */
function failedMessageIds(
  run: PollerRun,
  response: SQSBatchResponse | void,
  records: SQSRecord[],
): Set<string> | 'all' {
  const failures: unknown = response && typeof response === 'object' ? response.batchItemFailures : undefined;
  if (failures === undefined || failures === null) return new Set();
  if (!Array.isArray(failures)) {
    run.log('warn', 'batchItemFailures no es una lista: se reintenta el lote completo.');
    return 'all';
  }
  const inBatch = new Set(records.map((record) => record.messageId));
  const failed = new Set<string>();
  for (const failure of failures as unknown[]) {
    const id = (failure as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    if (typeof id !== 'string' || !inBatch.has(id)) {
      run.log(
        'warn',
        `batchItemFailures contiene un itemIdentifier inválido (${String(id)}): se reintenta el lote completo.`,
      );
      return 'all';
    }
    failed.add(id);
  }
  return failed;
}

async function deleteMessages(run: PollerRun, messages: Message[]): Promise<void> {
  for (let start = 0; start < messages.length; start += 10) {
    const chunk = messages.slice(start, start + 10);
    try {
      const output = await run.sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: run.queueUrl,
          Entries: chunk.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle })),
        }),
      );
      for (const failure of output.Failed ?? []) {
        run.log(
          'warn',
          `no se pudo borrar un mensaje procesado (se entregará otra vez): ${failure.Code} ${failure.Message ?? ''}`,
        );
      }
    } catch (err) {
      run.log(
        'warn',
        `no se pudieron borrar ${chunk.length} mensaje(s) procesados (se entregarán otra vez): ${describe(err)}`,
      );
    }
  }
}

async function moveToDlq(run: PollerRun, message: Message): Promise<void> {
  try {
    await run.sqs.send(
      new SendMessageCommand({
        QueueUrl: run.options.dlqUrl,
        MessageBody: message.Body ?? '',
        ...(message.MessageAttributes && Object.keys(message.MessageAttributes).length > 0
          ? { MessageAttributes: message.MessageAttributes }
          : {}),
      }),
    );
  } catch (err) {
    run.log('warn', `no se pudo mover el mensaje ${message.MessageId} a la DLQ; se reintentará: ${describe(err)}`);
    return;
  }
  run.log('warn', `mensaje ${message.MessageId} movido a la DLQ tras ${receiveCount(message) - 1} intentos.`);
  try {
    await run.sqs.send(new DeleteMessageCommand({ QueueUrl: run.queueUrl, ReceiptHandle: message.ReceiptHandle }));
  } catch (err) {
    // It will come back and be copied again: a duplicate in the DLQ beats a lost message.
    run.log(
      'warn',
      `el mensaje ${message.MessageId} ya está en la DLQ pero no se pudo borrar de la cola: ${describe(err)}`,
    );
  }
}

async function pollLoop(run: PollerRun): Promise<void> {
  let consecutiveErrors = 0;
  while (!run.stopped) {
    let messages: Message[];
    try {
      messages = await receive(run);
    } catch (err) {
      if (run.stopped) break;
      consecutiveErrors++;
      const backoffMs = Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS * 2 ** (consecutiveErrors - 1));
      // The first error and then one in ten, not a line every few seconds while SQS is down.
      if (consecutiveErrors === 1 || consecutiveErrors % 10 === 0) {
        run.log(
          'warn',
          `no se pudo leer la cola (intento ${consecutiveErrors}), reintento en ${backoffMs} ms: ${describe(err)}`,
        );
      }
      await pause(run, backoffMs);
      continue;
    }
    if (consecutiveErrors > 0) {
      run.log('info', `la cola vuelve a responder tras ${consecutiveErrors} error(es).`);
      consecutiveErrors = 0;
    }
    if (messages.length === 0) {
      if (run.waitTimeSeconds === 0) await pause(run, SHORT_POLL_IDLE_MS);
      continue;
    }
    try {
      await handleBatch(run, messages);
    } catch (err) {
      // handleBatch catches what it expects; anything else must not end the loop.
      run.log('error', `error inesperado procesando un lote: ${describe(err)}`);
      await pause(run, MIN_BACKOFF_MS);
    }
  }
}

function receiveCount(message: Message): number {
  const count = Number(message.Attributes?.ApproximateReceiveCount);
  return Number.isFinite(count) ? count : 1;
}

function toRecord(message: Message, queueArn: string, region: string): SQSRecord {
  const body = message.Body ?? '';
  const system = message.Attributes ?? {};
  const now = String(Date.now());
  const attributes: SQSRecordAttributes = {
    ApproximateReceiveCount: system.ApproximateReceiveCount ?? '1',
    SentTimestamp: system.SentTimestamp ?? now,
    SenderId: system.SenderId ?? '000000000000',
    ApproximateFirstReceiveTimestamp: system.ApproximateFirstReceiveTimestamp ?? now,
  };
  for (const optional of [
    'AWSTraceHeader',
    'SequenceNumber',
    'MessageGroupId',
    'MessageDeduplicationId',
    'DeadLetterQueueSourceArn',
  ] as const) {
    const value = system[optional];
    if (value !== undefined) attributes[optional] = value;
  }
  const record: SQSRecord = {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body,
    attributes,
    messageAttributes: toLambdaAttributes(message.MessageAttributes),
    md5OfBody: message.MD5OfBody ?? createHash('md5').update(body).digest('hex'),
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: region,
  };
  if (message.MD5OfMessageAttributes) record.md5OfMessageAttributes = message.MD5OfMessageAttributes;
  return record;
}

/** The SDK's PascalCase values (binary as bytes) to the event's camelCase ones (binary as base64). */
function toLambdaAttributes(attributes: Record<string, MessageAttributeValue> | undefined): SQSMessageAttributes {
  const result: SQSMessageAttributes = {};
  for (const [name, value] of Object.entries(attributes ?? {})) {
    result[name] = {
      dataType: value.DataType ?? 'String',
      ...(value.StringValue !== undefined ? { stringValue: value.StringValue } : {}),
      ...(value.BinaryValue !== undefined ? { binaryValue: Buffer.from(value.BinaryValue).toString('base64') } : {}),
      stringListValues: value.StringListValues ?? [],
      binaryListValues: (value.BinaryListValues ?? []).map((bytes) => Buffer.from(bytes).toString('base64')),
    };
  }
  return result;
}

function defaultLog(queueName: string): PollerLog {
  return (level, message) => {
    const line = `[cola ${queueName}] ${message}`;
    if (level === 'error') console.error(line);
    else if (level === 'warn') console.warn(line);
    else console.info(line);
  };
}

function describe(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}

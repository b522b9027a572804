import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetQueueAttributesCommand, SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import {
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import {
  TABLE,
  invoiceSearchItems,
  keys,
  type ConformityKind,
  type Currency,
  type Invoice,
  type InvoiceStatus,
  type CertStatus,
} from '@portal/shared';
import { invoiceCounterUpdates } from '../../functions/src/repositories/invoice-counters.js';
import { countsDelta, sapPostingCountsWrite, type OutboxState } from '../../functions/src/repositories/miro-outbox.js';
import { OUTGOING_ID_FIELD, outgoingItem, type QueueKey } from '../../functions/src/repositories/outgoing.js';
import type { LocalOutputs } from '../../local/runtime/outputs.js';
import { aStatusEntry, anInvoice, between, withIgv } from './builders.js';
import { stage } from './stage.js';
import { until } from './until.js';

const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
type TransactItems = TransactWriteCommandInput['TransactItems'];

/** A document client of the test stage's DynamoDB Local (the caller destroys it when done). */
export function stageDocumentClient(): DynamoDBDocumentClient {
  const { endpoints, region } = stage();
  return DynamoDBDocumentClient.from(new DynamoDBClient({ region, endpoint: endpoints.dynamodb, credentials }));
}

/** Direct access to the test stage's table: fixtures a test needs and the seed does not hold. */
export function table() {
  const { tableName } = stage();
  const db = stageDocumentClient();
  return {
    async get(key: { pk: string; sk: string }) {
      return (await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
    },
    /** Every item of one partition (a notification feed, say). */
    async partition(pk: string) {
      return (
        (
          await db.send(
            new QueryCommand({
              TableName: tableName,
              KeyConditionExpression: 'pk = :pk',
              ExpressionAttributeValues: { ':pk': pk },
            }),
          )
        ).Items ?? []
      );
    },
    /** Every message of a queue still on record (committed, sent and not yet handled), with its item. */
    async outgoing(queue: string): Promise<{ item: Record<string, unknown>; body: Record<string, unknown> }[]> {
      const index = TABLE.indexes.byClient;
      const result = await db.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: index.name,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': index.partitionKey },
          ExpressionAttributeValues: { ':pk': keys.outgoingQueue(queue) },
        }),
      );
      return (result.Items ?? []).map((item) => ({
        item,
        body: JSON.parse(String(item.body)) as Record<string, unknown>,
      }));
    },
    async put(item: Record<string, unknown>) {
      await db.send(new PutCommand({ TableName: tableName, Item: item }));
    },
    /**
     * A MIRO outbox record in a state the test needs now (late, FAILED), with its company's SAP posting counts moved
     * in the same transaction, as the approval and the worker's moves leave them (miro-outbox.ts).
     */
    async putMiroRecord(
      record: Record<string, unknown> & { pk: string; sk: string; state: OutboxState; client: string },
    ) {
      const delta = countsDelta(null, record.state);
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName, Item: record, ConditionExpression: 'attribute_not_exists(pk)' } },
            ...(Object.keys(delta).length > 0
              ? [sapPostingCountsWrite(tableName, record.client, delta) as NonNullable<TransactItems>[number]]
              : []),
          ],
        }),
      );
    },
    async delete(key: { pk: string; sk: string }) {
      await db.send(new DeleteCommand({ TableName: tableName, Key: key }));
    },
    /** Stores a new invoice with its list entries, search items and counters, as intake does. */
    async putInvoice(invoice: Invoice) {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...keys.invoice(invoice.supplierId, invoice.type, invoice.id), ...invoice, version: 1 },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      await writeInBatches(db, tableName, [...invoiceSearchItems(invoice), ...keys.invoiceListEntries(invoice)]);
      for (const { Update } of invoiceCounterUpdates(tableName, [{ before: null, after: invoice }])) {
        await db.send(new UpdateCommand(Update as never));
      }
    },
    /**
     * Stores many new invoices at once, as putInvoice stores each: every item (invoice, list entries, search items)
     * by BatchWriteItem, several batches in flight, then each counter moved once by the sum of the invoices' deltas.
     * For fixtures of fresh numbers only: a batch put has no condition, so an invoice already there is overwritten.
     */
    putInvoices: (invoices: readonly Invoice[]) => putInvoicesIn(db, tableName, invoices),
  };
}

/**
 * Writes invoices in bulk as the intake would leave them: each with its search items, list entries and counters
 * (BatchWriteItem, not one call per invoice). `only: 'supplierAtCompany'` writes of the lists only the supplier's at
 * the company, and no search items: what that list and its export read, for a fixture of thousands (an invoice's 22
 * items take DynamoDB Local about a millisecond each).
 */
export async function putInvoicesIn(
  db: DynamoDBDocumentClient,
  tableName: string,
  invoices: readonly Invoice[],
  options: { readonly only?: 'supplierAtCompany' } = {},
) {
  const items = invoices.flatMap((invoice) => {
    const lists = keys.invoiceListEntries(invoice);
    const supplierAtCompany = keys.invoiceListPartition(
      keys.clientSupplierInvoices(invoice.client, invoice.supplierId),
    );
    return [
      { ...keys.invoice(invoice.supplierId, invoice.type, invoice.id), ...invoice, version: 1 },
      ...(options.only ? [] : invoiceSearchItems(invoice)),
      ...(options.only ? lists.filter((entry) => entry.pk === supplierAtCompany) : lists),
    ];
  });
  await writeInBatches(db, tableName, items);
  const changes = invoices.map((after) => ({ before: null, after }));
  await Promise.all(
    invoiceCounterUpdates(tableName, changes).map(({ Update }) => db.send(new UpdateCommand(Update as never))),
  );
}

/**
 * The n-th of a bulk fixture's facturas `{prefix}-{n + 1}` from `supplier` to `company`: amounts, currencies and
 * dates vary with n (PEN and USD alternate; issued in September 2026, received a minute apart from 1 October).
 */
export function bulkInvoice(
  n: number,
  options: {
    readonly prefix: string;
    readonly supplier: { readonly taxId: string; readonly name: string };
    readonly company: { readonly taxId: string; readonly name: string };
    readonly status: InvoiceStatus;
  },
): Invoice {
  const { prefix, supplier, company, status } = options;
  const receivedAt = new Date(Date.UTC(2026, 9, 1, 14, 0) + n * 60_000).toISOString();
  return anInvoice({
    prefixId: prefix,
    numericId: String(n + 1),
    status,
    ...between(supplier, company),
    currency: n % 2 === 0 ? 'PEN' : 'USD',
    ...withIgv(100 + n + (n % 100) / 100),
    issuedAt: `2026-09-${String((n % 28) + 1).padStart(2, '0')}`,
    receivedAt,
    statusHistory: [aStatusEntry(status, { date: receivedAt })],
  });
}

/** BatchWriteItem's most items per call, and how many calls a bulk fixture keeps in flight. */
const BATCH_ITEMS = 25;
const BATCHES_IN_FLIGHT = 8;

/** Puts every item, BATCHES_IN_FLIGHT batches at a time, sending again what DynamoDB left unprocessed. */
export async function writeInBatches(
  db: DynamoDBDocumentClient,
  tableName: string,
  items: readonly Record<string, unknown>[],
) {
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += BATCH_ITEMS) batches.push(items.slice(i, i + BATCH_ITEMS));
  let next = 0;
  const lane = async () => {
    while (next < batches.length) {
      let pending = batches[next++]!.map((Item) => ({ PutRequest: { Item } }));
      while (pending.length > 0) {
        const result = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
        pending = (result.UnprocessedItems?.[tableName] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: BATCHES_IN_FLIGHT }, lane));
}

let sequence = (Date.now() % 9_000_000) + 1_000_000;
const next = () => String(sequence++);

export interface ReviewFixture {
  readonly invoice: Invoice;
  /** The purchase order and conformity document SAP holds for it (absent without purchase order). */
  readonly purchaseOrder: string | null;
  readonly document: { kind: ConformityKind; documentId: string } | null;
}

/**
 * A fresh invoice to review, with its purchase order and a free conformity document whose amount is
 * the invoice amount without IGV: each test works on its own documents and never on another test's.
 */
export async function reviewFixture(options: {
  client: string;
  supplier: { taxId: string; name: string };
  clientName: string;
  kind: ConformityKind | null;
  currency?: Currency;
  status?: InvoiceStatus;
  certStatus?: CertStatus;
  net?: number;
}): Promise<ReviewFixture> {
  const store = table();
  const currency = options.currency ?? 'PEN';
  const net = options.net ?? 1000 + (sequence % 1000);
  const invoice = anInvoice({
    prefixId: 'FX01',
    numericId: next(),
    status: options.status ?? 'PENDING',
    certStatus: options.certStatus ?? 'VALID',
    ...between(options.supplier, { taxId: options.client, name: options.clientName }),
    currency,
    ...withIgv(net),
    issuedAt: '2026-10-15',
  });
  await store.putInvoice(invoice);
  if (!options.kind) return { invoice, purchaseOrder: null, document: null };
  const purchaseOrder = `PO${next()}`;
  const document = await orderWithDocument({
    kind: options.kind,
    client: options.client,
    supplierId: options.supplier.taxId,
    purchaseOrder,
    currency,
    amount: net,
  });
  return { invoice, purchaseOrder, document };
}

/** A purchase order of the supplier at the company with a free conformity document of `amount` (without IGV). */
export async function orderWithDocument(
  options: Parameters<typeof conformityFixture>[0],
): Promise<{ kind: ConformityKind; documentId: string }> {
  await table().put({
    ...keys.purchaseOrder(options.client, options.purchaseOrder),
    id: options.purchaseOrder,
    issuerTaxId: options.supplierId,
    acquirerTaxId: options.client,
    currency: options.currency,
  });
  return conformityFixture(options);
}

/** A free conformity document of a purchase order, as SAP records it. */
export async function conformityFixture(options: {
  kind: ConformityKind;
  client: string;
  supplierId: string;
  purchaseOrder: string;
  currency: Currency;
  amount: number;
}): Promise<{ kind: ConformityKind; documentId: string }> {
  const documentId = `${options.kind === 'SERVICE_SHEET' ? 'H' : 'M'}${next()}`;
  const doc = {
    documentId,
    purchaseOrder: options.purchaseOrder,
    fiscalYear: '2026',
    issuerTaxId: options.supplierId,
    acquirerTaxId: options.client,
    deliveryNote: null,
    amount: options.amount,
    currency: options.currency,
    responsible: null,
    associatedInvoice: null,
    claimedBy: null,
  };
  await table().put({
    ...keys.conformity(options.kind, options.client, documentId),
    ...keys.conformityIndexes(options.kind, doc),
    kind: options.kind,
    ...doc,
  });
  return { kind: options.kind, documentId };
}

type QueueName = keyof ReturnType<typeof stage>['queues'];

/** Sends a message to a queue of the stage, as a producer would. */
export async function sendToQueue(queue: QueueName, body: unknown): Promise<void> {
  const { endpoints, region, queues } = stage();
  const sqs = new SQSClient({ region, endpoint: endpoints.sqs, credentials });
  await sqs.send(new SendMessageCommand({ QueueUrl: queues[queue]!.url, MessageBody: JSON.stringify(body) }));
}

/**
 * Sends a message as a change commits one: its outgoing item first (the outbox, functions/src/repositories/outgoing.ts),
 * then the message carrying that item's id, whose consumer acknowledges it once handled. Answers a wait for that: once
 * it resolves, everything the consumer does for the message (the feeds, the e-mails) is done.
 */
export async function sendTracked(queue: QueueName, body: Record<string, unknown>): Promise<() => Promise<void>> {
  const id = randomUUID();
  const item = outgoingItem({
    queue: queue as QueueKey,
    id,
    body,
    createdAt: new Date().toISOString(),
    trace: { traceparent: null, tracestate: null },
  });
  await table().put(item);
  await sendToQueue(queue, { ...body, [OUTGOING_ID_FIELD]: id });
  return () => acknowledged(queue, (outgoing) => outgoing.pk === item.pk, `the ${queue} message ${id}`);
}

/**
 * Waits until no message of `queue` that `mine` picks is still on record (committed and not yet acknowledged by its
 * consumer): what a test set off through the outbox has been handled whole. Other files' messages are not waited for.
 */
export async function acknowledged(
  queue: QueueName,
  mine: (item: Record<string, unknown>, body: Record<string, unknown>) => boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  await until(async () => (await table().outgoing(queue)).every(({ item, body }) => !mine(item, body)), {
    timeout: timeoutMs,
    interval: 200,
    message: `${what} to be handled`,
  });
}

/**
 * Waits until the queues `names` hold nothing, visible or in flight (one after the other, all within `timeoutMs`):
 * what a test set off has been handled before it looks, or before the next file on the shared stage begins.
 */
export async function queuesDrained(names: readonly QueueName[], timeoutMs = 30_000): Promise<void> {
  const { endpoints, region, queues } = stage();
  const sqs = new SQSClient({ region, endpoint: endpoints.sqs, credentials });
  const deadline = Date.now() + timeoutMs;
  for (const name of names) {
    await until(
      async () => {
        const { Attributes } = await sqs.send(
          new GetQueueAttributesCommand({
            QueueUrl: queues[name]!.url,
            AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
          }),
        );
        return (
          Number(Attributes?.ApproximateNumberOfMessages) +
            Number(Attributes?.ApproximateNumberOfMessagesNotVisible) ===
          0
        );
      },
      { timeout: Math.max(0, deadline - Date.now()), interval: 200, message: `the ${name} queue to drain` },
    );
  }
}

/** What the local mailbox received, newest first. */
export async function mailbox(
  endpoints: Pick<LocalOutputs['endpoints'], 'mailbox'> = stage().endpoints,
): Promise<{ to: string[]; subject: string; text: string; html: string | null }[]> {
  const response = await fetch(`${endpoints.mailbox}/messages`);
  return (await response.json()) as { to: string[]; subject: string; text: string; html: string | null }[];
}

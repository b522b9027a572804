import {
  CreateQueueCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
  SendMessageCommand,
} from '@aws-sdk/client-sqs';
import { BatchGetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import {
  INVOICE_ERROR_MESSAGES,
  QUEUES,
  dashboardDelta,
  dashboardMonth,
  keys,
  routes,
  sapPostingCountsKey,
  sapPostingCountsOf,
  withCheckDigit,
  type Invoice,
  type InvoiceDetail,
  type MiroRequestMessage,
  type NotificationMessage,
} from '@portal/shared';
import { type SapPort } from '../../functions/src/adapters/sap.js';
import type { Caller } from '../../functions/src/http/caller.js';
import { makeInvoiceStore } from '../../functions/src/repositories/invoice-store.js';
import { approveInvoice } from '../../functions/src/use-cases/review/approve-invoice.js';
import type { InvoicePath } from '../../functions/src/use-cases/review/review-deps.js';
import { retrySapPosting } from '../../functions/src/use-cases/review/retry-sap-posting.js';
import { makeMiroOutbox } from '../../functions/src/repositories/miro-outbox.js';
import { makeClientRepository } from '../../functions/src/repositories/clients.js';
import { makeDashboardRepository } from '../../functions/src/repositories/dashboard.js';
import { makeGetDashboard } from '../../functions/src/use-cases/dashboard.js';
import { makeMiroRequestsWorker } from '../../functions/src/workers/miro-requests-worker.js';
import { startPoller } from '../../local/runtime/poller.js';
import { CLIENTS, EMPLOYEES, OFFICE_LOCATIONS } from '../support/tenant.js';
import { call, idTokenOf } from '../support/api.js';
import { aStatusEntry, anInvoice, between, withIgv } from '../support/builders.js';
import { reviewFixture, table, writeInBatches, type ReviewFixture } from '../support/fixtures.js';
import { invoicePath, registerWithSap as registerAtSap, sapControl } from '../support/sap.js';
import { demoUser, stage } from '../support/stage.js';
import { runSchedule } from '../support/schedules.js';
import { until } from '../support/until.js';
import { adminCaller, inProcessDb, inProcessReviewDeps, realSap, sqsRecordOf } from '../support/in-process.js';

/**
 * The MIRO posting (design flow 4) and the payment sync (flow 6) against the local stage's DynamoDB,
 * queues and SAP simulator. Everything happens at CLIENTS[2] with suppliers that exist only here, so
 * no other test's counts move. The simulator knows only the documents SAP would hold: the seed's, and
 * the ones each test registers with POST /__control/documents after creating them in DynamoDB.
 */
const COMPANY = CLIENTS[2]!;
const SUPPLIER = { taxId: withCheckDigit('2070000101'), name: 'Proveedor MIRO de Pruebas S.A.C.' };
const STRESS_SUPPLIER = { taxId: withCheckDigit('2070000102'), name: 'Proveedor Masivo de Pruebas S.A.C.' };
const EMPLOYEE = EMPLOYEES[COMPANY.taxId]![0]!;
const OFFICE = OFFICE_LOCATIONS[COMPANY.taxId]![0]!;
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

const admin = () => idTokenOf(demoUser('ADMIN').username, demoUser('ADMIN').password);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const sap = <T = any>(path: string, body?: unknown): Promise<T> => sapControl<T>(stage().endpoints.sap, path, body);

async function postingsOf(supplierId: string): Promise<{ total: number; byInvoice: Record<string, number> }> {
  return sap(`/__control/postings?supplierId=${supplierId}`);
}

const registerWithSap = (fixtures: readonly ReviewFixture[]) => registerAtSap(stage().endpoints.sap, fixtures);
const pathOf = invoicePath;

/** A registered fixture, completed and approved through the API: the stage's own worker posts it. */
async function approvedThroughApi(kind: 'SERVICE_SHEET' | 'MATERIAL_DOCUMENT'): Promise<ReviewFixture> {
  const f = await reviewFixture({ client: COMPANY.taxId, clientName: COMPANY.name, supplier: SUPPLIER, kind });
  await registerWithSap([f]);
  const token = await admin();
  const completed = await call(routes.updateInvoice, {
    token,
    path: pathOf(f.invoice),
    body: {
      operationType: kind === 'SERVICE_SHEET' ? 'SERVICES' : 'GOODS',
      responsibleId: EMPLOYEE.id,
      officeId: OFFICE.office,
      locationId: OFFICE.id,
      purchaseOrders: [f.purchaseOrder!],
      serviceSheets: kind === 'SERVICE_SHEET' ? [f.document!.documentId] : [],
      materialDocs: kind === 'MATERIAL_DOCUMENT' ? [f.document!.documentId] : [],
      attachments: [],
    },
  });
  expect(completed.status).toBe(200);
  expect((await call(routes.approveInvoice, { token, path: pathOf(f.invoice) })).status).toBe(200);
  return f;
}

async function postedOutbox(invoice: Invoice) {
  const key = keys.miroOutbox(invoice.supplierId, invoice.type, invoice.id);
  return until(
    async () => {
      const record = await table().get(key);
      return record?.state === 'POSTED' && record.notifiedAt ? record : null;
    },
    { message: `the MIRO of ${invoice.id}`, timeout: 20_000 },
  );
}

/**
 * The company's SAP posting counts (what the dashboard reads) once nothing moves: equal to the records its index
 * holds open and FAILED, the two counts the dashboard made before (Query COUNT).
 */
async function countsMatchIndex(client: string = COMPANY.taxId) {
  const outbox = makeMiroOutbox(inProcessDb(), stage().tableName);
  let last = '';
  return until(
    async () => {
      const counts = sapPostingCountsOf((await table().get(sapPostingCountsKey(client))) ?? undefined);
      // Every open record sorts before the year 9999: the "late" count of all of them.
      const index = await outbox.countLateAndFailed(client, new Date('9999-12-31T00:00:00Z'));
      const read = { open: counts?.open, failed: counts?.failed, exact: counts?.exact };
      last = JSON.stringify({ counts: read, index });
      return read.exact === true && read.open === index.late && read.failed === index.failed && index;
    },
    { message: `the SAP posting counts of ${client} to match its index`, timeout: 20_000 },
  ).catch((error: Error) => {
    throw new Error(`${error.message}: ${last}`);
  });
}

/**
 * The clock of the use cases and workers this file runs in its own process: a day ahead, so that their
 * records are never due for the stage's own outbox sweeper (it would post them while a test holds them).
 */
const ahead = () => new Date(Date.now() + 86_400_000);

/** The worker of functions/src/workers/miro-requests.ts, built in this process against the stage. */
function inProcessWorker(options: {
  sap?: Pick<SapPort, 'postSupplierInvoice' | 'findSupplierInvoice'>;
  outbox?: ReturnType<typeof makeMiroOutbox>;
  leaseMs?: number;
  notifications?: NotificationMessage[];
  maxAttempts?: number;
  retryBaseMs?: number;
}) {
  const client = inProcessDb();
  const { tableName } = stage();
  return makeMiroRequestsWorker({
    outbox: options.outbox ?? makeMiroOutbox(client, tableName),
    store: makeInvoiceStore(client, tableName),
    sap: options.sap ?? realSap(),
    notifications: { send: async (body) => void options.notifications?.push(body as NotificationMessage) },
    clock: ahead,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    leaseMs: options.leaseMs ?? 60_000,
    maxAttempts: options.maxAttempts,
    retryBaseMs: options.retryBaseMs,
  });
}

const ADMIN_CALLER = adminCaller({ sub: 'miro-tests', email: 'admin@demo.pe', lastName: 'MIRO' });

/** The review use case in this process, its MIRO messages kept here instead of going to the stage's queue. */
function inProcessReview(miroMessages: MiroRequestMessage[]) {
  const deps = inProcessReviewDeps(miroMessages, ahead);

  return {
    approve: (caller: Caller, path: InvoicePath) => approveInvoice(deps, caller, path),
    retrySapPosting: (caller: Caller, path: InvoicePath) => retrySapPosting(deps, caller, path),
  };
}

/** Runs tasks with at most `width` at a time. */
async function inParallel<T, R>(items: readonly T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i]!);
      }
    }),
  );
  return results;
}

/** Invoice numbers of this run: eight digits, never repeated within the run. */
let nextNumber = (Math.floor(Date.now() / 1000) % 80_000) * 1000 + 10_000_000;

/**
 * Completed invoices written straight to the table (with their claimed HES, order and dashboard
 * counts, as the review leaves them), registered with SAP, ready to approve.
 */
async function completedInBulk(count: number, supplier: typeof STRESS_SUPPLIER): Promise<Invoice[]> {
  const invoices: Invoice[] = [];
  const items: Record<string, unknown>[] = [];
  const orders: unknown[] = [];
  const documents: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const number = nextNumber++;
    const net = 100 + i;
    const purchaseOrder = `PM${number}`;
    const documentId = `HM${number}`;
    const invoice = anInvoice({
      prefixId: 'FM01',
      numericId: String(number),
      status: 'COMPLETED',
      ...between(supplier, COMPANY),
      responsible: EMPLOYEE,
      officeId: OFFICE.office,
      locationId: OFFICE.id,
      operationType: 'SERVICES',
      ...withIgv(net),
      serviceSheets: [documentId],
      purchaseOrders: [purchaseOrder],
      issuedAt: '2026-10-20',
      receivedAt: '2026-10-20T14:00:00.000Z',
      statusHistory: [
        aStatusEntry('PENDING', { date: '2026-10-20T12:00:00.000Z' }),
        aStatusEntry('COMPLETED', { date: '2026-10-21T12:00:00.000Z', by: 'admin@demo.pe' }),
      ],
    });
    invoices.push(invoice);
    const order = { id: purchaseOrder, issuerTaxId: supplier.taxId, acquirerTaxId: COMPANY.taxId, currency: 'PEN' };
    const doc = {
      documentId,
      purchaseOrder,
      fiscalYear: '2026',
      issuerTaxId: supplier.taxId,
      acquirerTaxId: COMPANY.taxId,
      deliveryNote: null,
      amount: net,
      currency: 'PEN',
      responsible: EMPLOYEE.id,
    };
    orders.push(order);
    documents.push({ kind: 'SERVICE_SHEET', ...doc });
    items.push(
      { ...keys.invoice(invoice.supplierId, invoice.type, invoice.id), ...invoice, version: 1 },
      ...keys.invoiceListEntries(invoice),
      { ...keys.purchaseOrder(COMPANY.taxId, purchaseOrder), ...order },
      {
        ...keys.conformity('SERVICE_SHEET', COMPANY.taxId, documentId),
        ...keys.conformityIndexes('SERVICE_SHEET', doc),
        kind: 'SERVICE_SHEET',
        ...doc,
        associatedInvoice: invoice.id,
        claimedBy: keys.invoice(invoice.supplierId, invoice.type, invoice.id).pk,
      },
    );
  }
  const client = inProcessDb();
  await writeInBatches(client, stage().tableName, items);
  // The dashboard counts them once, as the review would have.
  const total: Record<string, number> = {};
  for (const invoice of invoices) {
    for (const [name, value] of Object.entries(dashboardDelta(null, invoice))) total[name] = (total[name] ?? 0) + value;
  }
  const names = Object.keys(total).filter((name) => total[name] !== 0);
  for (const period of [dashboardMonth('2026-10-20'), 'ALL']) {
    await client.send(
      new UpdateCommand({
        TableName: stage().tableName,
        Key: keys.dashboard(COMPANY.taxId, period),
        UpdateExpression: `ADD ${names.map((_, i) => `#c${i} :d${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#c${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:d${i}`, total[name]])),
      }),
    );
  }
  await sap('/__control/documents', { purchaseOrders: orders, conformityDocuments: documents });
  return invoices;
}

describe('MIRO posting (design flow 4)', () => {
  it('posts an approved invoice to SAP once, keeps the SAP number on it and tells the supplier', async () => {
    // Both kinds go through the pipeline at once: the test's time is one posting's, not two in a row.
    const [services, goods] = await Promise.all([
      approvedThroughApi('SERVICE_SHEET'),
      approvedThroughApi('MATERIAL_DOCUMENT'),
    ]);
    const outboxes = await Promise.all([services, goods].map((f) => postedOutbox(f.invoice)));
    for (const [index, f] of [services, goods].entries()) {
      const outbox = outboxes[index]!;
      expect(outbox.sapDocument).toEqual({ number: expect.stringMatching(/^\d{10}$/), fiscalYear: expect.any(String) });
      const detail = await call<InvoiceDetail>(routes.getInvoice, { token: await admin(), path: pathOf(f.invoice) });
      expect(detail.body).toMatchObject({ status: 'ACCEPTED', sapDocument: outbox.sapDocument, statusMessage: null });
      expect((await postingsOf(SUPPLIER.taxId)).byInvoice[`${SUPPLIER.taxId}/${f.invoice.id}`]).toBe(1);
    }
    const feed = await until(
      async () => {
        const items = await table().partition(keys.feed('SUPPLIER', SUPPLIER.taxId));
        return items.some((item) => String(item.message).includes(`aprobó la factura ${goods.invoice.id}`)) && items;
      },
      { message: 'the approval in the supplier feed', timeout: 20_000 },
    );
    expect(feed.length).toBeGreaterThan(0);
  });

  it('rides out SAP failures with retries and still posts once', async () => {
    await sap('/__control/fail', { count: 2, status: 503, supplierId: SUPPLIER.taxId });
    const f = await approvedThroughApi('SERVICE_SHEET');
    const outbox = await postedOutbox(f.invoice);
    expect(outbox.sapDocument).toBeTruthy();
    expect((await postingsOf(SUPPLIER.taxId)).byInvoice[`${SUPPLIER.taxId}/${f.invoice.id}`]).toBe(1);
  });

  it('sends INVOICE_APPROVED with the SAP number, and answers a redelivery with nothing new', async () => {
    const [invoice] = await completedInBulk(1, SUPPLIER);
    const miro: MiroRequestMessage[] = [];
    await inProcessReview(miro).approve(ADMIN_CALLER, pathOf(invoice!));
    const notifications: NotificationMessage[] = [];
    const worker = inProcessWorker({ notifications });
    expect(await worker({ Records: [sqsRecordOf(miro[0], 1)] })).toEqual({ batchItemFailures: [] });
    const outbox = await table().get(keys.miroOutbox(SUPPLIER.taxId, 'FACTURA', invoice!.id));
    expect(notifications).toEqual([
      expect.objectContaining({
        event: 'INVOICE_APPROVED',
        invoiceId: invoice!.id,
        supplierId: SUPPLIER.taxId,
        detail: expect.stringContaining(outbox!.sapDocument.number),
      }),
    ]);
    expect(await worker({ Records: [sqsRecordOf(miro[0], 2)] })).toEqual({ batchItemFailures: [] });
    expect(notifications).toHaveLength(1);
    expect((await postingsOf(SUPPLIER.taxId)).byInvoice[`${SUPPLIER.taxId}/${invoice!.id}`]).toBe(1);
  });

  it('leaves the failure visible on the invoice and the outbox after the last attempt', async () => {
    const [invoice] = await completedInBulk(1, SUPPLIER);
    const miro: MiroRequestMessage[] = [];
    await inProcessReview(miro).approve(ADMIN_CALLER, pathOf(invoice!));
    const failing = {
      postSupplierInvoice: async () => Promise.reject(new Error('SAP caído')),
      findSupplierInvoice: async () => null,
    };
    const worker = inProcessWorker({ sap: failing, maxAttempts: 2, retryBaseMs: 0 });
    // A failed attempt is kept on the record (the sweeper sends the message again): the message is done.
    expect(await worker({ Records: [sqsRecordOf(miro[0], 1)] })).toEqual({ batchItemFailures: [] });
    const key = keys.miroOutbox(SUPPLIER.taxId, 'FACTURA', invoice!.id);
    expect(await table().get(key)).toMatchObject({
      state: 'PENDING',
      attempts: 1,
      lastError: expect.stringContaining('SAP caído'),
    });

    expect(await worker({ Records: [sqsRecordOf(miro[0], 1)] })).toEqual({ batchItemFailures: [] });
    expect(await table().get(key)).toMatchObject({ state: 'FAILED', attempts: 2 });
    const detail = await call<InvoiceDetail>(routes.getInvoice, { token: await admin(), path: pathOf(invoice!) });
    expect(detail.body).toMatchObject({
      status: 'ACCEPTED',
      statusMessage: INVOICE_ERROR_MESSAGES['ERROR_UNEXPECTED_EXCEPTION_DURING_MIRO_CREATION_REQUEST_SUBMIT'],
    });

    // Once SAP is back, a redriven message posts it and clears the message.
    expect(await inProcessWorker({})({ Records: [sqsRecordOf(miro[0], 1)] })).toEqual({ batchItemFailures: [] });
    const after = await call<InvoiceDetail>(routes.getInvoice, { token: await admin(), path: pathOf(invoice!) });
    expect(after.body).toMatchObject({ statusMessage: null, sapDocument: expect.any(Object) });
  });

  it('keeps the SAP posting counts the dashboard reads exact through failures, a dying worker and redeliveries', async () => {
    const start = await countsMatchIndex();
    const [invoice] = await completedInBulk(1, SUPPLIER);
    const miro: MiroRequestMessage[] = [];
    const review = inProcessReview(miro);
    await review.approve(ADMIN_CALLER, pathOf(invoice!));
    const key = keys.miroOutbox(SUPPLIER.taxId, 'FACTURA', invoice!.id);
    const counted = await countsMatchIndex();
    expect(counted.late).toBeGreaterThanOrEqual(start.late + 1);

    // The last attempt fails, and the worker dies right after the record went FAILED (the invoice never shows it,
    // nobody is told); then the same write arrives again, as a retried request would.
    const failing = {
      postSupplierInvoice: async () => Promise.reject(new Error('SAP caído')),
      findSupplierInvoice: async () => null,
    };
    const outbox = makeMiroOutbox(inProcessDb(), stage().tableName);
    const dying = inProcessWorker({
      sap: failing,
      maxAttempts: 1,
      outbox: {
        ...outbox,
        markFailureNotified: async () => {
          throw new Error('worker killed after FAILED');
        },
      },
    });
    expect(await dying({ Records: [sqsRecordOf(miro[0], 1)] })).toEqual({ batchItemFailures: [] });
    const failed = (await table().get(key))!;
    expect(failed).toMatchObject({ state: 'FAILED', failureNotifiedAt: null });
    const record = { ...key, client: COMPANY.taxId, createdAt: String(failed.createdAt), state: 'POSTING' as const };
    expect(await outbox.markFailed(record, 'SAP caído', new Date().toISOString())).toBe(false);
    expect(await outbox.markFailed(record, 'SAP caído', new Date().toISOString(), 'another-owner')).toBe(false);
    await countsMatchIndex();

    // An administrator's retry, then a redelivery of the old message racing it: one round of attempts.
    await review.retrySapPosting(ADMIN_CALLER, pathOf(invoice!));
    await review.retrySapPosting(ADMIN_CALLER, pathOf(invoice!));
    expect(await table().get(key)).toMatchObject({ state: 'PENDING', attempts: 0 });
    await countsMatchIndex();
    const healthy = inProcessWorker({});
    await Promise.all([
      healthy({ Records: [sqsRecordOf(miro[0], 2)] }),
      healthy({ Records: [sqsRecordOf(miro.at(-1), 1)] }),
    ]);
    await until(async () => (await table().get(key))?.state === 'POSTED', {
      message: 'the retried posting',
      timeout: 20_000,
    });
    // A posting marked POSTED again (SAP answered the same document to a late delivery) counts nothing.
    const posted = (await table().get(key))!;
    expect(await outbox.markPosted({ ...record, state: 'POSTING' }, posted.sapDocument, new Date().toISOString())).toBe(
      false,
    );
    const end = await countsMatchIndex();
    expect(end.failed).toBe(start.failed);

    // The dashboard (its use case here: the route is a manager's of other companies) answers FAILED from the counts.
    const getDashboard = makeGetDashboard({
      dashboard: makeDashboardRepository(inProcessDb(), stage().tableName),
      clients: makeClientRepository(inProcessDb(), stage().tableName),
      postings: outbox,
    });
    const shown = await getDashboard(ADMIN_CALLER, { client: COMPANY.taxId });
    expect(shown.failedPostings).toBe((await countsMatchIndex()).failed);
  });

  it('sends a poison message to the DLQ after maxReceiveCount receives', async () => {
    const { endpoints, region } = stage();
    const sqs = new SQSClient({ region, endpoint: endpoints.sqs, credentials });
    const name = `miro-poison-${Date.now()}`;
    const dlqUrl = (await sqs.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }))).QueueUrl!;
    const dlqArn = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ['QueueArn'] })))
      .Attributes!.QueueArn!;
    const queueUrl = (
      await sqs.send(
        new CreateQueueCommand({
          QueueName: name,
          Attributes: {
            VisibilityTimeout: '1',
            RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: 2 }),
          },
        }),
      )
    ).QueueUrl!;
    const poller = startPoller({
      sqs,
      queueUrl,
      queueArn: `arn:aws:sqs:${region}:000000000000:${name}`,
      dlqUrl,
      maxReceiveCount: 2,
      batchSize: 5,
      visibilityTimeoutSeconds: 1,
      waitTimeSeconds: 1,
      region,
      handler: inProcessWorker({}),
      log: () => undefined,
    });
    try {
      await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: '{"supplierId":"no es un RUC"' }));
      const dead = await until(
        async () => {
          const { Messages = [] } = await sqs.send(
            new ReceiveMessageCommand({ QueueUrl: dlqUrl, WaitTimeSeconds: 1, MaxNumberOfMessages: 1 }),
          );
          return Messages[0];
        },
        { message: 'the poison message in the DLQ', timeout: 20_000 },
      );
      expect(dead.Body).toBe('{"supplierId":"no es un RUC"');
    } finally {
      await poller.stop();
      await sqs.send(new DeleteQueueCommand({ QueueUrl: queueUrl }));
      await sqs.send(new DeleteQueueCommand({ QueueUrl: dlqUrl }));
    }
  });

  it(
    // Exactly once is a property of every message, not of their number: 250 keep every batch full and both later
    // deliveries racing for leases; how many a worker posts per second is the benchmark's (npm run bench).
    'posts 250 approvals exactly once with every message delivered three times and the worker killed after SAP',
    { timeout: 240_000 },
    async () => {
      const started = Date.now();
      const count = 250;
      const invoices = await completedInBulk(count, STRESS_SUPPLIER);
      const miro: MiroRequestMessage[] = [];
      const review = inProcessReview(miro);
      await inParallel(invoices, 25, (invoice) => review.approve(ADMIN_CALLER, pathOf(invoice)));
      expect(miro).toHaveLength(count);
      const prepared = Date.now();

      // First delivery: SAP posts, then the worker dies before it can write anything back: no
      // invoice update, no POSTED, not even the lease given back.
      const real = realSap();
      const firstAnswers = new Map<string, string>();
      const crashing = {
        async postSupplierInvoice(posting: Parameters<SapPort['postSupplierInvoice']>[0]) {
          const document = await real.postSupplierInvoice(posting);
          firstAnswers.set(posting.idempotencyKey, document.number);
          throw new Error('worker killed right after the SAP call');
        },
        findSupplierInvoice: (reference: Parameters<SapPort['findSupplierInvoice']>[0]) =>
          real.findSupplierInvoice(reference),
      };
      const outbox = makeMiroOutbox(inProcessDb(), stage().tableName);
      const deadOutbox = {
        ...outbox,
        retryLater: async (): Promise<boolean> => {
          throw new Error('worker killed before it could write anything back');
        },
      };
      const leaseMs = 1500;
      const dying = inProcessWorker({ sap: crashing, outbox: deadOutbox, leaseMs });
      const notifications: NotificationMessage[] = [];
      const healthy = inProcessWorker({ notifications, leaseMs });
      const batches = <T>(list: readonly T[], size: number) =>
        Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, i * size + size));

      const first = await inParallel(batches(miro, QUEUES.miroRequests.batchSize), 20, (batch) =>
        dying({ Records: batch.map((message) => sqsRecordOf(message, 1)) } as SQSEvent),
      );
      expect(first.flatMap((answer) => answer.batchItemFailures)).toHaveLength(count);
      expect(firstAnswers.size).toBe(count);

      // Second and third deliveries at the same time, once the dead worker's leases have run out;
      // what fails (the other delivery holds the lease) comes back, as after a visibility timeout.
      await sleep(leaseMs);
      let pending = [...miro, ...miro].map((message) => ({ message, receive: 2 }));
      for (let round = 0; pending.length > 0 && round < 20; round++) {
        const shuffled = pending.sort(() => Math.random() - 0.5);
        const failedIds = new Set<string>();
        const records = shuffled.map(({ message, receive }) => ({
          message,
          receive,
          record: sqsRecordOf(message, receive),
        }));
        const answers = await inParallel(batches(records, QUEUES.miroRequests.batchSize), 20, (batch) =>
          healthy({ Records: batch.map((entry) => entry.record) } as SQSEvent),
        );
        for (const answer of answers)
          for (const failure of answer.batchItemFailures) failedIds.add(failure.itemIdentifier);
        pending = records
          .filter((entry) => failedIds.has(entry.record.messageId))
          .map(({ message, receive }) => ({ message, receive: receive + 1 }));
        if (pending.length > 0) await sleep(300);
      }
      expect(pending).toEqual([]);
      const delivered = Date.now();

      const postings = await postingsOf(STRESS_SUPPLIER.taxId);
      expect(postings.total).toBe(count);
      expect(Object.keys(postings.byInvoice)).toHaveLength(count);
      expect(Object.values(postings.byInvoice).every((n) => n === 1)).toBe(true);

      // Every invoice carries the document SAP answered to the dead worker.
      const stored: Record<string, any>[] = [];
      for (const chunk of batches(invoices, 50)) {
        const result = await inProcessDb().send(
          new BatchGetCommand({
            RequestItems: {
              [stage().tableName]: {
                Keys: chunk.flatMap((invoice) => [
                  keys.invoice(invoice.supplierId, invoice.type, invoice.id),
                  keys.miroOutbox(invoice.supplierId, invoice.type, invoice.id),
                ]),
              },
            },
          }),
        );
        stored.push(...(result.Responses?.[stage().tableName] ?? []));
        expect(Object.keys(result.UnprocessedKeys ?? {})).toHaveLength(0);
      }
      const outboxes = stored.filter((item) => item.sk === 'OUTBOX');
      const posted = stored.filter((item) => item.sk === 'INVOICE');
      expect(outboxes).toHaveLength(count);
      expect(outboxes.every((record) => record.state === 'POSTED')).toBe(true);
      expect(outboxes.every((record) => record.sapDocument.number === firstAnswers.get(record.idempotencyKey))).toBe(
        true,
      );
      expect(posted.filter((invoice) => invoice.sapDocument?.number)).toHaveLength(count);
      const announced = new Set(notifications.filter((n) => n.event === 'INVOICE_APPROVED').map((n) => n.invoiceId));
      expect(announced.size).toBe(count);
      // Counted once each through the crashes and the racing deliveries: the dashboard's counts match the records.
      await countsMatchIndex();
      console.info(
        `MIRO stress: ${count} approvals prepared in ${prepared - started} ms; ` +
          `${count * 3} deliveries handled in ${delivered - prepared} ms; ${postings.total} postings in SAP.`,
      );
    },
  );
});

describe('payment sync (design flow 6)', () => {
  const runPaymentSync = () => runSchedule('PaymentSync');

  it('moves ACCEPTED to SCHEDULED and then PAID from SAP payment runs, and tells the supplier', async () => {
    const [invoice] = await completedInBulk(1, SUPPLIER);
    await inProcessReview([]).approve(ADMIN_CALLER, pathOf(invoice!));
    const counters = async () => (await table().get(keys.dashboard(COMPANY.taxId, 'ALL')))!;
    const before = await counters();

    await sap('/__control/payment-run', {
      invoices: [{ supplierId: SUPPLIER.taxId, invoiceId: invoice!.id, scheduledAt: '2026-12-01' }],
    });
    await runPaymentSync();
    let detail = await call<InvoiceDetail>(routes.getInvoice, { token: await admin(), path: pathOf(invoice!) });
    expect(detail.body).toMatchObject({ status: 'SCHEDULED', scheduledAt: '2026-12-01', paidAt: null });
    expect(detail.body.statusHistory.at(-1)).toMatchObject({ status: 'SCHEDULED', title: 'Pago programado' });

    await sap('/__control/payment-run', {
      invoices: [
        { supplierId: SUPPLIER.taxId, invoiceId: invoice!.id, scheduledAt: '2026-12-01', paidAt: '2026-12-02' },
      ],
    });
    await runPaymentSync();
    await runPaymentSync(); // a second run reads the same item again and changes nothing
    detail = await call<InvoiceDetail>(routes.getInvoice, { token: await admin(), path: pathOf(invoice!) });
    expect(detail.body).toMatchObject({ status: 'PAID', scheduledAt: '2026-12-01', paidAt: '2026-12-02' });
    expect(detail.body.statusHistory.map((entry) => entry.title).slice(-3)).toEqual([
      'Aceptado',
      'Pago programado',
      'Pagado',
    ]);
    const after = await counters();
    expect(after.accepted - before.accepted).toBe(-1);
    expect(after.paid - before.paid).toBe(1);

    const feed = await until(
      async () => {
        const items = await table().partition(keys.feed('SUPPLIER', SUPPLIER.taxId));
        const texts = items.map((item) => String(item.message));
        return texts.some((text) => text.includes(`pagó la factura ${invoice!.id}`)) && texts;
      },
      { message: 'the payment notifications', timeout: 20_000 },
    );
    expect(feed.some((text) => text.includes(`programó el pago de la factura ${invoice!.id}`))).toBe(true);
  });
});

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keys, routes, withCheckDigit, type NotificationMessage } from '@portal/shared';
import { CLIENTS, tenantFixture } from '../support/tenant.js';
import { SPAN_KIND, type ReceivedSpan } from '../../local/stand-ins/otlp.js';
import { call, idTokenOf } from '../support/api.js';
import { table } from '../support/fixtures.js';
import { demoUser, stage } from '../support/stage.js';
import { uploadAs } from '../support/uploads.js';
import { randomCorrelative } from '../support/invoices.js';
import { readUntil } from '../support/until.js';

/**
 * Tracing on OpenTelemetry through the local stage's OTLP receiver: an invoice submitted through the API is one
 * trace from the request to the SUNAT worker that the queue woke, with a span for every AWS call and for the
 * call to SUNAT, each the child of the span that made it.
 */
const otlp = () => stage().endpoints.otlp;

async function spans(query: string): Promise<ReceivedSpan[]> {
  const response = await fetch(`${otlp()}${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { spans: ReceivedSpan[] }).spans;
}

const WAIT = { timeout: 60_000, interval: 200 } as const;

/**
 * The spans of a trace once `done` holds, or as they are after a minute: the consumers on the far side of a queue
 * run behind when the whole suite loads the machine's two cores.
 */
async function traceUntil(traceId: string, done: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]> {
  return readUntil(() => spans(`/api/traces/${traceId}`), done, WAIT);
}

/**
 * The worker's span for the message that `sent` sent, and the spans of the worker's trace once `done` holds. A
 * worker woken for that message alone continues its trace, as the child of `sent`; one woken for a batch (when the
 * queue has a backlog, as under the whole suite) has a trace of its own, linked to every message's sender.
 */
async function consumerOf(
  sent: ReceivedSpan,
  queueName: string,
  done: (worker: ReceivedSpan, spans: ReceivedSpan[]) => boolean = () => true,
): Promise<{ worker: ReceivedSpan | undefined; spans: ReceivedSpan[] }> {
  const name = encodeURIComponent(`process ${queueName}`);
  const read = async () => {
    const [worker] = [
      ...(await spans(`/api/spans?name=${name}&traceId=${sent.traceId}`)).filter(
        (span) => span.parentSpanId === sent.spanId,
      ),
      ...(await spans(`/api/spans?name=${name}&linkedSpanId=${sent.spanId}`)),
    ];
    return { worker, spans: worker ? await spans(`/api/traces/${worker.traceId}`) : [] };
  };
  return readUntil(read, (found) => found.worker !== undefined && done(found.worker, found.spans), WAIT);
}

/** Whether `worker` is the consumer of the message `sent` sent: its child, or linked to it from a batch. */
const consumes = (worker: ReceivedSpan, sent: ReceivedSpan) =>
  worker.parentSpanId === sent.spanId ||
  (worker.parentSpanId === null && worker.links.some((link) => link.spanId === sent.spanId));

/** A factura of the demo supplier with a number no other test uses. */
function uniqueFactura(): { xml: Buffer; id: string } {
  const number = randomCorrelative();
  const xml = tenantFixture('ubl/factura-ubl21-credito.xml').replace(
    '<cbc:ID>F001-00000458</cbc:ID>',
    `<cbc:ID>F001-${number}</cbc:ID>`,
  );
  return { xml: Buffer.from(xml), id: `F001-${number}` };
}

describe('tracing through the OTLP receiver', () => {
  it('makes API request → SUNAT queue → worker one trace, with the AWS calls and the SUNAT call as children', async () => {
    const supplier = demoUser('SUPPLIER');
    const token = await idTokenOf(supplier.username, supplier.password);
    const factura = uniqueFactura();
    const key = await uploadAs(token, 'INVOICE_XML', factura.xml, 'application/xml', 'comprobante.xml');

    const response = await call(routes.createInvoiceFromXml, { token, body: { url: key } });
    expect(response.status).toBe(201);
    expect(response.body.id).toBe(factura.id);

    // The request's span left before the response did (flushed at the end of the invocation).
    const [request] = await spans(
      `/api/spans?name=${encodeURIComponent('POST /invoices')}&attr.portal.tx_id=${response.requestId}`,
    );
    expect(request).toMatchObject({
      kind: SPAN_KIND.server,
      attributes: expect.objectContaining({ 'http.route': '/invoices', 'http.response.status_code': 201 }),
    });
    const sunatQueue = stage().queues.sunatValidation!.url;
    const queueName = sunatQueue.split('/').pop()!;
    // The request's spans, its calls included, were flushed before its response left (waited for all the same).
    const trace = await traceUntil(request!.traceId, (found) =>
      found.some((span) => span.attributes['aws.sqs.queue.url'] === sunatQueue),
    );
    const childrenIn = (found: readonly ReceivedSpan[], parent: ReceivedSpan) =>
      found.filter((span) => span.parentSpanId === parent.spanId);
    const byService = (parent: ReceivedSpan, service: string, found: readonly ReceivedSpan[] = trace) =>
      childrenIn(found, parent).filter((span) => span.attributes['rpc.service'] === service);

    // The API's own calls: the uploaded XML read from the bucket, the invoice written, the validation queued.
    const s3 = byService(request!, 'S3');
    expect(s3.map((span) => span.attributes['aws.s3.bucket'])).toContain(stage().documentsBucket);
    expect(s3.map((span) => span.attributes['aws.s3.key'])).toContain(key);
    const dynamodb = byService(request!, 'DynamoDB');
    expect(dynamodb.flatMap((span) => span.attributes['aws.dynamodb.table_names'] as string[])).toContain(
      stage().tableName,
    );
    // Each call carries the capacity DynamoDB (Local) reported it consumed: what the cost bench prices.
    for (const span of dynamodb) {
      expect(span.attributes['aws.dynamodb.consumed_read_units'], span.name).toEqual(expect.any(Number));
      expect(span.attributes['aws.dynamodb.consumed_write_units'], span.name).toEqual(expect.any(Number));
    }
    const [written] = dynamodb.filter((span) => span.name === 'DynamoDB.TransactWriteItems');
    // A transactional write of the invoice and its index entries: two units per KB, at least one item.
    expect(written!.attributes['aws.dynamodb.consumed_write_units']).toBeGreaterThanOrEqual(2);
    const [queued] = byService(request!, 'SQS').filter((span) => span.attributes['aws.sqs.queue.url'] === sunatQueue);
    expect(queued).toMatchObject({ name: 'SQS.SendMessage', kind: SPAN_KIND.producer });

    // The worker continues the producer's trace, as the child of the span that sent its message (or, woken for a
    // batch, links to it); its call to SUNAT is its child.
    const sunatCallsOf = (worker: ReceivedSpan, found: readonly ReceivedSpan[]) =>
      childrenIn(found, worker).filter((span) =>
        String(span.attributes['url.full']).startsWith(stage().endpoints.sunat),
      );
    const { worker, spans: workerTrace } = await consumerOf(
      queued!,
      queueName,
      (found, all) => sunatCallsOf(found, all).length > 0,
    );
    expect(worker).toMatchObject({ kind: SPAN_KIND.consumer });
    expect(consumes(worker!, queued!)).toBe(true);
    const sunatCalls = sunatCallsOf(worker!, workerTrace);
    expect(sunatCalls.length).toBeGreaterThan(0);
    expect(sunatCalls[0]).toMatchObject({
      kind: SPAN_KIND.client,
      attributes: expect.objectContaining({ 'http.response.status_code': 200 }),
    });
    // Its own reads and writes of the invoice, and the notice it queues, are its children too.
    expect(byService(worker!, 'DynamoDB', workerTrace).length).toBeGreaterThan(0);
    expect(byService(worker!, 'SQS', workerTrace).map((span) => span.name)).toContain('SQS.SendMessage');
    // consumerOf waits up to a minute for the worker: the test's own budget must outlast it.
  }, 90_000);

  it('keeps a message the outbox sweeper sends again in the trace of the request that committed it', async () => {
    // A notice committed twenty minutes ago by a request of trace `traceId` (its span `requestSpanId`) and never
    // sent (its sender died): an OUTGOING item with that request's trace context, about a supplier of this test.
    const traceId = randomBytes(16).toString('hex');
    const requestSpanId = randomBytes(8).toString('hex');
    const supplierId = withCheckDigit('2070000043');
    const message: NotificationMessage = {
      event: 'INVOICE_RECEIVED',
      supplierId,
      supplierName: 'Proveedor de la Traza S.A.C.',
      client: CLIENTS[0]!.taxId,
      clientName: CLIENTS[0]!.name,
      invoiceType: 'FACTURA',
      invoiceId: 'F001-9',
      detail: null,
      occurredAt: new Date().toISOString(),
    };
    const createdAt = new Date(Date.now() - 20 * 60_000).toISOString();
    const key = keys.outgoing('notifications', `trace-test-${Date.now()}`);
    await table().put({
      ...key,
      ...keys.outgoingIndexes('notifications', createdAt, key.pk),
      queue: 'notifications',
      body: JSON.stringify(message),
      createdAt,
      traceparent: `00-${traceId}-${requestSpanId}-01`,
    });
    const sweep = await fetch(`${stage().endpoints.sap}/__control/schedules/OutboxSweeper`, { method: 'POST' });
    expect(sweep.ok).toBe(true);

    const queueName = stage().queues.notifications!.url.split('/').pop()!;
    // Two sweeper runs (the schedule's and this one) may both have sent it: either send will do.
    const sendsOf = (found: readonly ReceivedSpan[]) =>
      found.flatMap((relay) =>
        relay.name === 'relay notifications'
          ? found.filter((span) => span.parentSpanId === relay.spanId).map((sent) => ({ relay, sent }))
          : [],
      );
    const trace = await traceUntil(traceId, (found) => sendsOf(found).length > 0);
    // Sent by the sweeper whatever the consumer's delay: a failure here is the relay's, not the worker's.
    expect(trace.map((span) => span.name)).toContain('relay notifications');
    const [{ relay, sent } = {}] = sendsOf(trace);
    // The sweeper's send is a span of the request's trace, the child of its span, linked to the sweeper's run.
    expect(relay).toMatchObject({ name: 'relay notifications', parentSpanId: requestSpanId });
    expect(relay!.links).toHaveLength(1);
    expect(relay!.links[0]!.traceId).not.toBe(traceId);
    expect(sent).toMatchObject({ name: 'SQS.SendMessage', kind: SPAN_KIND.producer });
    // The notifications worker continues it, as the child of that send (or linked to it, woken for a batch).
    const { worker } = await consumerOf(sent!, queueName);
    expect(worker).toMatchObject({ kind: SPAN_KIND.consumer });
    expect(consumes(worker!, sent!)).toBe(true);
  }, 90_000);
});

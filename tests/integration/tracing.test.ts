import { randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { keys, routes, withCheckDigit, type NotificationMessage } from '@portal/shared';
import { CLIENTS } from '../../infra/local/seed-data.js';
import { SPAN_KIND, type ReceivedSpan } from '../../infra/local/services/otlp.js';
import { call, idTokenOf } from '../support/api.js';
import { table } from '../support/fixtures.js';
import { demoUser, stage } from '../support/stage.js';
import { uploadAs } from '../support/uploads.js';

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

/**
 * The spans of a trace once `done` holds, or as they are after a minute: the consumers on the far side of a queue
 * run behind when the whole suite loads the machine's two cores.
 */
async function traceUntil(traceId: string, done: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = await spans(`/api/traces/${traceId}`);
    if (done(found) || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A factura of the demo supplier with a number no other test uses. */
function uniqueFactura(): { xml: Buffer; id: string } {
  const file = path.join(import.meta.dirname, '../fixtures/ubl/factura-ubl21-credito.xml');
  const number = String(randomInt(10_000_000, 99_999_999));
  const xml = readFileSync(file, 'utf8').replace('<cbc:ID>F001-00000458</cbc:ID>', `<cbc:ID>F001-${number}</cbc:ID>`);
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
    const trace = await traceUntil(request!.traceId, (found) =>
      found.some(
        (span) =>
          span.parentSpanId !== null &&
          found.some((worker) => worker.name === `process ${queueName}` && worker.spanId === span.parentSpanId) &&
          String(span.attributes['url.full']).startsWith(stage().endpoints.sunat),
      ),
    );
    const childrenOf = (parent: ReceivedSpan) => trace.filter((span) => span.parentSpanId === parent.spanId);
    const byService = (parent: ReceivedSpan, service: string) =>
      childrenOf(parent).filter((span) => span.attributes['rpc.service'] === service);

    // The API's own calls: the uploaded XML read from the bucket, the invoice written, the validation queued.
    const s3 = byService(request!, 'S3');
    expect(s3.map((span) => span.attributes['aws.s3.bucket'])).toContain(stage().documentsBucket);
    expect(s3.map((span) => span.attributes['aws.s3.key'])).toContain(key);
    const dynamodb = byService(request!, 'DynamoDB');
    expect(dynamodb.flatMap((span) => span.attributes['aws.dynamodb.table_names'] as string[])).toContain(
      stage().tableName,
    );
    const [queued] = byService(request!, 'SQS').filter((span) => span.attributes['aws.sqs.queue.url'] === sunatQueue);
    expect(queued).toMatchObject({ name: 'SQS.SendMessage', kind: SPAN_KIND.producer });

    // The worker continues the producer's trace, as the child of the span that sent its message.
    const worker = trace.find((span) => span.name === `process ${queueName}`);
    expect(worker).toMatchObject({ kind: SPAN_KIND.consumer, parentSpanId: queued!.spanId });
    const sunatCalls = childrenOf(worker!).filter((span) =>
      String(span.attributes['url.full']).startsWith(stage().endpoints.sunat),
    );
    expect(sunatCalls.length).toBeGreaterThan(0);
    expect(sunatCalls[0]).toMatchObject({
      kind: SPAN_KIND.client,
      attributes: expect.objectContaining({ 'http.response.status_code': 200 }),
    });
    // Its own reads and writes of the invoice, and the notice it queues, are its children too.
    expect(byService(worker!, 'DynamoDB').length).toBeGreaterThan(0);
    expect(byService(worker!, 'SQS').map((span) => span.name)).toContain('SQS.SendMessage');
    // traceUntil waits up to a minute for the worker: the test's own budget must outlast it.
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
    // Two sweeper runs (the schedule's and this one) may both have sent it; walk back from the worker's span.
    const chain = (found: readonly ReceivedSpan[]) => {
      const processed = found.find((span) => span.name === `process ${queueName}`);
      const sent = processed && found.find((span) => span.spanId === processed.parentSpanId);
      const relay = sent && found.find((span) => span.spanId === sent.parentSpanId);
      return { processed, sent, relay };
    };
    const trace = await traceUntil(traceId, (found) => chain(found).relay !== undefined);
    // Sent by the sweeper whatever the consumer's delay: a failure here is the relay's, not the worker's.
    expect(trace.map((span) => span.name)).toContain('relay notifications');
    const { processed, sent, relay } = chain(trace);
    // The sweeper's send is a span of the request's trace, the child of its span, linked to the sweeper's run.
    expect(relay).toMatchObject({ name: 'relay notifications', parentSpanId: requestSpanId });
    expect(relay!.links).toHaveLength(1);
    expect(relay!.links[0]!.traceId).not.toBe(traceId);
    expect(sent).toMatchObject({ name: 'SQS.SendMessage', kind: SPAN_KIND.producer });
    // The notifications worker continues it, as the child of that send.
    expect(processed).toMatchObject({ kind: SPAN_KIND.consumer });
  }, 90_000);
});

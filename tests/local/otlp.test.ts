import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SpanKind, context, trace } from '@opentelemetry/api';
import { createTelemetry } from '../../functions/src/observability/telemetry.js';
import { SPAN_KIND, startOtlpReceiver, type ReceivedSpan } from '../../local/stand-ins/otlp.js';
import type { RunningService } from '../../local/stand-ins/types.js';
import { freePort, makeTempDir, removeDir } from './helpers.js';

/** The local stage's OTLP receiver, fed by the functions' own exporter (OTLP/HTTP with JSON). */
let dir: string;
let port: number;
let receiver: RunningService;

const start = async () => {
  receiver = await startOtlpReceiver({ port, host: '127.0.0.1', dataDir: dir });
  return receiver;
};

beforeEach(async () => {
  dir = makeTempDir('portal-otlp');
  port = await freePort();
  await start();
});

afterEach(async () => {
  await receiver.stop();
  removeDir(dir);
});

const spansOfTrace = async (traceId: string) =>
  ((await (await fetch(`${receiver.endpoint}/api/traces/${traceId}`)).json()) as { spans: ReceivedSpan[] }).spans;

describe('the OTLP receiver', () => {
  it('keeps what a function exports, parents, kinds and attributes, and keeps it across a restart', async () => {
    const telemetry = createTelemetry({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_SERVICE_NAME: 'portal-test' },
    });
    const request = telemetry.tracer.startSpan('POST /invoices', { kind: SpanKind.SERVER });
    const call = telemetry.tracer.startSpan(
      'DynamoDB.PutItem',
      {
        kind: SpanKind.CLIENT,
        attributes: { 'aws.dynamodb.table_names': ['portal-local'], 'http.response.status_code': 200 },
      },
      trace.setSpan(context.active(), request),
    );
    call.end();
    request.end();
    // A worker that handled a batch: its span is linked to the request, in a trace of its own.
    const batch = telemetry.tracer.startSpan('process portal-notifications', {
      kind: SpanKind.CONSUMER,
      links: [{ context: request.spanContext() }],
    });
    batch.end();
    await telemetry.flush();

    const { traceId, spanId } = request.spanContext();
    const expected = [
      {
        name: 'POST /invoices',
        kind: SPAN_KIND.server,
        parentSpanId: null,
        spanId,
        service: 'portal-test',
      },
      {
        name: 'DynamoDB.PutItem',
        kind: SPAN_KIND.client,
        parentSpanId: spanId,
        attributes: { 'aws.dynamodb.table_names': ['portal-local'], 'http.response.status_code': 200 },
      },
    ];
    expect(await spansOfTrace(traceId)).toEqual(
      expect.arrayContaining(expected.map((span) => expect.objectContaining(span))),
    );

    const byAttribute = await fetch(`${receiver.endpoint}/api/spans?attr.http.response.status_code=200`);
    expect(((await byAttribute.json()) as { spans: ReceivedSpan[] }).spans.map((span) => span.name)).toEqual([
      'DynamoDB.PutItem',
    ]);
    const linked = await fetch(`${receiver.endpoint}/api/spans?linkedSpanId=${spanId}`);
    expect(((await linked.json()) as { spans: ReceivedSpan[] }).spans).toEqual([
      expect.objectContaining({ name: 'process portal-notifications', parentSpanId: null }),
    ]);

    await receiver.stop();
    await start();
    expect(await spansOfTrace(traceId)).toHaveLength(2);
  });

  it('refuses what a collector refuses: another encoding, a body that is no export request, an oversized one', async () => {
    const post = (body: string | Buffer, type = 'application/json') =>
      fetch(`${receiver.endpoint}/v1/traces`, { method: 'POST', headers: { 'content-type': type }, body });

    expect((await post(Buffer.from([1, 2, 3]), 'application/x-protobuf')).status).toBe(415);
    expect((await post('{nada')).status).toBe(400);
    expect(
      (await post('{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"x","traceId":"no","spanId":"1"}]}]}]}')).status,
    ).toBe(400);
    expect((await post(`{"resourceSpans":[],"padding":"${'x'.repeat(5 * 1024 * 1024)}"}`)).status).toBe(413);
    expect((await post('{"resourceSpans":[]}')).status).toBe(200);
  });
});

import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { SQSClient, SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { BatchSpanProcessor, InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { HttpResponse, type HttpRequest as SdkRequest } from '@smithy/core/protocols';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  TRACEPARENT,
  contextFromMessage,
  createTelemetry,
  injectIntoMessageAttributes,
  instrumentFetch,
  telemetry as moduleTelemetry,
  traceContextNow,
  tracesEndpoint,
} from './telemetry.js';

const QUEUE_URL = 'https://sqs.sa-east-1.amazonaws.com/123456789012/portal-prod-sunat-validation';
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

function setup(env: NodeJS.ProcessEnv = {}) {
  const exporter = new InMemorySpanExporter();
  const telemetry = createTelemetry({ exporter, exportEachSpan: true, env });
  const spanNamed = (name: string): ReadableSpan => {
    const found = exporter.getFinishedSpans().find((span) => span.name === name);
    if (!found)
      throw new Error(
        `no span ${name}: ${exporter
          .getFinishedSpans()
          .map((s) => s.name)
          .join(', ')}`,
      );
    return found;
  };
  return { exporter, telemetry, spanNamed };
}

/** An HTTP handler standing in for AWS: records each request and answers as the service would. */
function fakeAws(answer: (request: SdkRequest, body: Record<string, unknown>) => { status: number; body: unknown }) {
  const requests: { headers: Record<string, string>; body: Record<string, unknown> }[] = [];
  const handler = {
    async handle(request: SdkRequest) {
      const raw = request.body as string | Uint8Array | undefined;
      const text = typeof raw === 'string' ? raw : Buffer.from(raw ?? []).toString('utf8');
      const body = JSON.parse(text || '{}') as Record<string, unknown>;
      requests.push({ headers: { ...request.headers }, body });
      const answered = answer(request, body);
      return {
        response: new HttpResponse({
          statusCode: answered.status,
          headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'req-123' },
          body: Readable.from([Buffer.from(JSON.stringify(answered.body))]),
        }),
      };
    },
  };
  return { requests, handler };
}

const fakeCredentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' };

describe('trace context in SQS message attributes', () => {
  it("writes the active span's W3C context beside the message's own attributes, and reads it back", () => {
    const { telemetry } = setup();
    const span = telemetry.tracer.startSpan('enviar');
    const attributes = injectIntoMessageAttributes(
      { kind: { DataType: 'String', StringValue: 'SUNAT' } },
      trace.setSpan(context.active(), span),
    );
    span.end();

    const { traceId, spanId } = span.spanContext();
    expect(attributes).toEqual({
      kind: { DataType: 'String', StringValue: 'SUNAT' },
      traceparent: { DataType: 'String', StringValue: `00-${traceId}-${spanId}-01` },
    });
    const received = contextFromMessage({
      messageAttributes: { traceparent: { stringValue: attributes!.traceparent!.StringValue } },
    });
    expect(trace.getSpanContext(received!)).toMatchObject({ traceId, spanId, isRemote: true });
  });

  it('leaves a message without context alone, and one whose ten attributes leave no room', () => {
    const { telemetry } = setup();
    expect(injectIntoMessageAttributes({ a: { DataType: 'String', StringValue: '1' } })).toEqual({
      a: { DataType: 'String', StringValue: '1' },
    });
    const full = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [`a${i}`, { DataType: 'String', StringValue: String(i) }]),
    );
    const span = telemetry.tracer.startSpan('enviar');
    expect(injectIntoMessageAttributes(full, trace.setSpan(context.active(), span))).toBe(full);
    span.end();
  });

  it('ignores a record without a context or with a malformed one', () => {
    expect(contextFromMessage({})).toBeNull();
    expect(contextFromMessage({ messageAttributes: { traceparent: { stringValue: '00-nada-01' } } })).toBeNull();
    expect(
      contextFromMessage({
        messageAttributes: { traceparent: { stringValue: `00-${'0'.repeat(32)}-${'1'.repeat(16)}-01` } },
      }),
    ).toBeNull();
  });
});

describe('AWS SDK clients', () => {
  it('record a producer span per SendMessage and send its context in the message and the X-Ray header', async () => {
    const { telemetry, spanNamed } = setup();
    const aws = fakeAws((_request, body) => ({
      status: 200,
      body: { MessageId: 'm-1', MD5OfMessageBody: md5(String(body.MessageBody)) },
    }));
    const sqs = telemetry.instrumentClient(
      new SQSClient({ region: 'sa-east-1', credentials: fakeCredentials, requestHandler: aws.handler, md5: false }),
    );
    const input = { QueueUrl: QUEUE_URL, MessageBody: '{"invoiceId":"F001-1"}' };

    await telemetry.tracer.startActiveSpan('POST /invoices', async (request) => {
      await sqs.send(new SendMessageCommand(input));
      request.end();
    });

    const sent = spanNamed('SQS.SendMessage');
    const parent = spanNamed('POST /invoices');
    expect(sent.kind).toBe(SpanKind.PRODUCER);
    expect(sent.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(sent.attributes).toMatchObject({
      'rpc.system': 'aws-api',
      'rpc.service': 'SQS',
      'rpc.method': 'SendMessage',
      'aws.sqs.queue.url': QUEUE_URL,
      'messaging.destination.name': 'portal-prod-sunat-validation',
      'cloud.region': 'sa-east-1',
      'aws.request_id': 'req-123',
      'http.response.status_code': 200,
    });
    const { traceId, spanId } = sent.spanContext();
    const onTheWire = aws.requests[0]!;
    expect(onTheWire.body.MessageAttributes).toEqual({
      [TRACEPARENT]: { DataType: 'String', StringValue: `00-${traceId}-${spanId}-01` },
    });
    expect(onTheWire.headers['x-amzn-trace-id']).toBe(
      `Root=1-${traceId.slice(0, 8)}-${traceId.slice(8)};Parent=${spanId};Sampled=1`,
    );
    // The caller's input is not changed.
    expect(input).not.toHaveProperty('MessageAttributes');
  });

  it('give every message of a batch the context', async () => {
    const { telemetry, spanNamed } = setup();
    const aws = fakeAws((_request, body) => ({
      status: 200,
      body: {
        Successful: (body.Entries as { Id: string; MessageBody: string }[]).map((entry) => ({
          Id: entry.Id,
          MessageId: `m-${entry.Id}`,
          MD5OfMessageBody: md5(entry.MessageBody),
        })),
        Failed: [],
      },
    }));
    const sqs = telemetry.instrumentClient(
      new SQSClient({ region: 'sa-east-1', credentials: fakeCredentials, requestHandler: aws.handler, md5: false }),
    );

    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: QUEUE_URL,
        Entries: [
          { Id: 'a', MessageBody: '1' },
          { Id: 'b', MessageBody: '2', MessageAttributes: { kind: { DataType: 'String', StringValue: 'x' } } },
        ],
      }),
    );

    const { traceId, spanId } = spanNamed('SQS.SendMessageBatch').spanContext();
    const entries = aws.requests[0]!.body.Entries as { MessageAttributes: Record<string, { StringValue: string }> }[];
    expect(entries.map((entry) => entry.MessageAttributes[TRACEPARENT]!.StringValue)).toEqual([
      `00-${traceId}-${spanId}-01`,
      `00-${traceId}-${spanId}-01`,
    ]);
    expect(entries[1]!.MessageAttributes.kind).toEqual({ DataType: 'String', StringValue: 'x' });
  });

  it('mark a refused call as an error, with its status and table, once however many times it is sent', async () => {
    const { telemetry, exporter, spanNamed } = setup();
    const aws = fakeAws(() => ({
      status: 400,
      body: { __type: 'com.amazonaws.dynamodb.v20120810#ResourceNotFoundException', message: 'no table' },
    }));
    const dynamodb = telemetry.instrumentClient(
      new DynamoDBClient({ region: 'sa-east-1', credentials: fakeCredentials, requestHandler: aws.handler }),
    );
    telemetry.instrumentClient(dynamodb);

    await expect(
      dynamodb.send(new GetItemCommand({ TableName: 'portal-prod', Key: { pk: { S: 'x' } } })),
    ).rejects.toThrow('no table');

    const call = spanNamed('DynamoDB.GetItem');
    expect(call.kind).toBe(SpanKind.CLIENT);
    expect(call.status.code).toBe(SpanStatusCode.ERROR);
    expect(call.attributes).toMatchObject({
      'aws.dynamodb.table_names': ['portal-prod'],
      'http.response.status_code': 400,
    });
    expect(call.events.map((event) => event.name)).toEqual(['exception']);
    expect(exporter.getFinishedSpans()).toHaveLength(1);
  });
});

describe('invocations', () => {
  it('flush the request span, with its route and status, before the response is returned', async () => {
    const exporter = new InMemorySpanExporter();
    // Batched, as in Lambda: nothing leaves until the invocation's flush.
    const telemetry = createTelemetry({ exporter, env: {} });
    const handler = telemetry.invocation(async (_event: unknown) => ({ statusCode: 503, body: '' }));

    await handler({ routeKey: 'GET /invoices', requestContext: { http: { method: 'GET' } } });

    const [span] = exporter.getFinishedSpans();
    expect(span).toMatchObject({ name: 'GET /invoices', kind: SpanKind.SERVER });
    expect(span!.attributes).toMatchObject({
      'http.route': '/invoices',
      'http.response.status_code': 503,
      'faas.coldstart': true,
    });
    expect(span!.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('return each only once its span is exported, those that end during an export sharing the next one', async () => {
    const exported: string[][] = [];
    const held: (() => void)[] = [];
    // An exporter that answers only when the test lets it: the first export is still under way when others end.
    const exporter = {
      export(spans: ReadableSpan[], done: (result: { code: number }) => void) {
        exported.push(spans.map((span) => span.name));
        held.push(() => done({ code: 0 }));
      },
      shutdown: async () => undefined,
    };
    const telemetry = createTelemetry({ exporter, env: {} });
    const handler = telemetry.invocation(async (event: { routeKey: string }) => ({
      statusCode: 200,
      body: event.routeKey,
    }));
    const request = (path: string) => ({ routeKey: `GET ${path}`, requestContext: { http: { method: 'GET' } } });
    const returned: string[] = [];
    const invoke = (path: string) => handler(request(path)).then(() => void returned.push(path));

    const first = invoke('/a');
    await vi.waitFor(() => expect(exported).toHaveLength(1));
    const others = [invoke('/b'), invoke('/c')];
    await new Promise((resolve) => setTimeout(resolve, 20));
    // /b and /c ended after /a's export left: nothing returns before its own span is out.
    expect(returned).toEqual([]);
    held.shift()!();
    await first;
    await vi.waitFor(() => expect(exported).toHaveLength(2));
    expect(exported).toEqual([['GET /a'], ['GET /b', 'GET /c']]);
    expect(returned).toEqual(['/a']);
    held.shift()!();
    await Promise.all(others);
    expect(returned).toEqual(['/a', '/b', '/c']);
    expect(exported).toHaveLength(2);
  });

  it('flush nothing for an invocation the sampler left out, and flush a recorded one', async () => {
    const flushes = vi.spyOn(BatchSpanProcessor.prototype, 'forceFlush');
    const exporter = new InMemorySpanExporter();
    // Reads never traced, writes always: the local stage's reads at a low ratio.
    const telemetry = createTelemetry({ exporter, env: { PORTAL_READ_TRACE_SAMPLE_RATIO: '0' } });
    const handler = telemetry.invocation(async (_event: unknown) => ({ statusCode: 200, body: '' }));
    const request = (method: string) => ({ routeKey: `${method} /invoices`, requestContext: { http: { method } } });
    try {
      for (let i = 0; i < 10; i++) await handler(request('GET'));
      expect(flushes).not.toHaveBeenCalled();
      await handler(request('POST'));
      expect(flushes).toHaveBeenCalledTimes(1);
      expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['POST /invoices']);
    } finally {
      flushes.mockRestore();
    }
  });

  it("continue Lambda's X-Ray segment, honouring its sampling decision", async () => {
    const { telemetry, exporter } = setup({
      _X_AMZN_TRACE_ID: 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1',
    });
    await telemetry.invocation(async (_event: unknown) => 'ok')({});
    expect(exporter.getFinishedSpans()[0]!.spanContext().traceId).toBe('5759e988bd862e3fe1be46a994272793');
    expect(exporter.getFinishedSpans()[0]!.parentSpanContext?.spanId).toBe('53995c3f42cd8ad8');
  });

  it("begin a trace of their own under Lambda's pass-through header, recorded in the function's ratio", async () => {
    const passThrough = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=0';
    const write = setup({ _X_AMZN_TRACE_ID: passThrough });
    await write.telemetry.invocation(async (_event: unknown) => 'ok')({ routeKey: 'POST /invoices' });
    const [span] = write.exporter.getFinishedSpans();
    expect(span!.spanContext().traceId).not.toBe('5759e988bd862e3fe1be46a994272793');
    expect(span!.parentSpanContext).toBeUndefined();

    // A read traced one time in twenty: over 400 invocations, about 20 traces, never all nor none.
    const read = setup({ _X_AMZN_TRACE_ID: passThrough, PORTAL_TRACE_SAMPLE_RATIO: '0.05' });
    const list = read.telemetry.invocation(async (_event: unknown) => {
      await read.telemetry.tracer.startActiveSpan('DynamoDB.Query', async (query) => query.end());
      return 'ok';
    });
    for (let i = 0; i < 400; i++) await list({ routeKey: 'GET /invoices' });
    const roots = read.exporter.getFinishedSpans().filter((s) => s.name === 'GET /invoices');
    expect(roots.length).toBeGreaterThan(5);
    expect(roots.length).toBeLessThan(45);
    // A recorded trace is whole: each recorded invocation has its call, and no call is recorded without it.
    const calls = read.exporter.getFinishedSpans().filter((s) => s.name === 'DynamoDB.Query');
    expect(calls.map((s) => s.spanContext().traceId).sort()).toEqual(roots.map((s) => s.spanContext().traceId).sort());
  });

  it("trace the API reads of a process serving every route in their own ratio, the rest in the function's", async () => {
    // The local stage's stand-in for AWS's low ratio on each read's function: reads one in twenty, writes all.
    const stage = setup({ PORTAL_READ_TRACE_SAMPLE_RATIO: '0.05' });
    const serve = stage.telemetry.invocation(async (_event: unknown) => 'ok');
    for (let i = 0; i < 400; i++) {
      await serve({ routeKey: 'GET /invoices', requestContext: { http: { method: 'GET' } } });
      await serve({ routeKey: '$default', requestContext: { http: { method: 'POST' } } });
      await serve({ routeKey: 'POST /invoices', requestContext: { http: { method: 'POST' } } });
    }
    const named = (name: string) => stage.exporter.getFinishedSpans().filter((s) => s.name === name).length;
    expect(named('GET /invoices')).toBeGreaterThan(5);
    expect(named('GET /invoices')).toBeLessThan(45);
    expect(named('$default')).toBeGreaterThan(5);
    expect(named('$default')).toBeLessThan(45);
    expect(named('POST /invoices')).toBe(400);

    // Unset, every read is traced (the tests read the stage's traces); a function's own ratio still applies to all.
    const all = setup();
    await all.telemetry.invocation(async (_event: unknown) => 'ok')({ routeKey: 'GET /invoices' });
    expect(all.exporter.getFinishedSpans().map((s) => s.name)).toEqual(['GET /invoices']);
    const none = setup({ PORTAL_TRACE_SAMPLE_RATIO: '0', PORTAL_READ_TRACE_SAMPLE_RATIO: '1' });
    const invoke = none.telemetry.invocation(async (_event: unknown) => 'ok');
    await invoke({ routeKey: 'GET /invoices', requestContext: { http: { method: 'GET' } } });
    await invoke({ routeKey: 'POST /invoices', requestContext: { http: { method: 'POST' } } });
    expect(none.exporter.getFinishedSpans().map((s) => s.name)).toEqual(['GET /invoices']);
  });

  it("follow the decision of the request that sent a worker's message, whatever the worker's ratio", async () => {
    const request = setup({ PORTAL_TRACE_SAMPLE_RATIO: '0' });
    const unsampled = request.telemetry.tracer.startSpan('GET /invoices');
    expect(unsampled.isRecording()).toBe(false);
    const sampled = setup().telemetry.tracer.startSpan('POST /invoices');
    const record = (span: typeof sampled) => ({
      messageId: '1',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:sa-east-1:123456789012:portal-prod-exports',
      messageAttributes: {
        traceparent: {
          stringValue: injectIntoMessageAttributes(undefined, trace.setSpan(context.active(), span))!.traceparent!
            .StringValue,
          dataType: 'String',
        },
      },
    });
    const worker = setup({ PORTAL_TRACE_SAMPLE_RATIO: '0' });
    const handler = worker.telemetry.invocation(async (_event: unknown) => ({ batchItemFailures: [] }));
    await handler({ Records: [record(unsampled)] });
    expect(worker.exporter.getFinishedSpans()).toHaveLength(0);
    const always = setup();
    await always.telemetry.invocation(async (_event: unknown) => ({ batchItemFailures: [] }))({
      Records: [record(unsampled)],
    });
    expect(always.exporter.getFinishedSpans()).toHaveLength(0);
    await always.telemetry.invocation(async (_event: unknown) => ({ batchItemFailures: [] }))({
      Records: [record(sampled)],
    });
    expect(always.exporter.getFinishedSpans()[0]!.spanContext().traceId).toBe(sampled.spanContext().traceId);
  });

  it("make a worker's span the child of the span that sent its message, and link every message of a batch", async () => {
    const { telemetry, exporter } = setup();
    const sender = telemetry.tracer.startSpan('SQS.SendMessage');
    const attributes = injectIntoMessageAttributes(undefined, trace.setSpan(context.active(), sender))!;
    sender.end();
    const record = (id: string, withContext: boolean) => ({
      messageId: id,
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:sa-east-1:123456789012:portal-prod-sunat-validation',
      messageAttributes: withContext
        ? { traceparent: { stringValue: attributes.traceparent!.StringValue, dataType: 'String' } }
        : {},
    });
    let activeInHandler: string | undefined;
    const worker = telemetry.invocation(async (_event: unknown) => {
      activeInHandler = trace.getActiveSpan()?.spanContext().spanId;
      return { batchItemFailures: [] };
    });

    await worker({ Records: [record('1', true)] });
    const single = exporter.getFinishedSpans().find((span) => span.name === 'process portal-prod-sunat-validation')!;
    expect(single.kind).toBe(SpanKind.CONSUMER);
    expect(single.spanContext().traceId).toBe(sender.spanContext().traceId);
    expect(single.parentSpanContext?.spanId).toBe(sender.spanContext().spanId);
    expect(activeInHandler).toBe(single.spanContext().spanId);

    exporter.reset();
    await worker({ Records: [record('1', true), record('2', false), record('3', true)] });
    const batch = exporter.getFinishedSpans()[0]!;
    expect(batch.spanContext().traceId).not.toBe(sender.spanContext().traceId);
    expect(batch.links.map((link) => link.context.spanId)).toEqual([
      sender.spanContext().spanId,
      sender.spanContext().spanId,
    ]);
  });

  it("continue a stored trace in a later invocation (the outbox sweeper's re-send), linked to that invocation's span", async () => {
    const { telemetry, spanNamed } = setup();
    // The approval's request: its trace context is kept with the message it committed.
    const request = telemetry.tracer.startSpan('POST /invoices/{invoiceId}/review');
    const stored = traceContextNow(trace.setSpan(context.active(), request));
    request.end();

    let sent: string | undefined;
    let untraced: string | undefined;
    const sweeper = telemetry.invocation(async (_event: unknown) => {
      await telemetry.continueTrace(stored, 'relay miroRequests', async () => {
        sent = injectIntoMessageAttributes(undefined)![TRACEPARENT]!.StringValue;
      });
      await telemetry.continueTrace({ traceparent: null }, 'relay miroRequests', async () => {
        untraced = injectIntoMessageAttributes(undefined)![TRACEPARENT]!.StringValue;
      });
      return undefined;
    });
    await sweeper({ 'detail-type': 'Scheduled Event', resources: ['arn:aws:events:x:1:rule/outbox-sweeper'] });

    const run = spanNamed('scheduled outbox-sweeper');
    const relay = spanNamed('relay miroRequests');
    expect(run.spanContext().traceId).not.toBe(request.spanContext().traceId);
    // The message sent again carries the approval's trace, under a span of that trace that links the sweeper's run.
    expect(relay.spanContext().traceId).toBe(request.spanContext().traceId);
    expect(relay.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(relay.links.map((link) => link.context.spanId)).toEqual([run.spanContext().spanId]);
    expect(sent).toBe(`00-${request.spanContext().traceId}-${relay.spanContext().spanId}-01`);
    // Nothing stored: the message stays in the run's trace.
    expect(untraced).toContain(run.spanContext().traceId);
  });

  it('record a failed invocation as an error and still flush it', async () => {
    const { telemetry, exporter } = setup();
    const failing = telemetry.invocation(async (_event: unknown) => {
      throw new Error('SAP no responde');
    });
    await expect(
      failing({ 'detail-type': 'Scheduled Event', resources: ['arn:aws:events:x:1:rule/sync'] }),
    ).rejects.toThrow();
    const [span] = exporter.getFinishedSpans();
    expect(span).toMatchObject({ name: 'scheduled sync' });
    expect(span!.status.code).toBe(SpanStatusCode.ERROR);
    expect(span!.events[0]!.attributes).toMatchObject({ 'exception.message': 'SAP no responde' });
  });
});

describe('fetch', () => {
  afterEach(() => instrumentFetch(moduleTelemetry.tracer));

  it('records a client span per request, without the query, and sends its context to the server', async () => {
    const { telemetry, spanNamed } = setup();
    instrumentFetch(telemetry.tracer);
    const received: (string | undefined)[] = [];
    const server = http.createServer((req, res) => {
      received.push(req.headers.traceparent as string | undefined);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      await telemetry.tracer.startActiveSpan('worker', async (span) => {
        await (await fetch(`http://127.0.0.1:${port}/sap/opu/odata?$filter=secreto`)).text();
        span.end();
      });
      // Outside any span nothing is recorded.
      await (await fetch(`http://127.0.0.1:${port}/fuera`)).text();
    } finally {
      server.close();
    }

    const call = spanNamed('GET 127.0.0.1');
    expect(call.kind).toBe(SpanKind.CLIENT);
    expect(call.parentSpanContext?.spanId).toBe(spanNamed('worker').spanContext().spanId);
    expect(call.attributes).toMatchObject({
      'url.full': `http://127.0.0.1:${port}/sap/opu/odata`,
      'http.response.status_code': 404,
    });
    expect(call.status.code).toBe(SpanStatusCode.ERROR);
    expect(received).toEqual([`00-${call.spanContext().traceId}-${call.spanContext().spanId}-01`, undefined]);
  });
});

describe('the exporter endpoint', () => {
  it('is the traces endpoint, or the OTLP endpoint with its traces path, and none when disabled', () => {
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://localhost:4318/' })).toBe(
      'http://localhost:4318/v1/traces',
    );
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4712/v1/traces' })).toBe(
      'http://127.0.0.1:4712/v1/traces',
    );
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x', OTEL_SDK_DISABLED: 'true' })).toBeNull();
    expect(tracesEndpoint({})).toBeNull();
  });
});

import { subscribe } from 'node:diagnostics_channel';
import {
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { AWSXRayPropagator, AWSXRAY_TRACE_ID_HEADER } from '@opentelemetry/propagator-aws-xray';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVICE_NAME,
  ATTR_URL_FULL,
} from '@opentelemetry/semantic-conventions';
import { METRICS, RUNTIME_ENV } from '@portal/shared';

/**
 * Tracing on OpenTelemetry (docs/adr/0011-tracing-on-opentelemetry.md).
 *
 * Each function builds one tracer provider when its module loads and exports its spans over OTLP/HTTP to
 * OTEL_EXPORTER_OTLP_ENDPOINT: in AWS the ADOT collector layer beside the function (localhost:4318), which sends
 * them to X-Ray; on the local stage the stage's OTLP receiver. Without an endpoint (unit tests) spans are made,
 * so that context still travels, but go nowhere.
 *
 * Bundled ESM code is out of reach of OpenTelemetry's automatic instrumentation, so what the X-Ray SDK did is done
 * here by hand:
 * - a span per invocation (`invocation()`), the child of Lambda's own X-Ray segment (its trace header) when there is
 *   one; flushed before the invocation returns, since Lambda freezes the environment after it;
 * - a span per AWS SDK call (`instrumentClient`: a middleware on the client) with service, operation, region,
 *   request id, status and the table, queue or bucket; SQS messages carry the call's context as a W3C
 *   `traceparent` message attribute, and every call an `X-Amzn-Trace-Id` header (which SQS hands to Lambda);
 * - a span per `fetch` request (SAP, SUNAT), from fetch's diagnostics channels;
 * - a worker's invocation span continues the trace of the message it handles (the child of the span that sent
 *   it, or of Lambda's segment when Lambda continued that trace itself) and links to every message of a batch:
 *   API → queue → worker is one trace.
 * Responses, bodies and query strings are never recorded (invoices, tokens, personal data).
 */

const TRACER_NAME = 'portal-proveedores';

/** Incubating semantic conventions, named here as OpenTelemetry advises instead of importing their entry point. */
export const ATTR = {
  rpcSystem: 'rpc.system',
  rpcService: 'rpc.service',
  rpcMethod: 'rpc.method',
  cloudRegion: 'cloud.region',
  awsRequestId: 'aws.request_id',
  awsExtendedRequestId: 'aws.extended_request_id',
  dynamodbTableNames: 'aws.dynamodb.table_names',
  sqsQueueUrl: 'aws.sqs.queue.url',
  s3Bucket: 'aws.s3.bucket',
  s3Key: 'aws.s3.key',
  retries: 'aws.retries',
  messagingSystem: 'messaging.system',
  messagingOperation: 'messaging.operation.type',
  messagingDestination: 'messaging.destination.name',
  messagingMessageId: 'messaging.message.id',
  faasTrigger: 'faas.trigger',
  faasColdstart: 'faas.coldstart',
  faasInvocationId: 'faas.invocation.id',
} as const;

/** The W3C trace context header, also the name of the SQS message attribute carrying it. */
export const TRACEPARENT = 'traceparent';
const TRACESTATE = 'tracestate';
/** SQS accepts at most ten message attributes; the context is left out of a message that has no room for it. */
const SQS_MAX_MESSAGE_ATTRIBUTES = 10;

/**
 * The longest an invocation waits for its spans to leave: the collector is on localhost and answers at once, but a
 * collector that hangs must not hold every response (the spans are then lost, never the response).
 */
const FLUSH_TIMEOUT_MS = 2000;

const w3c = new W3CTraceContextPropagator();
const xray = new AWSXRayPropagator();

let registered = false;
/** Context travels across awaits through AsyncLocalStorage; the global propagator is W3C's. Once per process. */
function registerGlobals(): void {
  if (registered) return;
  registered = true;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(w3c);
}

export interface TelemetryOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Where spans go; OTLP/HTTP to the environment's endpoint by default, nowhere without one. */
  readonly exporter?: SpanExporter | null;
  /** Export each span as it ends (tests) instead of in batches flushed at the end of each invocation. */
  readonly exportEachSpan?: boolean;
}

export interface Telemetry {
  readonly tracer: Tracer;
  /** Whether spans leave the process (an exporter is configured). */
  readonly exporting: boolean;
  /** Sends what is buffered; never throws. */
  flush(): Promise<void>;
  /** Adds a span per call to an AWS SDK v3 client (idempotent); returns the client. */
  instrumentClient<C>(client: C): C;
  /** Runs `handler` in an invocation span (HTTP or worker), ended and flushed before it returns. */
  invocation<E, R, A extends unknown[]>(
    handler: (event: E, ...rest: A) => Promise<R>,
  ): (event: E, ...rest: A) => Promise<R>;
  /**
   * Runs `fn` in a span `name` that continues the trace `stored` was taken from (traceContextNow), linked to the span
   * active now: a message sent later (the outbox sweeper's re-send) then carries the original request's trace, so
   * that API → queue → worker stay one trace. Without a stored context, or inside its trace already, `fn` runs as it is.
   */
  continueTrace<T>(stored: StoredTraceContext | null | undefined, name: string, fn: () => Promise<T>): Promise<T>;
}

/** A W3C trace context kept with something to send later (an outbox item): its `traceparent` and `tracestate`. */
export interface StoredTraceContext {
  readonly traceparent?: string | null;
  readonly tracestate?: string | null;
}

/** The endpoint of the OTLP exporter: the traces endpoint, else `<endpoint>/v1/traces`; null when neither is set. */
export function tracesEndpoint(env: NodeJS.ProcessEnv): string | null {
  if (env.OTEL_SDK_DISABLED?.toLowerCase() === 'true') return null;
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) return `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/$/, '')}/v1/traces`;
  return null;
}

/** A ratio's sampler: 0 to below 1 as a trace-id ratio, anything else (unset among them) all. */
function ratioSampler(raw: string | undefined): Sampler {
  const ratio = raw?.trim() ? Number(raw) : 1;
  return Number.isFinite(ratio) && ratio >= 0 && ratio < 1
    ? new TraceIdRatioBasedSampler(ratio)
    : new AlwaysOnSampler();
}

/** Counts the recorded spans ended since the last export began: an invocation that recorded none has nothing to flush. */
class EndedSpans implements SpanProcessor {
  count = 0;

  onStart(): void {}

  onEnd(): void {
    this.count += 1;
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** Whether an invocation's span is one of the API's reads: a GET route, or the not-found route (`$default`). */
function isApiRead(spanName: string, spanKind: SpanKind, attributes: Attributes): boolean {
  return spanKind === SpanKind.SERVER && (spanName === '$default' || attributes[ATTR_HTTP_REQUEST_METHOD] === 'GET');
}

/**
 * The API's reads in a ratio of their own, every other invocation in the function's: what AWS does with one function
 * per route, the reads' functions given a low ratio, for a process that serves every route (the local stage).
 */
class ReadsApartSampler implements Sampler {
  constructor(
    private readonly reads: Sampler,
    private readonly others: Sampler,
  ) {}

  shouldSample(...args: Parameters<Sampler['shouldSample']>): ReturnType<Sampler['shouldSample']> {
    const [, , spanName, spanKind, attributes] = args;
    return (isApiRead(spanName, spanKind, attributes) ? this.reads : this.others).shouldSample(...args);
  }

  toString(): string {
    return `ReadsApart{reads=${this.reads.toString()}, others=${this.others.toString()}}`;
  }
}

/**
 * Which invocations are traced (docs/adr/0041-trace-sampling.md): a parent's decision is followed (a worker continues
 * the request that sent its message, traced or not); a trace begun here is recorded in the function's ratio
 * (RUNTIME_ENV.traceSampleRatio, 1 when unset), or for the API's reads in RUNTIME_ENV.readTraceSampleRatio when it is
 * set (the local stage's stand-in for the reads' functions' ratio). The decision is by trace id, so every span of a
 * trace agrees.
 */
export function samplerOf(env: NodeJS.ProcessEnv): Sampler {
  const own = ratioSampler(env[RUNTIME_ENV.traceSampleRatio]);
  const reads = env[RUNTIME_ENV.readTraceSampleRatio];
  return new ParentBasedSampler({ root: reads?.trim() ? new ReadsApartSampler(ratioSampler(reads), own) : own });
}

export function createTelemetry(options: TelemetryOptions = {}): Telemetry {
  registerGlobals();
  const env = options.env ?? process.env;
  const endpoint = tracesEndpoint(env);
  const exporter =
    options.exporter === undefined
      ? endpoint
        ? new OTLPTraceExporter({ url: endpoint, timeoutMillis: FLUSH_TIMEOUT_MS })
        : null
      : options.exporter;
  const unexported = new EndedSpans();
  const processors: SpanProcessor[] = exporter
    ? [
        unexported,
        options.exportEachSpan
          ? new SimpleSpanProcessor(exporter)
          : // Flushed at the end of every invocation; the delay only matters to a process that serves many at once.
            new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000, maxExportBatchSize: 512 }),
      ]
    : [];
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: env.OTEL_SERVICE_NAME || env.AWS_LAMBDA_FUNCTION_NAME || METRICS.serviceName,
      'cloud.provider': 'aws',
      ...(env.AWS_REGION ? { [ATTR.cloudRegion]: env.AWS_REGION } : {}),
      ...(env.AWS_LAMBDA_FUNCTION_NAME ? { 'faas.name': env.AWS_LAMBDA_FUNCTION_NAME } : {}),
    }),
    sampler: samplerOf(env),
    spanProcessors: processors,
    forceFlushTimeoutMillis: FLUSH_TIMEOUT_MS,
  });
  const tracer = provider.getTracer(TRACER_NAME);
  // Powertools' rule: only an on-demand initialization has a cold start (not provisioned concurrency).
  let coldStart = env.AWS_LAMBDA_INITIALIZATION_TYPE?.trim() !== 'provisioned-concurrency';

  /**
   * Exports every span ended so far. Invocations that end while an export is under way (a process that serves many at
   * once: the local stage) share the next one, which leaves as soon as that one is done and carries all their spans:
   * each still returns only once its spans are out, with one export for all of them rather than one each. In Lambda
   * (one invocation at a time) every flush is its own export, as before. An invocation that leaves no recorded span
   * behind (its sampler left it out: most of the API's reads) flushes nothing.
   */
  let exporting: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const flush = (): Promise<void> => {
    // No span recorded since the last export began (an invocation its sampler left out, most of the API's reads):
    // nothing to send. What an export under way carries is waited for, as it may hold the caller's spans.
    if (unexported.count === 0) return exporting ?? Promise.resolve();
    if (!exporting) {
      unexported.count = 0;
      exporting = provider
        .forceFlush()
        .catch(() => undefined)
        .finally(() => {
          exporting = null;
        });
      return exporting;
    }
    next ??= exporting.then(() => {
      next = null;
      return flush();
    });
    return next;
  };

  /** The context Lambda's X-Ray trace header gives the invocation (its segment as parent), if any. */
  const lambdaContext = (): Context => {
    const store = (globalThis as { awslambda?: { InvokeStore?: { getXRayTraceId?: () => string | undefined } } })
      .awslambda?.InvokeStore;
    const header = store?.getXRayTraceId?.() ?? env._X_AMZN_TRACE_ID;
    if (!header) return context.active();
    const extracted = xray.extract(context.active(), { [AWSXRAY_TRACE_ID_HEADER]: header }, defaultTextMapGetter);
    // Pass-through tracing: Lambda's header says Sampled=1 only when a caller recorded the request; Sampled=0 is
    // no one's decision (nothing before the function traces), so the invocation begins a trace of its own.
    const flags = trace.getSpanContext(extracted)?.traceFlags ?? 0;
    return (flags & TraceFlags.SAMPLED) === 0 ? context.active() : extracted;
  };

  return {
    tracer,
    exporting: exporter !== null,
    flush,
    instrumentClient: (client) => instrumentClient(tracer, client),
    async continueTrace(stored, name, fn) {
      const parent = contextFromStored(stored);
      const now = trace.getActiveSpan()?.spanContext();
      // Nothing stored, or still in that trace (the change's own request sends at once): nothing to continue.
      if (!parent || now?.traceId === trace.getSpanContext(parent)!.traceId) return fn();
      const span = tracer.startSpan(
        name,
        { kind: SpanKind.INTERNAL, links: now && trace.isSpanContextValid(now) ? [{ context: now }] : [] },
        parent,
      );
      try {
        return await context.with(trace.setSpan(parent, span), fn);
      } catch (error) {
        recordError(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
    invocation(handler) {
      return async (event, ...rest) => {
        const { name, kind, attributes } = describeInvocation(event, rest[0]);
        const { parent, links } = invocationParent(lambdaContext(), event);
        const span = tracer.startSpan(
          name,
          { kind, links, attributes: { ...attributes, [ATTR.faasColdstart]: coldStart } },
          parent,
        );
        coldStart = false;
        try {
          const result = await context.with(trace.setSpan(parent, span), () => handler(event, ...rest));
          describeResult(span, result);
          return result;
        } catch (error) {
          recordError(span, error);
          throw error;
        } finally {
          span.end();
          await flush();
        }
      };
    },
  };
}

/** The request id the caller sees (txId) on the invocation's span: logs, error bodies and traces meet on it. */
export const ATTR_TX_ID = 'portal.tx_id';

/** Adds attributes to the active span (the invocation's, in a handler); nothing outside a span. */
export function annotate(attributes: Attributes): void {
  trace.getActiveSpan()?.setAttributes(attributes);
}

function recordError(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : undefined });
}

// ---------------------------------------------------------------------------------------------------------------
// Invocations

interface LambdaContextLike {
  readonly awsRequestId?: string;
}

/**
 * Where a worker's invocation span hangs: under Lambda's segment, unless a single SQS message brought a trace that
 * Lambda did not continue (the local stage, or a message sent without the X-Ray header), whose sender then becomes
 * the parent. Every message of a batch is linked (OpenTelemetry's messaging conventions).
 */
function invocationParent(lambda: Context, event: unknown): { parent: Context; links: Link[] } {
  const records = (event as { Records?: (SqsRecordLike & { eventSource?: string })[] } | null)?.Records;
  if (!Array.isArray(records) || records[0]?.eventSource !== 'aws:sqs') return { parent: lambda, links: [] };
  const producers = records.flatMap((record) => {
    const found = contextFromMessage(record);
    return found ? [found] : [];
  });
  const links: Link[] = producers.map((producer) => ({ context: trace.getSpanContext(producer)! }));
  const own = trace.getSpanContext(lambda);
  if (producers.length === 1 && records.length === 1 && own?.traceId !== links[0]!.context.traceId) {
    return { parent: producers[0]!, links: own ? [{ context: own }] : [] };
  }
  return { parent: lambda, links };
}

function describeInvocation(
  event: unknown,
  lambdaContext: unknown,
): { name: string; kind: SpanKind; attributes: Attributes } {
  const requestId = (lambdaContext as LambdaContextLike | undefined)?.awsRequestId;
  const base: Attributes = requestId ? { [ATTR.faasInvocationId]: requestId } : {};
  const e = (event ?? {}) as {
    routeKey?: string;
    requestContext?: { http?: { method?: string } };
    Records?: { eventSource?: string; eventSourceARN?: string }[];
    'detail-type'?: string;
    resources?: string[];
    triggerSource?: string;
  };
  if (typeof e.routeKey === 'string') {
    const [method, route] = e.routeKey.split(' ');
    return {
      name: e.routeKey,
      kind: SpanKind.SERVER,
      attributes: {
        ...base,
        [ATTR.faasTrigger]: 'http',
        [ATTR_HTTP_REQUEST_METHOD]: e.requestContext?.http?.method ?? method ?? '',
        [ATTR_HTTP_ROUTE]: route ?? '',
      },
    };
  }
  const first = Array.isArray(e.Records) ? e.Records[0] : undefined;
  if (first?.eventSource === 'aws:sqs') {
    const queue = queueNameOf(first.eventSourceARN);
    return {
      name: `process ${queue}`,
      kind: SpanKind.CONSUMER,
      attributes: {
        ...base,
        [ATTR.faasTrigger]: 'pubsub',
        [ATTR.messagingSystem]: 'aws_sqs',
        [ATTR.messagingOperation]: 'process',
        [ATTR.messagingDestination]: queue,
      },
    };
  }
  if (typeof e['detail-type'] === 'string') {
    const rule = e.resources?.[0]?.split('/').pop() ?? e['detail-type'];
    return { name: `scheduled ${rule}`, kind: SpanKind.INTERNAL, attributes: { ...base, [ATTR.faasTrigger]: 'timer' } };
  }
  if (typeof e.triggerSource === 'string') {
    return { name: e.triggerSource, kind: SpanKind.INTERNAL, attributes: { ...base, [ATTR.faasTrigger]: 'other' } };
  }
  return { name: 'invocation', kind: SpanKind.INTERNAL, attributes: { ...base, [ATTR.faasTrigger]: 'other' } };
}

function describeResult(span: Span, result: unknown): void {
  const status = (result as { statusCode?: unknown } | undefined)?.statusCode;
  if (typeof status === 'number') {
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  }
  const failures = (result as { batchItemFailures?: unknown[] } | undefined)?.batchItemFailures;
  if (Array.isArray(failures) && failures.length > 0) {
    span.setAttribute('aws.lambda.batch_item_failures', failures.length);
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// SQS messages

/** What a worker's SQS record holds of its message attributes (the Lambda event's shape). */
export interface SqsRecordLike {
  readonly messageId?: string;
  readonly eventSourceARN?: string;
  readonly messageAttributes?: Readonly<Record<string, { stringValue?: string } | undefined>>;
}

/** What SendMessage takes as message attributes (the SDK's shape). */
type MessageAttributes = Record<string, { DataType: string; StringValue?: string }>;

function queueNameOf(arnOrUrl: string | undefined): string {
  return arnOrUrl?.split(/[:/]/).pop() || 'queue';
}

/** Writes the W3C trace context of `ctx` into an SQS message's attributes (unless the message has no room left). */
export function injectIntoMessageAttributes(
  attributes: MessageAttributes | undefined,
  ctx: Context = context.active(),
): MessageAttributes | undefined {
  const carrier: Record<string, string> = {};
  w3c.inject(ctx, carrier, defaultTextMapSetter);
  if (!carrier[TRACEPARENT]) return attributes;
  const entries = Object.entries(carrier).filter(([name]) => name === TRACEPARENT || name === TRACESTATE);
  const existing = Object.keys(attributes ?? {}).filter((name) => name !== TRACEPARENT && name !== TRACESTATE);
  if (existing.length + entries.length > SQS_MAX_MESSAGE_ATTRIBUTES) return attributes;
  return {
    ...attributes,
    ...Object.fromEntries(entries.map(([name, value]) => [name, { DataType: 'String', StringValue: value }])),
  };
}

/** The W3C trace context of `ctx` (the active span's), to keep with a message sent later; empty outside a trace. */
export function traceContextNow(ctx: Context = context.active()): { traceparent?: string; tracestate?: string } {
  const carrier: Record<string, string> = {};
  w3c.inject(ctx, carrier, defaultTextMapSetter);
  return {
    ...(carrier[TRACEPARENT] ? { traceparent: carrier[TRACEPARENT] } : {}),
    ...(carrier[TRACESTATE] ? { tracestate: carrier[TRACESTATE] } : {}),
  };
}

/** The context a stored trace context names; null when it names none (absent or malformed). */
export function contextFromStored(stored: StoredTraceContext | null | undefined): Context | null {
  if (!stored?.traceparent) return null;
  const extracted = w3c.extract(
    ROOT_CONTEXT,
    { [TRACEPARENT]: stored.traceparent, ...(stored.tracestate ? { [TRACESTATE]: stored.tracestate } : {}) },
    defaultTextMapGetter,
  );
  return trace.getSpanContext(extracted) ? extracted : null;
}

/** The producer's context a record carries in its `traceparent` attribute; null when it carries none. */
export function contextFromMessage(record: SqsRecordLike): Context | null {
  const attributes = record.messageAttributes ?? {};
  return contextFromStored({
    traceparent: attributes[TRACEPARENT]?.stringValue,
    tracestate: attributes[TRACESTATE]?.stringValue,
  });
}

// ---------------------------------------------------------------------------------------------------------------
// AWS SDK clients

interface CallMetadata {
  readonly httpStatusCode?: number;
  readonly requestId?: string;
  readonly extendedRequestId?: string;
  readonly attempts?: number;
}

type SdkHandler = (args: { input: Record<string, unknown>; request?: unknown }) => Promise<{
  output?: { $metadata?: CallMetadata };
  response?: unknown;
}>;

interface SdkContext {
  readonly clientName?: string;
  readonly commandName?: string;
}

/** The part of an AWS SDK v3 client the instrumentation uses (structural: every client has it). */
interface InstrumentableClient {
  readonly middlewareStack: {
    add(
      middleware: (next: SdkHandler, context: SdkContext) => SdkHandler,
      options: { name: string; step: 'initialize' | 'build'; priority?: 'high' | 'low' },
    ): void;
    remove(name: string): boolean;
  };
  readonly config: { region?: unknown };
}

const CALL_MIDDLEWARE = 'PortalTelemetryCall';
const HEADER_MIDDLEWARE = 'PortalTelemetryTraceHeader';

/** What the call's input names: the table, queue, bucket and key (never item contents or message bodies). */
function callAttributes(service: string, input: Record<string, unknown>): Attributes {
  const found: Attributes = {};
  if (service === 'DynamoDB') {
    const tables = new Set<string>();
    if (typeof input.TableName === 'string') tables.add(input.TableName);
    for (const key of ['RequestItems'] as const) {
      if (input[key] && typeof input[key] === 'object') Object.keys(input[key]).forEach((t) => tables.add(t));
    }
    if (Array.isArray(input.TransactItems)) {
      for (const item of input.TransactItems as Record<string, { TableName?: unknown }>[]) {
        for (const action of Object.values(item))
          if (typeof action?.TableName === 'string') tables.add(action.TableName);
      }
    }
    if (tables.size > 0) found[ATTR.dynamodbTableNames] = [...tables];
  } else if (service === 'SQS') {
    if (typeof input.QueueUrl === 'string') {
      found[ATTR.sqsQueueUrl] = input.QueueUrl;
      found[ATTR.messagingSystem] = 'aws_sqs';
      found[ATTR.messagingDestination] = queueNameOf(input.QueueUrl);
    }
  } else if (service === 'S3') {
    if (typeof input.Bucket === 'string') found[ATTR.s3Bucket] = input.Bucket;
    if (typeof input.Key === 'string') found[ATTR.s3Key] = input.Key;
  }
  return found;
}

/** SendMessage and SendMessageBatch carry the sending span's context in each message's attributes (a copy of the input). */
function withTraceContext(operation: string, input: Record<string, unknown>): Record<string, unknown> {
  const attributed = (message: Record<string, unknown>) => ({
    ...message,
    MessageAttributes: injectIntoMessageAttributes(message.MessageAttributes as MessageAttributes | undefined),
  });
  if (operation === 'SendMessage') return attributed(input);
  if (operation === 'SendMessageBatch' && Array.isArray(input.Entries)) {
    return { ...input, Entries: (input.Entries as Record<string, unknown>[]).map(attributed) };
  }
  return input;
}

function instrumentClient<C>(tracer: Tracer, client: C): C {
  const instrumentable = client as unknown as InstrumentableClient;
  const stack = instrumentable.middlewareStack;
  stack.remove(CALL_MIDDLEWARE);
  stack.remove(HEADER_MIDDLEWARE);

  // First of all (before serialization, so that message attributes can still be added; around the retries).
  stack.add(
    (next, sdkContext) => async (args) => {
      const service = (sdkContext.clientName ?? 'AWS').replace(/Client$/, '');
      const operation = (sdkContext.commandName ?? 'Call').replace(/Command$/, '');
      const sends = service === 'SQS' && operation.startsWith('SendMessage');
      const span = tracer.startSpan(`${service}.${operation}`, {
        kind: sends ? SpanKind.PRODUCER : SpanKind.CLIENT,
        attributes: {
          [ATTR.rpcSystem]: 'aws-api',
          [ATTR.rpcService]: service,
          [ATTR.rpcMethod]: operation,
          ...callAttributes(service, args.input ?? {}),
        },
      });
      const describe = async (metadata: CallMetadata | undefined) => {
        // A call outside a recorded trace (a read not sampled) is described to no one.
        if (!span.isRecording()) return;
        const region = instrumentable.config.region;
        const regionName = typeof region === 'function' ? await (region as () => Promise<unknown>)() : region;
        if (typeof regionName === 'string') span.setAttribute(ATTR.cloudRegion, regionName);
        if (metadata?.requestId) span.setAttribute(ATTR.awsRequestId, metadata.requestId);
        if (metadata?.extendedRequestId) span.setAttribute(ATTR.awsExtendedRequestId, metadata.extendedRequestId);
        if (metadata?.attempts !== undefined) span.setAttribute(ATTR.retries, Math.max(0, metadata.attempts - 1));
        if (metadata?.httpStatusCode !== undefined) {
          span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, metadata.httpStatusCode);
        }
      };
      return context.with(trace.setSpan(context.active(), span), async () => {
        try {
          const result = await next(sends ? { ...args, input: withTraceContext(operation, args.input) } : args);
          await describe(result.output?.$metadata).catch(() => undefined);
          return result;
        } catch (error) {
          await describe((error as { $metadata?: CallMetadata }).$metadata).catch(() => undefined);
          recordError(span, error);
          throw error;
        } finally {
          span.end();
        }
      });
    },
    { name: CALL_MIDDLEWARE, step: 'initialize', priority: 'high' },
  );

  // The X-Ray trace header on the HTTP request: SQS hands it to the consumer's Lambda invocation (AWSTraceHeader).
  stack.add(
    (next) => async (args) => {
      const request = args.request as { headers?: Record<string, string> } | undefined;
      if (request?.headers) xray.inject(context.active(), request.headers, defaultTextMapSetter);
      return next(args);
    },
    { name: HEADER_MIDDLEWARE, step: 'build' },
  );
  return client;
}

// ---------------------------------------------------------------------------------------------------------------
// fetch

let fetchTracer: Tracer | null = null;

/**
 * A span per fetch request (undici publishes each on diagnostics channels), from its creation to its response
 * headers, the child of the active span, made by `tracer`; the request carries the W3C trace context. The channels
 * are subscribed once per process; a later call only changes the tracer.
 */
export function instrumentFetch(tracer: Tracer): void {
  const subscribed = fetchTracer !== null;
  fetchTracer = tracer;
  if (subscribed) return;
  interface UndiciRequest {
    method: string;
    origin: string | URL;
    path?: string;
    addHeader?(name: string, value: string): void;
  }
  const spans = new WeakMap<object, Span>();
  subscribe('undici:request:create', (message) => {
    const { request } = message as { request: UndiciRequest };
    if (request.method === 'CONNECT' || !trace.getActiveSpan()) return;
    let url: URL;
    try {
      url = new URL(`${String(request.origin).replace(/\/$/, '')}${request.path ?? ''}`);
    } catch {
      return;
    }
    const span = fetchTracer!.startSpan(`${request.method} ${url.hostname}`, {
      kind: SpanKind.CLIENT,
      attributes: {
        [ATTR_HTTP_REQUEST_METHOD]: request.method,
        [ATTR_SERVER_ADDRESS]: url.hostname,
        // Without its query: SAP's filters name invoices and suppliers.
        [ATTR_URL_FULL]: `${url.protocol}//${url.host}${url.pathname}`,
      },
    });
    const carrier: Record<string, string> = {};
    w3c.inject(trace.setSpan(context.active(), span), carrier, defaultTextMapSetter);
    for (const [name, value] of Object.entries(carrier)) request.addHeader?.(name, value);
    spans.set(request, span);
  });
  subscribe('undici:request:headers', (message) => {
    const { request, response } = message as { request: object; response: { statusCode: number } };
    const span = spans.get(request);
    if (!span) return;
    spans.delete(request);
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, response.statusCode);
    if (response.statusCode >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  subscribe('undici:request:error', (message) => {
    const { request, error } = message as { request: object; error: unknown };
    const span = spans.get(request);
    if (!span) return;
    spans.delete(request);
    recordError(span, error);
    span.end();
  });
}

/** The function's telemetry, built when its module loads (the cold start measures it). */
export const telemetry = createTelemetry();
instrumentFetch(telemetry.tracer);

import { subscribe } from 'node:diagnostics_channel';
import {
  context,
  defaultTextMapSetter,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_SERVER_ADDRESS,
  ATTR_URL_FULL,
} from '@opentelemetry/semantic-conventions';
import { ATTR, injectIntoMessageAttributes, queueNameOf, w3c, xray, type MessageAttributes } from './trace-context.js';
import { recordError } from './telemetry-invocation.js';

/* Spans of the AWS SDK calls (a middleware on each client) and of `fetch` requests (its diagnostics channels). */

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

export function instrumentClient<C>(tracer: Tracer, client: C): C {
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

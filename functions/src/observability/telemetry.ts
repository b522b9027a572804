import {
  context,
  defaultTextMapGetter,
  propagation,
  SpanKind,
  TraceFlags,
  trace,
  type Context,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { AWSXRAY_TRACE_ID_HEADER } from '@opentelemetry/propagator-aws-xray';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { METRICS } from '@portal/shared';
import {
  ATTR,
  FLUSH_TIMEOUT_MS,
  TRACER_NAME,
  contextFromStored,
  w3c,
  xray,
  type StoredTraceContext,
} from './trace-context.js';
import { EndedSpans, samplerOf, tracesEndpoint } from './telemetry-sampling.js';
import { describeInvocation, describeResult, invocationParent, recordError } from './telemetry-invocation.js';
import { instrumentClient, instrumentFetch } from './telemetry-clients.js';

export {
  ATTR,
  TRACEPARENT,
  contextFromMessage,
  contextFromStored,
  injectIntoMessageAttributes,
  traceContextNow,
  type SqsRecordLike,
  type StoredTraceContext,
} from './trace-context.js';
export { samplerOf, tracesEndpoint } from './telemetry-sampling.js';
export { ATTR_TX_ID, annotate } from './telemetry-invocation.js';
export { instrumentFetch } from './telemetry-clients.js';

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

/**
 * A flush that exports every span ended so far. Invocations that end while an export is under way (a process that serves many at
 * once: the local stage) share the next one, which leaves as soon as that one is done and carries all their spans:
 * each still returns only once its spans are out, with one export for all of them rather than one each. In Lambda
 * (one invocation at a time) every flush is its own export, as before. An invocation that leaves no recorded span
 * behind (its sampler left it out: most of the API's reads) flushes nothing.
 */
function flusher(provider: BasicTracerProvider, unexported: EndedSpans): () => Promise<void> {
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
  return flush;
}

/** The context Lambda's X-Ray trace header gives the invocation (its segment as parent), if any. */
function lambdaTraceContext(env: NodeJS.ProcessEnv): Context {
  const store = (globalThis as { awslambda?: { InvokeStore?: { getXRayTraceId?: () => string | undefined } } })
    .awslambda?.InvokeStore;
  const header = store?.getXRayTraceId?.() ?? env._X_AMZN_TRACE_ID;
  if (!header) return context.active();
  const extracted = xray.extract(context.active(), { [AWSXRAY_TRACE_ID_HEADER]: header }, defaultTextMapGetter);
  // Pass-through tracing: Lambda's header says Sampled=1 only when a caller recorded the request; Sampled=0 is
  // no one's decision (nothing before the function traces), so the invocation begins a trace of its own.
  const flags = trace.getSpanContext(extracted)?.traceFlags ?? 0;
  return (flags & TraceFlags.SAMPLED) === 0 ? context.active() : extracted;
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

  const flush = flusher(provider, unexported);
  const lambdaContext = () => lambdaTraceContext(env);

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

/** The function's telemetry, built when its module loads (the cold start measures it). */
export const telemetry = createTelemetry();
instrumentFetch(telemetry.tracer);

import {
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
} from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
} from '@opentelemetry/semantic-conventions';
import { ATTR, contextFromMessage, queueNameOf, type SqsRecordLike } from './trace-context.js';

/* An invocation's span: its name, kind, parent and links from the Lambda event, and what its result says. */

/** The request id the caller sees (txId) on the invocation's span: logs, error bodies and traces meet on it. */
export const ATTR_TX_ID = 'portal.tx_id';

/** Adds attributes to the active span (the invocation's, in a handler); nothing outside a span. */
export function annotate(attributes: Attributes): void {
  trace.getActiveSpan()?.setAttributes(attributes);
}

export function recordError(span: Span, error: unknown): void {
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
export function invocationParent(lambda: Context, event: unknown): { parent: Context; links: Link[] } {
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

export function describeInvocation(
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

export function describeResult(span: Span, result: unknown): void {
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

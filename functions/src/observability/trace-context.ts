import {
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  ROOT_CONTEXT,
  trace,
  type Context,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AWSXRayPropagator } from '@opentelemetry/propagator-aws-xray';

/* The tracer's names and attributes, and the W3C trace context as messages and outbox items carry it. */

export const TRACER_NAME = 'portal-proveedores';

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
export const FLUSH_TIMEOUT_MS = 2000;

export const w3c = new W3CTraceContextPropagator();
export const xray = new AWSXRayPropagator();

/** A W3C trace context kept with something to send later (an outbox item): its `traceparent` and `tracestate`. */
export interface StoredTraceContext {
  readonly traceparent?: string | null;
  readonly tracestate?: string | null;
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
export type MessageAttributes = Record<string, { DataType: string; StringValue?: string }>;

export function queueNameOf(arnOrUrl: string | undefined): string {
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

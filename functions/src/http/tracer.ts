import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { subscribe } from 'node:diagnostics_channel';
import type { MiddlewareObj } from '@middy/core';
import { METRICS } from '@portal/shared';

/**
 * X-Ray tracing of a function, written to the X-Ray daemon directly (docs/decisions.md, "Tracing").
 *
 * Lambda's active tracing records every invocation by itself (the AWS::Lambda and AWS::Lambda::Function
 * segments). To these the function adds, as Powertools Tracer with the X-Ray SDK did before, subsegments of
 * the invocation's segment:
 * - `## <handler>` for the handler, annotated `ColdStart` and `Service`, with the error when it fails;
 * - one per AWS SDK call of an instrumented client (captureAWSv3Client): service, operation, region, request
 *   id, retries, HTTP status, error/fault/throttle flags, the table, queue or bucket named; the call carries a
 *   trace header naming its subsegment as the parent of what it causes (a queue's consumer);
 * - one per `fetch` request (SAP, SUNAT): host, URL without its query, method, status.
 * Each closed subsegment is sent as one UDP datagram to the daemon Lambda runs beside the function
 * (AWS_XRAY_DAEMON_ADDRESS), and only when the invocation is sampled. Outside Lambda (unit tests) and when
 * POWERTOOLS_TRACE_ENABLED=false (the local stage) nothing is recorded or sent.
 *
 * One invocation runs at a time in a Lambda execution environment: the invocation's subsegment is kept in a
 * module variable, the parent of the calls made until it closes.
 */

/** A subsegment as sent on its own to the daemon (X-Ray's segment document). */
export interface SubsegmentDocument {
  type: 'subsegment';
  id: string;
  trace_id: string;
  parent_id: string;
  name: string;
  start_time: number;
  end_time?: number;
  namespace?: 'aws' | 'remote';
  annotations?: Record<string, string | number | boolean>;
  aws?: Record<string, string | number | readonly string[]>;
  http?: {
    request?: { url: string; method: string };
    response?: { status?: number; content_length?: number };
  };
  error?: boolean;
  fault?: boolean;
  throttle?: boolean;
  cause?: { working_directory: string; exceptions: CapturedException[] };
}

interface CapturedException {
  id: string;
  message: string;
  type: string;
  remote: boolean;
  stack: { path: string; line: number; label: string }[];
}

/** The invocation's trace, from the header Lambda hands over (`Root=…;Parent=…;Sampled=1;Lineage=…`). */
export interface TraceContext {
  readonly root: string;
  readonly parent: string;
  readonly sampled: boolean;
  /** Fields beyond Root, Parent and Sampled (Lineage…), passed on to downstream calls as they came. */
  readonly extra: string;
}

export function parseTraceHeader(header: string | undefined): TraceContext | null {
  if (!header) return null;
  const fields = new Map<string, string>();
  const extra: string[] = [];
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 'Root' || key === 'Parent' || key === 'Sampled') fields.set(key, value);
    else extra.push(`${key}=${value}`);
  }
  const root = fields.get('Root');
  const parent = fields.get('Parent');
  if (!root || !parent) return null;
  return { root, parent, sampled: fields.get('Sampled') === '1', extra: extra.map((field) => `;${field}`).join('') };
}

/** Where the daemon listens: `host:port`, or `tcp:host:port udp:host:port` (the UDP one is used). */
export function daemonAddress(value: string | undefined): { host: string; port: number } {
  const udp = (value ?? '').split(/\s+/).find((part) => part.startsWith('udp:')) ?? value ?? '';
  const address = udp.replace(/^udp:/, '');
  const at = address.lastIndexOf(':');
  const port = Number(address.slice(at + 1));
  if (at <= 0 || !Number.isInteger(port)) return { host: '127.0.0.1', port: 2000 };
  return { host: address.slice(0, at), port };
}

const PROTOCOL_HEADER = '{"format":"json","version":1}\n';

/** Sends one document per datagram on a socket of its own, closed once sent (as the X-Ray SDK does in Lambda). */
function udpSender(env: NodeJS.ProcessEnv): (document: SubsegmentDocument) => void {
  return (document) => {
    const { host, port } = daemonAddress(env.AWS_XRAY_DAEMON_ADDRESS);
    const socket = createSocket('udp4');
    socket.unref();
    socket.send(PROTOCOL_HEADER + JSON.stringify(document), port, host, () => socket.close());
  };
}

const newId = () => randomBytes(8).toString('hex');
const seconds = (ms: number) => ms / 1000;

/** The error as X-Ray shows it: message, type and the frames of its stack. */
function captured(error: unknown, remote: boolean): CapturedException {
  const err = error instanceof Error ? error : { name: '', message: String(error), stack: undefined };
  const stack = (err.stack ?? '')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().replace(/^at /, ''))
    .filter(Boolean)
    .map((frame) => {
      const match = /^(.*?) \((.*):(\d+):\d+\)$/.exec(frame) ?? /^()(.*):(\d+):\d+$/.exec(frame);
      return match
        ? { label: match[1] || 'anonymous', path: match[2]!, line: Number(match[3]) }
        : { label: frame, path: '', line: 0 };
    });
  return { id: newId(), message: err.message, type: err.name, remote, stack };
}

/** The error codes the AWS SDK counts as throttling (as @smithy/service-error-classification lists them). */
const THROTTLING_CODES = new Set([
  'BandwidthLimitExceeded',
  'EC2ThrottledException',
  'LimitExceededException',
  'PriorRequestNotComplete',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'SlowDown',
  'ThrottledException',
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'TransactionInProgressException',
]);

/** What the X-Ray SDK records of a call's input, for the services the functions call (its whitelist). */
function callParameters(service: string, input: Record<string, unknown>): Record<string, string | readonly string[]> {
  const found: Record<string, string | readonly string[]> = {};
  const text = (key: string, as: string) => {
    if (typeof input[key] === 'string') found[as] = input[key];
  };
  if (service === 'DynamoDB') {
    text('TableName', 'table_name');
    if (input.RequestItems && typeof input.RequestItems === 'object') {
      found.table_names = Object.keys(input.RequestItems);
    }
  } else if (service === 'SQS') {
    text('QueueUrl', 'queue_url');
  } else if (service === 'S3') {
    text('Bucket', 'bucket_name');
    text('Key', 'key');
  }
  return found;
}

interface CallMetadata {
  readonly httpStatusCode?: number;
  readonly requestId?: string;
  readonly extendedRequestId?: string;
  readonly attempts?: number;
}

/** The part of an AWS SDK v3 client the instrumentation uses (structural: every client has it). */
interface InstrumentableClient {
  readonly middlewareStack: {
    add(middleware: BuildMiddleware, options: { name: string; step: 'build' }): void;
    remove(name: string): boolean;
  };
  readonly config: { region?: unknown };
}
type BuildMiddleware = (
  next: (args: BuildArgs) => Promise<BuildOutput>,
  context: { clientName?: string; commandName?: string },
) => (args: BuildArgs) => Promise<BuildOutput>;
interface BuildArgs {
  input?: Record<string, unknown>;
  request?: { headers?: Record<string, string> };
}
interface BuildOutput {
  output?: { $metadata?: CallMetadata };
  response?: { headers?: Record<string, string | undefined> };
}

const MIDDLEWARE_NAME = 'PortalXRayTracing';

export interface TracerOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly serviceName?: string;
  /** Where closed subsegments go; the daemon's UDP port by default. */
  readonly send?: (document: SubsegmentDocument) => void;
  readonly now?: () => number;
  /** Subscribes to fetch's diagnostics channels (once per process). */
  readonly instrumentFetch?: boolean;
}

export interface Tracer {
  /** Whether this process traces at all (in Lambda, unless POWERTOOLS_TRACE_ENABLED=false). */
  readonly enabled: boolean;
  /** Adds a subsegment per call of `client` (idempotent); returns the client. */
  captureAWSv3Client<C>(client: C): C;
  /** The middy middleware opening and closing the invocation's `## handler` subsegment. */
  invocation(): MiddlewareObj;
}

interface OpenSubsegment {
  readonly document: SubsegmentDocument;
  readonly trace: TraceContext;
}

export function createTracer(options: TracerOptions = {}): Tracer {
  const env = options.env ?? process.env;
  const now = options.now ?? Date.now;
  const send = options.send ?? udpSender(env);
  const serviceName = options.serviceName ?? METRICS.serviceName;
  const enabled =
    Boolean(env.AWS_EXECUTION_ENV) && !env.AWS_SAM_LOCAL && env.POWERTOOLS_TRACE_ENABLED?.toLowerCase() !== 'false';
  // Powertools' rule: only an on-demand initialization has a cold start (not provisioned concurrency).
  let coldStart = env.AWS_LAMBDA_INITIALIZATION_TYPE?.trim() === 'on-demand';
  let current: OpenSubsegment | null = null;

  /** The trace header of the running invocation (Lambda's invoke store first, where the runtime has one). */
  const traceOfInvocation = (): TraceContext | null => {
    const store = (globalThis as { awslambda?: { InvokeStore?: { getXRayTraceId?: () => string | undefined } } })
      .awslambda?.InvokeStore;
    return parseTraceHeader(store?.getXRayTraceId?.() ?? env._X_AMZN_TRACE_ID);
  };

  const open = (name: string, parent: OpenSubsegment | null): OpenSubsegment | null => {
    const trace = parent?.trace ?? traceOfInvocation();
    if (!trace) return null;
    return {
      trace,
      document: {
        type: 'subsegment',
        id: newId(),
        trace_id: trace.root,
        parent_id: parent?.document.id ?? trace.parent,
        name,
        start_time: seconds(now()),
      },
    };
  };

  const close = (subsegment: OpenSubsegment, error?: { error: unknown; remote: boolean }) => {
    const { document } = subsegment;
    document.end_time = seconds(now());
    if (error) {
      document.fault = true;
      document.cause = { working_directory: process.cwd(), exceptions: [captured(error.error, error.remote)] };
    }
    if (!subsegment.trace.sampled) return;
    try {
      send(document);
    } catch {
      // Tracing never fails the function.
    }
  };

  /** The downstream trace header: this subsegment is the parent of what the call causes. */
  const headerFor = (subsegment: OpenSubsegment) =>
    `Root=${subsegment.trace.root};Parent=${subsegment.document.id};Sampled=${subsegment.trace.sampled ? '1' : '0'}${subsegment.trace.extra}`;

  /** 4xx is an error, 5xx a fault; 429 and the SDK's throttling codes also throttle. */
  const flagByStatus = (document: SubsegmentDocument, status: number | undefined) => {
    if (status === 429) document.throttle = true;
    if (status !== undefined && status >= 400 && status < 500) document.error = true;
    else if (status !== undefined && status >= 500 && status < 600) document.fault = true;
  };

  const awsCallMiddleware =
    (client: InstrumentableClient): BuildMiddleware =>
    (next, context) =>
    async (args) => {
      const service = (context.clientName ?? '').replace(/Client$/, '');
      const subsegment = current ? open(service, current) : null;
      if (!subsegment) return next(args);
      const { document } = subsegment;
      document.namespace = 'aws';
      if (args.request?.headers) args.request.headers['X-Amzn-Trace-Id'] = headerFor(subsegment);
      const describe = async (metadata: CallMetadata | undefined, contentLength?: string) => {
        const region = client.config.region;
        const regionName = typeof region === 'function' ? await (region as () => Promise<unknown>)() : region;
        document.aws = {
          operation: (context.commandName ?? '').replace(/Command$/, ''),
          ...(typeof regionName === 'string' ? { region: regionName } : {}),
          ...(metadata?.requestId ? { request_id: metadata.requestId } : {}),
          ...(service === 'S3' && metadata?.extendedRequestId ? { id_2: metadata.extendedRequestId } : {}),
          retries: metadata?.attempts ?? 0,
          ...callParameters(service, args.input ?? {}),
        };
        const status = metadata?.httpStatusCode;
        const length = contentLength === undefined ? undefined : Number.parseInt(contentLength, 10);
        if (status !== undefined || length !== undefined) {
          document.http = {
            response: {
              ...(status !== undefined ? { status } : {}),
              ...(length !== undefined && !Number.isNaN(length) ? { content_length: length } : {}),
            },
          };
        }
        flagByStatus(document, status);
      };
      let result: BuildOutput;
      try {
        result = await next(args);
      } catch (error) {
        const failure = error as { name?: string; $metadata?: CallMetadata; $retryable?: { throttling?: boolean } };
        if (failure.$metadata) {
          await describe(failure.$metadata).catch(() => undefined);
          if (failure.$retryable?.throttling || THROTTLING_CODES.has(failure.name ?? '')) document.throttle = true;
        }
        close(subsegment, { error, remote: true });
        throw error;
      }
      await describe(result.output?.$metadata, result.response?.headers?.['content-length']).catch(() => undefined);
      close(subsegment);
      return result;
    };

  if (enabled && options.instrumentFetch !== false) instrumentFetch();

  /** fetch (undici) publishes each request on diagnostics channels: a subsegment from creation to headers. */
  function instrumentFetch() {
    const requests = new WeakMap<object, OpenSubsegment>();
    interface UndiciRequest {
      method: string;
      origin: string | URL;
      path?: string;
      addHeader?(name: string, value: string): void;
    }
    subscribe('undici:request:create', (message) => {
      const { request } = message as { request: UndiciRequest };
      if (request.method === 'CONNECT' || !current) return;
      let url: URL;
      try {
        url = new URL(`${String(request.origin).replace(/\/$/, '')}${request.path ?? ''}`);
      } catch {
        return;
      }
      const subsegment = open(url.hostname, current);
      if (!subsegment) return;
      subsegment.document.namespace = 'remote';
      subsegment.document.http = {
        request: { url: `${url.protocol}//${url.hostname}${url.pathname}`, method: request.method },
      };
      request.addHeader?.('X-Amzn-Trace-Id', headerFor(subsegment));
      requests.set(request, subsegment);
    });
    subscribe('undici:request:headers', (message) => {
      const { request, response } = message as {
        request: object;
        response: { statusCode: number; headers: Buffer[] | Record<string, string | string[]> };
      };
      const subsegment = requests.get(request);
      if (!subsegment) return;
      requests.delete(request);
      const { document } = subsegment;
      const length = headerValue(response.headers, 'content-length');
      document.http = {
        ...document.http,
        response: {
          status: response.statusCode,
          ...(length ? { content_length: Number.parseInt(length, 10) } : {}),
        },
      };
      flagByStatus(document, response.statusCode);
      close(subsegment);
    });
    subscribe('undici:request:error', (message) => {
      const { request, error } = message as { request: object; error: unknown };
      const subsegment = requests.get(request);
      if (!subsegment) return;
      requests.delete(request);
      subsegment.document.error = true;
      close(subsegment, { error, remote: true });
    });
  }

  return {
    enabled,

    captureAWSv3Client<C>(client: C): C {
      if (!enabled) return client;
      const instrumentable = client as unknown as InstrumentableClient;
      instrumentable.middlewareStack.remove(MIDDLEWARE_NAME);
      instrumentable.middlewareStack.add(awsCallMiddleware(instrumentable), { name: MIDDLEWARE_NAME, step: 'build' });
      return client;
    },

    invocation() {
      const finish = (error?: unknown) => {
        const subsegment = current;
        current = null;
        if (subsegment) close(subsegment, error === undefined ? undefined : { error, remote: false });
      };
      return {
        before: () => {
          if (!enabled) return;
          const subsegment = open(`## ${env._HANDLER ?? 'handler'}`, null);
          if (subsegment) {
            subsegment.document.annotations = { ColdStart: coldStart, Service: serviceName };
          }
          coldStart = false;
          current = subsegment;
        },
        after: () => finish(),
        onError: (request) => finish(request.error ?? new Error('unknown error')),
      };
    },
  };
}

function headerValue(headers: Buffer[] | Record<string, string | string[]>, name: string): string | null {
  if (!Array.isArray(headers)) {
    const value = headers[name];
    return (Array.isArray(value) ? value[0] : value) ?? null;
  }
  for (let index = 0; index + 1 < headers.length; index += 2) {
    if (headers[index]!.toString('latin1').toLowerCase() === name) return headers[index + 1]!.toString('latin1');
  }
  return null;
}

/** The function's tracer. */
export const tracer = createTracer();

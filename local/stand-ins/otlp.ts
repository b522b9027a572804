import { createReadStream, existsSync } from 'node:fs';
import { appendFile, mkdir, rename, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { listen, type RunningService } from './types.js';

/**
 * The local stage's OTLP receiver, in the place of the ADOT collector that runs beside each function in AWS: the
 * handlers export their spans to it over OTLP/HTTP with JSON (POST /v1/traces, as
 * @opentelemetry/exporter-trace-otlp-http sends them), and it keeps them in <dataDir>/traces/spans.jsonl, one span
 * a line, so that they outlive a restart and a developer can read them. Tests and developers query them:
 * - GET /api/traces/<traceId>: every span of one trace;
 * - GET /api/spans?name=…&traceId=…&linkedSpanId=…&attr.<key>=<value>&limit=…: the latest spans that match
 *   (linkedSpanId: the spans linked to that span, as a worker's span is to every message of a batch it handled).
 * As strict as a collector: another content type is 415, a body that is not an OTLP export request 400, a body
 * beyond 4 MB (the ADOT collector's default limit) 413.
 */

/** A span as the receiver keeps and answers it: ids in hex, attributes flattened to plain values. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | null;
  readonly name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  readonly kind: number;
  readonly startTimeUnixNano: string;
  readonly endTimeUnixNano: string;
  readonly attributes: Readonly<Record<string, unknown>>;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  readonly status: { readonly code: number; readonly message?: string };
  readonly links: readonly { readonly traceId: string; readonly spanId: string }[];
  readonly service: string | null;
  readonly receivedAt: string;
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Spans kept in memory for the queries (the newest); the file keeps up to two generations of 16 MB (read at start). */
const MAX_SPANS_IN_MEMORY = 50_000;
const MAX_FILE_BYTES = 16 * 1024 * 1024;
const HEX_ID = { trace: /^[0-9a-f]{32}$/, span: /^[0-9a-f]{16}$/ };

interface OtlpAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: OtlpAnyValue[] };
  kvlistValue?: { values?: OtlpKeyValue[] };
}
interface OtlpKeyValue {
  key: string;
  value?: OtlpAnyValue;
}
interface OtlpSpan {
  traceId?: unknown;
  spanId?: unknown;
  parentSpanId?: unknown;
  name?: unknown;
  kind?: unknown;
  startTimeUnixNano?: unknown;
  endTimeUnixNano?: unknown;
  attributes?: OtlpKeyValue[];
  status?: { code?: number; message?: string };
  links?: { traceId?: unknown; spanId?: unknown }[];
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: { spans?: OtlpSpan[] }[];
  }[];
}

class InvalidExport extends Error {}

function plain(value: OtlpAnyValue | undefined): unknown {
  if (!value) return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(plain);
  if (value.kvlistValue) return flatten(value.kvlistValue.values);
  return null;
}

function flatten(attributes: OtlpKeyValue[] | undefined): Record<string, unknown> {
  if (attributes !== undefined && !Array.isArray(attributes)) throw new InvalidExport('attributes must be a list');
  return Object.fromEntries((attributes ?? []).map((attribute) => [attribute.key, plain(attribute.value)]));
}

function hexId(value: unknown, kind: 'trace' | 'span', what: string): string {
  if (typeof value !== 'string' || !HEX_ID[kind].test(value.toLowerCase())) {
    throw new InvalidExport(`${what} must be a ${kind === 'trace' ? 32 : 16}-digit hex id`);
  }
  return value.toLowerCase();
}

/** The spans of an OTLP/JSON ExportTraceServiceRequest; throws InvalidExport on anything else. */
export function spansOf(body: unknown, receivedAt: string): ReceivedSpan[] {
  const request = body as OtlpExport;
  if (!request || typeof request !== 'object' || !Array.isArray(request.resourceSpans)) {
    throw new InvalidExport('an ExportTraceServiceRequest has resourceSpans');
  }
  return request.resourceSpans.flatMap((resourceSpans) => {
    const service = flatten(resourceSpans.resource?.attributes)['service.name'];
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span): ReceivedSpan => {
        if (typeof span.name !== 'string') throw new InvalidExport('a span has a name');
        return {
          traceId: hexId(span.traceId, 'trace', 'traceId'),
          spanId: hexId(span.spanId, 'span', 'spanId'),
          parentSpanId: span.parentSpanId ? hexId(span.parentSpanId, 'span', 'parentSpanId') : null,
          name: span.name,
          kind: Number(span.kind ?? 0),
          startTimeUnixNano: String(span.startTimeUnixNano ?? '0'),
          endTimeUnixNano: String(span.endTimeUnixNano ?? '0'),
          attributes: flatten(span.attributes),
          status: { code: span.status?.code ?? 0, ...(span.status?.message ? { message: span.status.message } : {}) },
          links: (span.links ?? []).map((link) => ({
            traceId: hexId(link.traceId, 'trace', 'link traceId'),
            spanId: hexId(link.spanId, 'span', 'link spanId'),
          })),
          service: typeof service === 'string' ? service : null,
          receivedAt,
        };
      }),
    );
  });
}

export async function startOtlpReceiver(options: {
  port: number;
  host: string;
  dataDir: string;
}): Promise<RunningService> {
  const dir = path.join(options.dataDir, 'traces');
  const file = path.join(dir, 'spans.jsonl');
  await mkdir(dir, { recursive: true });
  const spans: ReceivedSpan[] = [];
  const remember = (received: ReceivedSpan[]) => {
    spans.push(...received);
    if (spans.length > MAX_SPANS_IN_MEMORY) spans.splice(0, spans.length - MAX_SPANS_IN_MEMORY);
  };
  if (existsSync(file)) {
    const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
    for await (const line of lines) {
      if (!line.trim()) continue;
      try {
        remember([JSON.parse(line) as ReceivedSpan]);
      } catch {
        // A line cut short by a killed stage: the spans before and after it still count.
      }
    }
  }
  // The file is written behind the answers, one append at a time with whatever arrived meanwhile: an export (at
  // the end of every invocation, in the stage's own process) costs the handlers as little as a collector would.
  let pending: ReceivedSpan[] = [];
  let writing: Promise<void> | null = null;
  const writeAll = async (): Promise<void> => {
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      const size = existsSync(file) ? (await stat(file)).size : 0;
      if (size > MAX_FILE_BYTES) await rename(file, path.join(dir, 'spans.1.jsonl'));
      await appendFile(file, batch.map((span) => `${JSON.stringify(span)}\n`).join(''));
    }
  };
  const persist = (received: ReceivedSpan[]) => {
    pending.push(...received);
    writing ??= writeAll()
      .catch((error: Error) => console.error(`El receptor OTLP no pudo guardar trazas: ${error.message}`))
      .finally(() => {
        writing = null;
      });
  };

  const answer = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'POST' && url.pathname === '/v1/traces') {
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json') {
        req.resume();
        answer(res, 415, { code: 3, message: 'Only OTLP/HTTP with JSON is received locally (application/json).' });
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let tooLarge = false;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) tooLarge = true;
        else chunks.push(chunk);
      });
      req.on('end', () => {
        if (tooLarge)
          return answer(res, 413, { code: 8, message: `Export requests are limited to ${MAX_BODY_BYTES} bytes.` });
        let received: ReceivedSpan[];
        try {
          received = spansOf(JSON.parse(Buffer.concat(chunks).toString('utf8')), new Date().toISOString());
        } catch (error) {
          const message = error instanceof InvalidExport ? error.message : 'The body is not JSON.';
          return answer(res, 400, { code: 3, message });
        }
        remember(received);
        persist(received);
        answer(res, 200, {});
      });
      return;
    }
    if (req.method === 'GET' && url.pathname.startsWith('/api/traces/')) {
      const traceId = decodeURIComponent(url.pathname.slice('/api/traces/'.length)).toLowerCase();
      return answer(res, 200, { spans: spans.filter((span) => span.traceId === traceId) });
    }
    if (req.method === 'GET' && url.pathname === '/api/spans') {
      const name = url.searchParams.get('name');
      const traceId = url.searchParams.get('traceId')?.toLowerCase();
      const linkedSpanId = url.searchParams.get('linkedSpanId')?.toLowerCase();
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 100) || 100, 10_000);
      const wanted = [...url.searchParams.entries()]
        .filter(([key]) => key.startsWith('attr.'))
        .map(([key, value]) => [key.slice('attr.'.length), value] as const);
      const found = spans.filter(
        (span) =>
          (!name || span.name === name) &&
          (!traceId || span.traceId === traceId) &&
          (!linkedSpanId || span.links.some((link) => link.spanId === linkedSpanId)) &&
          wanted.every(([key, value]) => String(span.attributes[key]) === value),
      );
      return answer(res, 200, { spans: found.slice(-limit) });
    }
    answer(res, 404, { message: 'POST /v1/traces, GET /api/traces/<traceId> or GET /api/spans' });
  });

  const running = await listen('OTLP receiver', server, options.port, options.host);
  return {
    ...running,
    stop: async () => {
      await running.stop();
      while (writing) await writing;
    },
  };
}

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ReceivedSpan } from '../../local/stand-ins/otlp.js';

/**
 * The local stage's trace store read as a meter (bench/suites/cost.ts): every invocation of a function is a span with
 * `faas.trigger` (an API request, a worker's batch, a scheduled job), every AWS SDK call a child span named
 * `<Service>.<Operation>` — DynamoDB's with the capacity it consumed (functions/src/adapters/dynamodb-capacity.ts).
 * What happened between two instants is counted from the spans that started between them.
 */

/** A span as the stage's trace store keeps it (local/stand-ins/otlp.ts), what the meter reads of it. */
export type StoredSpan = Pick<
  ReceivedSpan,
  'traceId' | 'spanId' | 'parentSpanId' | 'name' | 'kind' | 'startTimeUnixNano' | 'endTimeUnixNano' | 'attributes'
>;

/** The spans of `<dataDir>/traces` (both generations of the file) that started within [fromMs, toMs]. */
export function readSpans(dataDir: string, fromMs: number, toMs: number): StoredSpan[] {
  const dir = path.join(dataDir, 'traces');
  const spans: StoredSpan[] = [];
  for (const file of ['spans.1.jsonl', 'spans.jsonl']) {
    const full = path.join(dir, file);
    if (!existsSync(full)) continue;
    for (const text of readFileSync(full, 'utf8').split('\n')) {
      if (!text) continue;
      const span = JSON.parse(text) as StoredSpan;
      const start = Number(BigInt(span.startTimeUnixNano) / 1_000_000n);
      if (start >= fromMs && start <= toMs) spans.push(span);
    }
  }
  return spans;
}

export interface Invocation {
  /** The function: a route id, `worker:<queue key>`, `job:<schedule id>`, or the span's name. */
  readonly fn: string;
  readonly trigger: string;
  readonly traceId: string;
  /** It began its trace (no parent span in the store): the trace is recorded or not by its function's sampler. */
  readonly startsTrace: boolean;
  readonly durationMs: number;
  readonly calls: Record<string, number>;
  readonly readUnits: number;
  readonly writeUnits: number;
  /** DynamoDB calls answered without a consumed capacity (should be none). */
  readonly unmeteredDynamoCalls: number;
}

const durationMs = (span: StoredSpan) =>
  Number(BigInt(span.endTimeUnixNano) - BigInt(span.startTimeUnixNano)) / 1_000_000;

/**
 * The invocations among `spans`, each with the SDK calls made under it (however deep) and the DynamoDB capacity
 * they consumed. `nameOf` maps an invocation span to its function.
 */
export function invocationsOf(
  spans: readonly StoredSpan[],
  nameOf: (span: StoredSpan) => string,
): { invocations: Invocation[]; orphanCalls: number } {
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  const isInvocation = (span: StoredSpan) => typeof span.attributes['faas.trigger'] === 'string';
  const owner = new Map<string, StoredSpan | null>();
  const invocationOf = (span: StoredSpan): StoredSpan | null => {
    const seen: StoredSpan[] = [];
    let current: StoredSpan | undefined = span;
    let found: StoredSpan | null = null;
    while (current) {
      if (owner.has(current.spanId)) {
        found = owner.get(current.spanId)!;
        break;
      }
      seen.push(current);
      if (isInvocation(current)) {
        found = current;
        break;
      }
      current = current.parentSpanId ? byId.get(current.parentSpanId) : undefined;
    }
    for (const visited of seen) owner.set(visited.spanId, found);
    return found;
  };

  const totals = new Map<string, { calls: Record<string, number>; read: number; write: number; unmetered: number }>();
  let orphanCalls = 0;
  for (const span of spans) {
    if (isInvocation(span)) continue;
    const call = /^([A-Za-z0-9]+)\.([A-Za-z0-9]+)$/.exec(span.name);
    if (!call) continue;
    const invocation = invocationOf(span);
    if (!invocation) {
      orphanCalls += 1;
      continue;
    }
    const entry = totals.get(invocation.spanId) ?? { calls: {}, read: 0, write: 0, unmetered: 0 };
    entry.calls[span.name] = (entry.calls[span.name] ?? 0) + 1;
    if (call[1] === 'DynamoDB') {
      const read = span.attributes['aws.dynamodb.consumed_read_units'];
      const write = span.attributes['aws.dynamodb.consumed_write_units'];
      if (typeof read === 'number' || typeof write === 'number') {
        entry.read += typeof read === 'number' ? read : 0;
        entry.write += typeof write === 'number' ? write : 0;
      } else entry.unmetered += 1;
    }
    totals.set(invocation.spanId, entry);
  }

  const invocations = spans.filter(isInvocation).map((span): Invocation => {
    const entry = totals.get(span.spanId) ?? { calls: {}, read: 0, write: 0, unmetered: 0 };
    return {
      fn: nameOf(span),
      trigger: String(span.attributes['faas.trigger']),
      traceId: span.traceId,
      startsTrace: span.parentSpanId === null || !byId.has(span.parentSpanId),
      durationMs: durationMs(span),
      calls: entry.calls,
      readUnits: entry.read,
      writeUnits: entry.write,
      unmeteredDynamoCalls: entry.unmetered,
    };
  });
  return { invocations, orphanCalls };
}

/** How many calls of a service (or of one operation, `Service.Operation`) the invocations made. */
export function countCalls(invocations: readonly Invocation[], match: (call: string) => boolean): number {
  let count = 0;
  for (const invocation of invocations) {
    for (const [call, n] of Object.entries(invocation.calls)) if (match(call)) count += n;
  }
  return count;
}

/**
 * The traces X-Ray would record of these invocations: each trace begun by one of them counts its function's sampling
 * ratio (`ratioOf`, 1 for all but the API's reads: docs/adr/0041-trace-sampling.md); a trace begun before them counts 1.
 */
export function tracesRecorded(invocations: readonly Invocation[], ratioOf: (fn: string) => number): number {
  const begun = new Map<string, number>();
  for (const invocation of invocations) {
    if (invocation.startsTrace) begun.set(invocation.traceId, ratioOf(invocation.fn));
    else if (!begun.has(invocation.traceId)) begun.set(invocation.traceId, 1);
  }
  let total = 0;
  for (const ratio of begun.values()) total += ratio;
  return total;
}

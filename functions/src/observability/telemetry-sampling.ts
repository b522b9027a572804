import { SpanKind, type Attributes } from '@opentelemetry/api';
import {
  AlwaysOnSampler,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { ATTR_HTTP_REQUEST_METHOD } from '@opentelemetry/semantic-conventions';
import { RUNTIME_ENV } from '@portal/shared';

/* Where spans go and which are kept: the OTLP endpoint and the samplers. */

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
export class EndedSpans implements SpanProcessor {
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

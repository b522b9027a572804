import autocannon from 'autocannon';
import { percentile } from './figures.js';

/**
 * BENCH_SLOW_MS=300 logs, after each run, when its answers slower than that came (wall clock, grouped into bursts a
 * stall makes): to line them up with the stage's and DynamoDB Local's logs. Off by default.
 */
const SLOW_MS = Number(process.env.BENCH_SLOW_MS) || 0;

function slowWatch(label: string): { note(latencyMs: number): void; report(): void } {
  const slow: { at: number; ms: number }[] = [];
  return {
    note(latencyMs) {
      if (SLOW_MS > 0 && latencyMs > SLOW_MS) slow.push({ at: Date.now(), ms: latencyMs });
    },
    report() {
      if (slow.length === 0) return;
      const bursts: { ends: number; count: number; max: number }[] = [];
      for (const { at, ms } of slow) {
        const burst = bursts.at(-1);
        if (burst && at - burst.ends < 200)
          Object.assign(burst, { ends: at, count: burst.count + 1, max: Math.max(burst.max, ms) });
        else bursts.push({ ends: at, count: 1, max: ms });
      }
      const said = bursts.map(
        (b) => `${new Date(b.ends).toISOString().slice(11, 23)} ${b.count}×≤${Math.round(b.max)} ms`,
      );
      console.log(`    slow (${label}, over ${SLOW_MS} ms, burst ends): ${said.join(', ')}`);
    },
  };
}

/** One request of a load run: a fixed one, or a new one per request (e.g. a different invoice each time). */
export interface LoadRequest {
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface LoadOptions {
  /** Origin, e.g. http://127.0.0.1:5001 */
  readonly origin: string;
  readonly connections: number;
  /** Bounded in time (seconds) or in requests (`amount`), whichever is given. */
  readonly durationS?: number;
  readonly amount?: number;
  /** Called for each request sent. */
  readonly request: () => LoadRequest;
}

export interface LoadResult {
  readonly p50: number;
  readonly p99: number;
  /** Responses per second over the run. */
  readonly rps: number;
  readonly requests: number;
  /** Connection errors, timeouts and responses other than 2xx. */
  readonly errors: number;
  /** Status codes other than 2xx, with their counts, to say what went wrong. */
  readonly failures: Readonly<Record<string, number>>;
}

/**
 * Runs autocannon on loopback and reads every response's latency itself (autocannon's histogram keeps whole
 * milliseconds, too coarse for ratios of calls that take a few of them).
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  const slow = slowWatch(options.origin);
  const started = performance.now();
  let instance!: autocannon.Instance;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: options.origin,
        connections: options.connections,
        ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.durationS ?? 5 }),
        timeout: 30,
        requests: [
          {
            setupRequest: (request) => {
              const next = options.request();
              return {
                ...request,
                method: next.method,
                path: next.path,
                headers: { ...next.headers },
                ...(next.body !== undefined ? { body: next.body } : {}),
              };
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) {
      latencies.push(responseTime);
      slow.note(responseTime);
    } else failures[statusCode] = (failures[statusCode] ?? 0) + 1;
  });
  const result = await finished;
  slow.report();
  const elapsedS = (performance.now() - started) / 1000;
  const errors = result.errors + result.timeouts + result.non2xx;
  if (latencies.length === 0) {
    throw new Error(
      `No successful response from ${options.origin} (${JSON.stringify(failures)}, ${result.errors} errors)`,
    );
  }
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    rps: Math.round(latencies.length / elapsedS),
    requests: latencies.length + Object.values(failures).reduce((a, b) => a + b, 0),
    errors,
    failures,
  };
}

export interface CallsOptions {
  readonly concurrency: number;
  /** Bounded in time (seconds) or in calls (`amount`), whichever is given. */
  readonly durationS?: number;
  readonly amount?: number;
  readonly call: () => Promise<unknown>;
}

/**
 * `concurrency` callers, each making `call` again as soon as the previous one answered (what autocannon's
 * connections do over HTTP), for the duration or until `amount` calls were started.
 */
export async function runCalls(options: CallsOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  const slow = slowWatch('calls');
  const started = performance.now();
  const deadline = options.durationS !== undefined ? started + options.durationS * 1000 : Infinity;
  let remaining = options.amount ?? Infinity;
  const caller = async () => {
    while (remaining > 0 && performance.now() < deadline) {
      remaining -= 1;
      const callStarted = performance.now();
      try {
        await options.call();
        const latency = performance.now() - callStarted;
        latencies.push(latency);
        slow.note(latency);
      } catch (error) {
        const name = (error as Error).name || 'Error';
        failures[name] = (failures[name] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, caller));
  slow.report();
  const elapsedS = (performance.now() - started) / 1000;
  const errors = Object.values(failures).reduce((a, b) => a + b, 0);
  if (latencies.length === 0) throw new Error(`No call succeeded (${JSON.stringify(failures)})`);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    rps: Math.round(latencies.length / elapsedS),
    requests: latencies.length + errors,
    errors,
    failures,
  };
}

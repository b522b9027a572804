import type { METRICS } from '@portal/shared';

type MetricKey = Exclude<keyof typeof METRICS, 'namespace' | 'serviceName' | 'stageDimension'>;
export type MetricName = (typeof METRICS)[MetricKey];

/** What workers and jobs count through: Powertools Metrics in Lambda, a fake in the tests. */
export interface Meter {
  count(name: MetricName, value: number): void;
}

/** A call to another system, counted as one attempt and zero or one failure. */
export interface MeteredCall {
  readonly calls: MetricName;
  readonly failures: MetricName;
}

/**
 * Runs `call`, then counts the attempt and — with 0 on success — the failure, so a failure rate is
 * always one metric divided by the other. What `call` throws is a failure and is thrown on.
 */
export async function metered<T>(meter: Meter, names: MeteredCall, call: () => Promise<T>): Promise<T> {
  let failed = true;
  try {
    const result = await call();
    failed = false;
    return result;
  } finally {
    meter.count(names.calls, 1);
    meter.count(names.failures, failed ? 1 : 0);
  }
}

/** Counts nothing: for a use case built outside a function (a test that does not look at metrics). */
export const UNCOUNTED: Meter = { count: () => undefined };

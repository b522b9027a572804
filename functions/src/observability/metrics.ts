import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { MiddlewareObj } from '@middy/core';
import { METRICS, RUNTIME_ENV } from '@portal/shared';
import type { Meter } from './meter.js';

const stage = process.env[RUNTIME_ENV.stage];

/**
 * One Powertools Metrics per function, in CloudWatch's embedded metric format. Every metric carries
 * the `service` and `stage` dimensions the alarms and the dashboard select on (METRICS).
 */
export const metrics = new Metrics({
  namespace: METRICS.namespace,
  serviceName: METRICS.serviceName,
  // Outside a stage (unit tests) there is no stage to name, and Powertools refuses an empty dimension.
  ...(stage ? { defaultDimensions: { [METRICS.stageDimension]: stage } } : {}),
});

/** The product's counters, written to the Powertools buffer that flushMetrics empties. */
export const meter: Meter = {
  count(name, value) {
    metrics.addMetric(name, MetricUnit.Count, value);
  },
};

/**
 * Publishes what the invocation counted, after the handler or its error. Powertools' own logMetrics
 * would also do this, but it logs a warning on every invocation that counted nothing — every API
 * request, and every worker batch that did not call SUNAT or SAP.
 */
export function flushMetrics(): MiddlewareObj {
  const flush = () => {
    if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  };
  return { after: flush, onError: flush };
}

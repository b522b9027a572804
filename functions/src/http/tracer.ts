import { Tracer } from '@aws-lambda-powertools/tracer';
import { METRICS } from '@portal/shared';

/**
 * One X-Ray tracer per function. It switches itself off outside Lambda (unit tests) and when
 * POWERTOOLS_TRACE_ENABLED=false (the local stage), so nothing is sent or printed there.
 */
export const tracer = new Tracer({ serviceName: METRICS.serviceName });

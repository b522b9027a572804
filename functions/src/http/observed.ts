import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Callback, Context } from 'aws-lambda';
import { logger } from './logger.js';
import { flushMetrics } from './metrics.js';
import { tracer } from './tracer.js';

/**
 * What every function does around its handler: logs carry the Lambda context, the invocation is a
 * traced segment and, unless `metrics` is false, what it counted is published at the end. Responses
 * are not put on the trace: they hold invoices, tokens' claims and personal data.
 */
export function observability(options: { metrics?: boolean } = {}) {
  const middlewares = [injectLambdaContext(logger), tracer.invocation()];
  return options.metrics === false ? middlewares : [...middlewares, flushMetrics()];
}

/**
 * A worker, job or trigger handler wrapped in observability(), with the shape of a Lambda handler
 * (async: the callback is never called). The local stage invokes handlers without a Lambda context;
 * an empty one stands in for it.
 */
export function observed<E, R>(
  handler: (event: E, context: Context) => Promise<R>,
  options: { metrics?: boolean } = {},
): (event: E, context?: Context, callback?: Callback<R>) => Promise<R> {
  const wrapped = middy<E, R, Error, Context>().use(observability(options)).handler(handler);
  return (event, context) => wrapped(event, context ?? ({} as Context));
}

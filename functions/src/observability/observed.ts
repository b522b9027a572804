import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Callback, Context } from 'aws-lambda';
import { logger } from './logger.js';
import { flushMetrics } from './metrics.js';
import { telemetry } from './telemetry.js';

/**
 * What every function does around its handler: logs carry the Lambda context and, unless `metrics` is false,
 * what it counted is published at the end. The invocation's span wraps the whole handler (`telemetry.invocation`,
 * which httpHandler and observed() apply): a middleware cannot make its span the active one for the handler.
 */
export function observability(options: { metrics?: boolean } = {}) {
  const middlewares = [injectLambdaContext(logger)];
  return options.metrics === false ? middlewares : [...middlewares, flushMetrics()];
}

/**
 * A worker, job or trigger handler wrapped in observability() and in its invocation span, with the shape of a
 * Lambda handler (async: the callback is never called). The local stage invokes handlers without a Lambda
 * context; an empty one stands in for it.
 */
export function observed<E, R>(
  handler: (event: E, context: Context) => Promise<R>,
  options: { metrics?: boolean } = {},
): (event: E, context?: Context, callback?: Callback<R>) => Promise<R> {
  const wrapped = middy<E, R, Error, Context>().use(observability(options)).handler(handler);
  return telemetry.invocation((event: E, context?: Context) => wrapped(event, context ?? ({} as Context)));
}

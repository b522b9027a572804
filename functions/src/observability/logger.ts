import { Logger } from '@aws-lambda-powertools/logger';
import type { LogAttributes, LogItemExtraInput, LogItemMessage } from '@aws-lambda-powertools/logger/types';

/** One structured JSON logger per function; each request logs through it with its txId and route on every line. */
export const logger = new Logger({ serviceName: 'portal-proveedores' });
export type { Logger };

/** What a request logs through. */
export type RequestLog = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;

/**
 * The function's logger with `keys` on every line, as a child logger prints its persistent keys, without building one
 * per request: powertools' `createChild` constructs a whole Logger (a console, its settings read again from the
 * environment), some 7% of an API function's CPU per request under load (docs/benchmarks.md, "The API's overhead").
 * Requests served at once keep their keys apart, as children do.
 */
export function withKeys(keys: LogAttributes): RequestLog {
  // Powertools merges each extra input in turn, an object's keys or an error (Logger's #processExtraInput); its type
  // names a lone error or a list of objects, not both.
  const extra = (more: LogItemExtraInput) => [keys, ...more] as unknown as LogAttributes[];
  return {
    debug: (input: LogItemMessage, ...more: LogItemExtraInput) => logger.debug(input, ...extra(more)),
    info: (input: LogItemMessage, ...more: LogItemExtraInput) => logger.info(input, ...extra(more)),
    warn: (input: LogItemMessage, ...more: LogItemExtraInput) => logger.warn(input, ...extra(more)),
    error: (input: LogItemMessage, ...more: LogItemExtraInput) => logger.error(input, ...extra(more)),
  };
}

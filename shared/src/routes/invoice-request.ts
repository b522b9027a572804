import type * as z from 'zod/mini';
import type { ErrorCode } from '../errors/catalogue.js';
import { InvoiceKeyPath } from '../schemas/invoices.js';
import { INVOICE_ID_CODES } from './route.js';

/** What a route under an invoice's path takes besides the invoice's key. */
interface InvoiceRequestExtra {
  readonly query?: z.ZodMiniType;
  readonly body?: z.ZodMiniType;
  readonly parameterCodes?: Readonly<Partial<Record<string, ErrorCode>>>;
}

/**
 * The request of a route under INVOICE_API_PATH: the invoice's key in the path (an id that breaks the series-number
 * format answers the spec's own code), plus the route's query, body and codes of its own.
 */
export function invoiceRequest<const E extends InvoiceRequestExtra = Record<never, never>>(
  extra?: E,
): Omit<E, 'parameterCodes'> & {
  readonly path: typeof InvoiceKeyPath;
  readonly parameterCodes: Readonly<Partial<Record<string, ErrorCode>>>;
} {
  return {
    path: InvoiceKeyPath,
    ...(extra as E),
    parameterCodes: { ...INVOICE_ID_CODES, ...extra?.parameterCodes },
  };
}

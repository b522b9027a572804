import * as z from 'zod/mini';
import { INVOICE_TYPES, InvoiceType } from './domain.js';
import { Ruc } from './schemas/common.js';
import { keys, type ItemKey } from './data/table.js';

/**
 * Which invoice: its supplier's RUC, its type and its series-number (`F001-123`), the identity every invoice key,
 * address, queue message and outbox record is made of. An `Invoice` is one (its `supplierId`, `type` and `id`).
 */
export interface InvoiceRef {
  readonly supplierId: string;
  readonly type: InvoiceType;
  readonly id: string;
}

/**
 * The same identity as the API's paths, the queue messages and the records beside an invoice spell it:
 * `{supplierId, invoiceType, invoiceId}`. Only the wire says it so; code holds an `InvoiceRef`.
 */
export interface InvoiceRefParams {
  readonly supplierId: string;
  readonly invoiceType: InvoiceType;
  readonly invoiceId: string;
}

/** The fields of `InvoiceRefParams`, for every message schema that carries one invoice. */
export const invoiceRefFields = { supplierId: Ruc, invoiceType: InvoiceType, invoiceId: z.string() };

/** The path of every route about one invoice (its parameters are `InvoiceRefParams`). */
export const INVOICE_API_PATH = '/suppliers/{supplierId}/invoices/{invoiceType}/{invoiceId}';

/** The web app's route of one invoice (React Router syntax, the same parameters). */
export const INVOICE_PAGE_ROUTE = '/invoices/:supplierId/:invoiceType/:invoiceId';

export function toInvoiceParams(ref: InvoiceRef): InvoiceRefParams {
  return { supplierId: ref.supplierId, invoiceType: ref.type, invoiceId: ref.id };
}

export function fromInvoiceParams(params: InvoiceRefParams): InvoiceRef {
  return { supplierId: params.supplierId, type: params.invoiceType, id: params.invoiceId };
}

function isInvoiceType(value: string | undefined): value is InvoiceType {
  return (INVOICE_TYPES as readonly string[]).includes(value ?? '');
}

/**
 * The invoice a URL's (or an untyped record's) parameters name; null when they name none or an invoice type that
 * does not exist.
 */
export function invoiceRefOfParams(params: Readonly<Record<string, unknown>>): InvoiceRef | null {
  const { supplierId, invoiceType, invoiceId } = params;
  if (typeof supplierId !== 'string' || typeof invoiceId !== 'string' || !supplierId || !invoiceId) return null;
  if (typeof invoiceType !== 'string' || !isInvoiceType(invoiceType)) return null;
  return { supplierId, type: invoiceType, id: invoiceId };
}

/** The invoice's item in the table: `INVOICE#{supplierId}#{type}#{id}` / `INVOICE`. */
export function invoiceTableKey(ref: InvoiceRef): ItemKey {
  return keys.invoice(ref.supplierId, ref.type, ref.id);
}

/** The invoice a table partition key names (`INVOICE#…`, or the partition of a record beside it); null if none. */
export function invoiceRefOfTableKey(pk: string): InvoiceRef | null {
  const [, supplierId, type, id, ...rest] = pk.split('#');
  if (rest.length > 0 || !supplierId || !id || !isInvoiceType(type)) return null;
  return { supplierId, type, id };
}

/** The key of the invoice's MIRO request record, also the idempotency key of its SAP posting. */
export function miroOutboxKey(ref: InvoiceRef): ItemKey {
  return keys.miroOutbox(ref.supplierId, ref.type, ref.id);
}

const pathOf = (...segments: string[]) => segments.map(encodeURIComponent).join('/');

/** The API path of the invoice (`INVOICE_API_PATH` filled): /suppliers/20456178325/invoices/FACTURA/F001-123. */
export function invoiceApiPath(ref: InvoiceRef): string {
  return `/suppliers/${pathOf(ref.supplierId)}/invoices/${pathOf(ref.type, ref.id)}`;
}

/**
 * The web app's page of the invoice (`INVOICE_PAGE_ROUTE` filled): /invoices/20456178325/FACTURA/F001-123, each
 * segment URL-encoded. E-mails link to it on the configured portal origin (`invoicePageUrl`).
 */
export function invoicePageOf(ref: InvoiceRef): string {
  return `/invoices/${pathOf(ref.supplierId, ref.type, ref.id)}`;
}

/** The same page from the wire's spelling (a queue message, a zip's result). */
export function invoicePagePath(params: { supplierId: string; invoiceType: string; invoiceId: string }): string {
  return `/invoices/${pathOf(params.supplierId, params.invoiceType, params.invoiceId)}`;
}

/** The invoice's page on the portal origin (`https://proveedores.grupo.pe`, no trailing slash needed). */
export function invoicePageUrl(
  origin: string,
  params: { supplierId: string; invoiceType: string; invoiceId: string },
): string {
  return `${origin.replace(/\/+$/, '')}${invoicePagePath(params)}`;
}

import { INVOICE_PAGE_ROUTE, invoicePageOf, invoiceRefOfParams, type InvoiceRef } from '@portal/shared';

/**
 * Where the portal sends the user on the invoices screen: the list filtered by the query parameters it
 * reads (the filter's `search` and `issuer`, spec §3), and one invoice's own address, which opens its
 * detail beside the list (the e-mails link there too). Keep every side on these builders.
 */
export const INVOICE_QUERY = { search: 'search', issuer: 'issuer' } as const;

export const INVOICES_PATH = '/invoices';

/** The route of one invoice: the path of GET /suppliers/{supplierId}/invoices/{invoiceType}/{invoiceId}. */
export const INVOICE_DETAIL_ROUTE = INVOICE_PAGE_ROUTE;

/** Which invoice an address names. */
export type InvoiceKey = InvoiceRef;

/** Invoices matching a number, a RUC or a business name: /invoices?search=F001-123. */
export function invoicesSearchHref(text: string): string {
  return `${INVOICES_PATH}?${new URLSearchParams({ [INVOICE_QUERY.search]: text.trim() })}`;
}

/** Invoices issued by one supplier: /invoices?issuer=20456178325. */
export function invoicesIssuerHref(ruc: string): string {
  return `${INVOICES_PATH}?${new URLSearchParams({ [INVOICE_QUERY.issuer]: ruc })}`;
}

/**
 * One invoice's address, /invoices/20456178325/FACTURA/F001-123, with the list's query (its filters) kept
 * after it: the detail opens beside the same list, and closing it goes back to that list.
 */
export function invoiceDetailHref(key: InvoiceKey, search = ''): string {
  return `${invoicePageOf(key)}${search && !search.startsWith('?') ? `?${search}` : search}`;
}

/**
 * An invoice the header search found: its address with the search's list behind it, as the list's number link
 * builds it on /invoices?search=F001-123 (closing the detail shows that list).
 */
export function invoiceFoundHref(key: InvoiceKey, text: string): string {
  return invoiceDetailHref(key, new URLSearchParams({ [INVOICE_QUERY.search]: text.trim() }).toString());
}

/** The invoice an address's parameters name; null when they name none or an invoice type that does not exist. */
export function invoiceKeyOf(params: Readonly<Record<string, string | undefined>>): InvoiceKey | null {
  return invoiceRefOfParams(params);
}

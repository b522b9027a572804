/**
 * Where the header sends the user on the invoices screen. The invoices screen reads these query
 * parameters (the filter's `search` and `issuer`, spec §3) to filter its table; keep both sides on
 * these builders.
 */
export const INVOICE_QUERY = { search: 'search', issuer: 'issuer' } as const;

const INVOICES_PATH = '/invoices';

/** Invoices matching a number, a RUC or a business name: /invoices?search=F001-123. */
export function invoicesSearchHref(text: string): string {
  return `${INVOICES_PATH}?${new URLSearchParams({ [INVOICE_QUERY.search]: text.trim() })}`;
}

/** Invoices issued by one supplier: /invoices?issuer=20456178325. */
export function invoicesIssuerHref(ruc: string): string {
  return `${INVOICES_PATH}?${new URLSearchParams({ [INVOICE_QUERY.issuer]: ruc })}`;
}

/**
 * The page sizes of the invoices screen ('Filas por página' in the table's preferences) and where the browser
 * remembers the chosen one. Pure on purpose (no DOM, no React): the web benchmark (bench/suites/web.ts) imports
 * it to open the screen with a preference set.
 *
 * Every size must be a `limit` GET /invoices accepts (PageQuery in shared/src/schemas/common.ts: 1 to 100;
 * page-size.test.ts checks it).
 */
export const INVOICES_PAGE_SIZES = [20, 50, 100] as const;

export type InvoicesPageSize = (typeof INVOICES_PAGE_SIZES)[number];

export const DEFAULT_INVOICES_PAGE_SIZE: InvoicesPageSize = 20;

/** localStorage key of the chosen page size, per browser (the value is the size as a decimal string). */
export const INVOICES_PAGE_SIZE_KEY = 'portal.invoices.pageSize';

export function isInvoicesPageSize(value: unknown): value is InvoicesPageSize {
  return (INVOICES_PAGE_SIZES as readonly unknown[]).includes(value);
}

/** The page size a stored value stands for: the default when absent or not one of the sizes offered. */
export function parseInvoicesPageSize(stored: string | null | undefined): InvoicesPageSize {
  if (stored == null || !/^\d+$/.test(stored.trim())) return DEFAULT_INVOICES_PAGE_SIZE;
  const value = Number(stored.trim());
  return isInvoicesPageSize(value) ? value : DEFAULT_INVOICES_PAGE_SIZE;
}

import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import { routes } from '@portal/shared';
import { useApi } from '../../api/use-api';
import { useCursorPages, type PageFilter } from '../../hooks/use-cursor-pages';
import type { InvoicesPageSize } from './page-size';

/** The filter of GET /invoices without its pagination fields (spec §3 "Invoice filter"). */
export type InvoiceFilter = PageFilter<typeof routes.listInvoices>;

/** Whether an SWR key is one of the invoice listings or their totals (for refreshing them all after a change). */
export function isInvoiceListKey(key: unknown): boolean {
  return Array.isArray(key) && (key[0] === routes.listInvoices.id || key[0] === routes.countInvoices.id);
}

/** How many invoices the filter matches (GET /invoices/count), for the table's header. */
export function useInvoiceCount(filter: InvoiceFilter | null) {
  return useApi(routes.countInvoices, filter === null ? null : { query: filter });
}

/** Refreshes every invoice listing on screen (after an upload, a creation or a change in the detail). */
export function useRefreshInvoices(): () => Promise<unknown> {
  const { mutate } = useSWRConfig();
  return useCallback(() => mutate(isInvoiceListKey), [mutate]);
}

/** Invoices of the filter, a page of `pageSize` at a time; the table waits while the filter is resolved. */
export function useInvoices(filter: InvoiceFilter | null, pageSize: InvoicesPageSize) {
  const pages = useCursorPages(routes.listInvoices, filter, pageSize);
  return { ...pages, isLoading: filter === null || pages.isLoading };
}

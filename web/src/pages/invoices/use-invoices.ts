import { useCallback, useState } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { routes, type InvoiceSummary, type RouteQueryInput } from '@portal/shared';
import { apiCall } from '../../api/client';
import { useApi, type ApiKey } from '../../api/use-api';
import { useChosenCompany } from '../../session/active-company';
import { useSessionEpoch } from '../../session/session-epoch';
import type { InvoicesPageSize } from './page-size';

/** The filter of GET /invoices without its pagination fields (spec §3 "Invoice filter"). */
export type InvoiceFilter = Omit<NonNullable<RouteQueryInput<typeof routes.listInvoices>>, 'cursor' | 'limit'>;

/** Calls one screen page may make to fill itself when the API answers short pages with a cursor. */
export const MAX_CALLS_PER_PAGE = 4;

interface FilledPage {
  readonly items: InvoiceSummary[];
  readonly nextCursor: string | null;
}

/**
 * One page of the screen, of `pageSize` rows. A filtered listing may answer a short (even empty) page that
 * still has a nextCursor (docs/adr/0001-calls-and-headers.md, "Pages of a filtered list"): the page keeps asking with that
 * cursor for what is missing, up to MAX_CALLS_PER_PAGE calls, and otherwise stays short with the pagination
 * open.
 */
async function loadFilledPage(
  filter: InvoiceFilter,
  pageSize: InvoicesPageSize,
  start: string | undefined,
): Promise<FilledPage> {
  const items: InvoiceSummary[] = [];
  let cursor = start;
  for (let call = 0; call < MAX_CALLS_PER_PAGE; call += 1) {
    const page = await apiCall(routes.listInvoices, {
      query: { ...filter, limit: pageSize - items.length, ...(cursor ? { cursor } : {}) },
    });
    items.push(...page.items);
    if (!page.nextCursor) return { items, nextCursor: null };
    cursor = page.nextCursor;
    if (items.length >= pageSize) break;
  }
  return { items, nextCursor: cursor ?? null };
}

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

interface PagingState {
  /** Filter, company and page size the cursors belong to: any change starts again at the first page. */
  readonly scope: string;
  /** cursors[i] opens page i; page 0 has none. */
  readonly cursors: readonly (string | undefined)[];
  readonly pageIndex: number;
  /** Index of the page known to be the last (its answer had no nextCursor), if reached. */
  readonly lastPageIndex: number | null;
}

function initialPaging(scope: string): PagingState {
  return { scope, cursors: [undefined], pageIndex: 0, lastPageIndex: null };
}

/**
 * Invoices of the filter, a page of `pageSize` at a time. The API hands out opaque cursors, so the hook
 * keeps the cursor of every page visited to go back and forth; a new page size starts again at the first
 * page (a cursor marks where the previous page ended, not a page number). Its SWR key has the shape of
 * `useApi`'s (route id, session, company, input) — one screen page may take several calls, which `useApi`
 * (one call per key) cannot make — so the session and company switches reset it as they reset every other
 * read.
 */
export function useInvoices(filter: InvoiceFilter | null, pageSize: InvoicesPageSize) {
  const epoch = useSessionEpoch();
  const company = useChosenCompany();
  const scope = JSON.stringify([company, filter, pageSize]);
  const [paging, setPaging] = useState<PagingState>(() => initialPaging(scope));
  // Derived reset (instead of an effect): a new filter never shows a page of the old one.
  const current = paging.scope === scope ? paging : initialPaging(scope);
  if (current !== paging) setPaging(current);

  const start = current.cursors[current.pageIndex];
  const key: ApiKey | null =
    filter === null
      ? null
      : [
          routes.listInvoices.id,
          epoch,
          company,
          JSON.stringify({ query: { ...filter, limit: pageSize, cursor: start ?? null } }),
        ];
  const { data, error, isLoading, isValidating, mutate } = useSWR<FilledPage, Error, ApiKey | null>(key, () =>
    loadFilledPage(filter!, pageSize, start),
  );

  const nextCursor = data?.nextCursor ?? null;
  const knownLast = current.lastPageIndex ?? (data && !nextCursor ? current.pageIndex : null);
  const pagesCount = Math.max(current.cursors.length, nextCursor ? current.pageIndex + 2 : 0);

  const goToPage = (index: number) => {
    setPaging((state) => {
      if (index < 0 || index === state.pageIndex) return state;
      if (index < state.cursors.length) return { ...state, pageIndex: index };
      // Only the page right after the current one can be opened, with the cursor just received.
      if (index === state.pageIndex + 1 && nextCursor && index === state.cursors.length) {
        return { ...state, cursors: [...state.cursors, nextCursor], pageIndex: index };
      }
      return state;
    });
  };

  // Remember where the end is, so going back keeps the pagination closed.
  if (data && !nextCursor && current.lastPageIndex === null && current === paging) {
    setPaging({ ...current, lastPageIndex: current.pageIndex });
  }

  return {
    items: data?.items ?? [],
    error,
    isLoading: filter === null || isLoading,
    isRefreshing: isValidating && !isLoading,
    refresh: () => mutate(),
    /** The page came back short and more may follow: the screen says so instead of 'no invoices'. */
    mayHaveMore: Boolean(data && nextCursor),
    pageIndex: current.pageIndex,
    pagesCount,
    /** Whether more pages may follow the last known one. */
    openEnd: knownLast === null,
    hasNextPage: current.pageIndex + 1 < pagesCount,
    nextPage: () => goToPage(current.pageIndex + 1),
    previousPage: () => goToPage(current.pageIndex - 1),
    goToPage,
  };
}

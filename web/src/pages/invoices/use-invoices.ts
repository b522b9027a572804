import { useMemo, useState } from 'react';
import { routes, type InvoiceSummary, type RouteQueryInput } from '@portal/shared';
import { useApi } from '../../api/use-api';
import { useChosenCompany } from '../../session/active-company';

/** The filter of GET /invoices without its pagination fields (spec §3 "Invoice filter"). */
export type InvoiceFilter = Omit<NonNullable<RouteQueryInput<typeof routes.listInvoices>>, 'cursor' | 'limit'>;

export const INVOICES_PAGE_SIZE = 20;

interface PagingState {
  /** Filter and company the cursors belong to: any change starts again at the first page. */
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
 * Invoices of the active company, a page at a time. The API hands out opaque cursors, so the hook
 * keeps the cursor of every page visited to go back and forth.
 */
export function useInvoices(filter: InvoiceFilter | null) {
  const company = useChosenCompany();
  const scope = JSON.stringify([company, filter]);
  const [paging, setPaging] = useState<PagingState>(() => initialPaging(scope));
  // Derived reset (instead of an effect): a new filter never shows a page of the old one.
  const current = paging.scope === scope ? paging : initialPaging(scope);
  if (current !== paging) setPaging(current);

  const cursor = current.cursors[current.pageIndex];
  // No filter yet (an admin's company list still loading): nothing to ask.
  const input = useMemo(
    () => (filter === null ? null : { query: { ...filter, limit: INVOICES_PAGE_SIZE, ...(cursor ? { cursor } : {}) } }),
    [filter, cursor],
  );
  const { data, error, isLoading, isValidating, mutate } = useApi(routes.listInvoices, input);

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

  const items: InvoiceSummary[] = data?.items ?? [];
  return {
    items,
    error,
    isLoading,
    isRefreshing: isValidating && !isLoading,
    refresh: () => mutate(),
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

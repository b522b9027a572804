import { useState } from 'react';
import useSWR, { type SWRConfiguration } from 'swr';
import type { RouteDef, RouteQueryInput, RouteResponse } from '@portal/shared';
import { apiCall } from '../api/client';
import type { ApiKey } from '../api/use-api';
import { useChosenCompany } from '../session/active-company';
import { useSessionEpoch } from '../session/session-epoch';
import {
  fillPage,
  firstPage,
  openPage,
  pagesCount,
  settlePage,
  type CursorPage,
  type PagingState,
} from './cursor-pages';

/** A listing that answers `{items, nextCursor}` to `limit` and `cursor`. */
type PagedRoute = RouteDef & { response: { _zod: { output: CursorPage<unknown> } } };

/** A listing's filter without its paging fields. */
export type PageFilter<R extends PagedRoute> = Omit<NonNullable<RouteQueryInput<R>>, 'cursor' | 'limit'>;

type Item<R extends PagedRoute> = RouteResponse<R>['items'][number];

/** Answers one screen page may take to fill itself when the API answers short pages with a cursor. */
export const MAX_CALLS_PER_PAGE = 4;

export interface CursorPagesOptions {
  /** Answers one screen page may take (MAX_CALLS_PER_PAGE unless said). */
  readonly maxCallsPerPage?: number;
  /** SWR's own options (e.g. not refetching on focus). */
  readonly swr?: SWRConfiguration;
  /** The path parameters of a listing under one resource (an invoice's history). */
  readonly path?: Readonly<Record<string, string>>;
}

/**
 * A listing a table page of `pageSize` rows at a time. The API hands out opaque cursors and no total, so
 * the hook keeps the cursor of every page visited to go back and forth, and the pagination stays open
 * while the API hands out a nextCursor. A short page is filled with further calls (`fillPage`). A new
 * filter, company or page size starts again at the first page: a cursor marks where the previous page
 * ended, not a page number.
 *
 * Its SWR key has the shape of `useApi`'s (route id, session, company, input), so the session and company
 * switches, `useForgetRoute` and the listings' refreshes reach it as they reach every other read; one key
 * holds one screen page, which `useApi` (one call per key) cannot fill. (swr/infinite keeps every page
 * under one key and revalidates them from the first; a table shows one page and keeps its cursors.)
 */
export function useCursorPages<R extends PagedRoute>(
  route: R,
  filter: PageFilter<R> | null,
  pageSize: number,
  options: CursorPagesOptions = {},
) {
  const epoch = useSessionEpoch();
  const company = useChosenCompany();
  const maxCalls = options.maxCallsPerPage ?? MAX_CALLS_PER_PAGE;
  const path = options.path;
  const scope = JSON.stringify([route.id, company, path ?? null, filter, pageSize]);
  const [paging, setPaging] = useState<PagingState>(() => firstPage(scope));
  // Derived reset (not an effect): a new filter never shows a page of the old one.
  const current = paging.scope === scope ? paging : firstPage(scope);

  const start = current.cursors[current.pageIndex];
  const key: ApiKey | null =
    filter === null
      ? null
      : [
          route.id,
          epoch,
          company,
          JSON.stringify({ ...(path ? { path } : {}), query: { ...filter, limit: pageSize, cursor: start ?? null } }),
        ];
  const { data, error, isLoading, isValidating, mutate } = useSWR<CursorPage<Item<R>>, Error, ApiKey | null>(
    key,
    () =>
      fillPage(
        ({ cursor, limit }) =>
          (apiCall as (r: RouteDef, i: unknown) => Promise<CursorPage<Item<R>>>)(route, {
            ...(path ? { path } : {}),
            query: { ...filter, limit, ...(cursor ? { cursor } : {}) },
          }),
        start,
        pageSize,
        maxCalls,
      ),
    options.swr as SWRConfiguration<CursorPage<Item<R>>, Error>,
  );

  const settled = settlePage(current, data);
  if (settled !== paging) setPaging(settled);
  const nextCursor = data?.nextCursor ?? null;
  const count = pagesCount(settled, nextCursor);
  const goToPage = (index: number) => setPaging((state) => openPage(state, index, nextCursor));

  return {
    // A failed call shows the error alone, not the rows of before.
    items: error ? [] : ((data?.items ?? []) as Item<R>[]),
    error,
    isLoading,
    isRefreshing: isValidating && !isLoading,
    refresh: () => mutate(),
    /** The page came back short and more may follow: the screen says so instead of 'nothing here'. */
    mayHaveMore: Boolean(data && nextCursor),
    pageIndex: settled.pageIndex,
    pagesCount: count,
    /** More pages may follow the last one known. */
    openEnd: settled.lastPageIndex === null,
    nextPage: () => goToPage(settled.pageIndex + 1),
    goToPage,
  };
}

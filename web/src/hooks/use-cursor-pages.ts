import { useState } from 'react';
import useSWR, { type SWRConfiguration } from 'swr';
import type { RouteDef, RouteQueryInput, RouteResponse } from '@portal/shared';
import { apiCall, apiCallAhead } from '../api/client';
import type { ApiKey } from '../api/use-api';
import { chosenCompany, useChosenCompany } from '../session/active-company';
import { sessionEpoch, useSessionEpoch } from '../session/session-epoch';
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

type Call = (route: RouteDef, input: unknown) => Promise<unknown>;

/** The SWR key of one screen page: the shape of `useApi`'s (route id, session, company, input). */
function pageKey(
  route: PagedRoute,
  epoch: number,
  company: string | null,
  path: Readonly<Record<string, string>> | undefined,
  filter: object,
  pageSize: number,
  start: string | undefined,
): ApiKey {
  return [
    route.id,
    epoch,
    company,
    JSON.stringify({ ...(path ? { path } : {}), query: { ...filter, limit: pageSize, cursor: start ?? null } }),
  ];
}

/** One screen page from `start`, filled with further calls when the API answers short (`fillPage`). */
function fetchPage<T>(
  call: Call,
  route: PagedRoute,
  path: Readonly<Record<string, string>> | undefined,
  filter: object,
  pageSize: number,
  start: string | undefined,
  maxCalls: number,
): Promise<CursorPage<T>> {
  return fillPage(
    ({ cursor, limit }) =>
      call(route, {
        ...(path ? { path } : {}),
        query: { ...filter, limit, ...(cursor ? { cursor } : {}) },
      }) as Promise<CursorPage<T>>,
    start,
    pageSize,
    maxCalls,
  );
}

/** How long a first page fetched ahead may wait for its screen: past that, the screen asks for a fresh one. */
export const PAGE_AHEAD_TTL_MS = 30_000;

/** The first page of a listing fetched ahead of its screen (at most one), under the SWR key that screen will use. */
let ahead: {
  readonly routeId: string;
  readonly key: string;
  readonly at: number;
  readonly page: Promise<unknown>;
} | null = null;

/**
 * Starts fetching the first page of a listing before its screen renders (the phone: `GET /invoices`
 * beside `GET /users/me` instead of after the guard and the screen have rendered). The page is kept under the
 * exact key `useCursorPages` computes for the same route, filter and page size in the current session and company,
 * and handed to the first fetch of that route: the same key takes it instead of calling again; any other key (the
 * guard's answer gave another level or companies, another session) drops it. It is made with `apiCallAhead`: a
 * refusal is not acted on before the guard has spoken, and a failed page is asked again by the screen.
 */
export function fetchFirstPageAhead<R extends PagedRoute>(
  route: R,
  filter: PageFilter<R>,
  pageSize: number,
  options: Pick<CursorPagesOptions, 'maxCallsPerPage' | 'path'> = {},
): void {
  const key = pageKey(route, sessionEpoch(), chosenCompany(), options.path, filter, pageSize, undefined);
  const page = fetchPage(
    apiCallAhead as Call,
    route,
    options.path,
    filter,
    pageSize,
    undefined,
    options.maxCallsPerPage ?? MAX_CALLS_PER_PAGE,
  );
  page.catch(() => undefined); // the screen asks again, and reports a failure there
  ahead = { routeId: route.id, key: JSON.stringify(key), at: Date.now(), page };
}

/** The page fetched ahead under `key`, if any (taken once); a fetch of its route under another key drops it. */
function takePageAhead(key: ApiKey): Promise<unknown> | null {
  if (!ahead || ahead.routeId !== key[0]) return null;
  const taken = ahead;
  ahead = null;
  return taken.key === JSON.stringify(key) && Date.now() - taken.at <= PAGE_AHEAD_TTL_MS ? taken.page : null;
}

/** Drops a page fetched ahead and not yet taken (at every sign-in and sign-out: it belongs to that session). */
export function forgetPagesAhead(): void {
  ahead = null;
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
  const key: ApiKey | null = filter === null ? null : pageKey(route, epoch, company, path, filter, pageSize, start);
  const { data, error, isLoading, isValidating, mutate } = useSWR<CursorPage<Item<R>>, Error, ApiKey | null>(
    key,
    async (fetchedKey: ApiKey) => {
      const fetch = () => fetchPage<Item<R>>(apiCall as Call, route, path, filter ?? {}, pageSize, start, maxCalls);
      const early = takePageAhead(fetchedKey) as Promise<CursorPage<Item<R>>> | null;
      // A page fetched ahead that failed is asked again, as the screen always did (a refusal is acted on then).
      return early ? early.catch(fetch) : fetch();
    },
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

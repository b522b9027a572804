import { useMemo, useState } from 'react';
import type { RouteQueryInput, RouteResponse, routes } from '@portal/shared';
import type { CallInput } from '../../api/client';
import { useApi } from '../../api/use-api';

/** The listings of the user administration: each answers `{items, nextCursor}` to `limit` and `cursor`. */
type PagedRoute = typeof routes.listExternalUsers | typeof routes.listInternalUsers | typeof routes.listAuditEvents;

/** A listing's filter without its paging fields. */
export type PageFilter<R extends PagedRoute> = Omit<NonNullable<RouteQueryInput<R>>, 'cursor' | 'limit'>;

type Item<R extends PagedRoute> = RouteResponse<R>['items'][number];

interface PagingState {
  /** The filter the cursors belong to: another filter starts again at the first page. */
  readonly scope: string;
  /** cursors[i] opens page i; page 0 has none. */
  readonly cursors: readonly (string | undefined)[];
  readonly pageIndex: number;
  /** The page known to be the last (its answer had no nextCursor), once reached. */
  readonly lastPageIndex: number | null;
}

const firstPage = (scope: string): PagingState => ({ scope, cursors: [undefined], pageIndex: 0, lastPageIndex: null });

/**
 * One page at a time of a listing paged by opaque cursors, with no total: the pagination stays open
 * while the API hands out a `nextCursor`. The user listings read Cognito's pool in slices, so a page
 * may come back empty with more to follow: such a page is skipped by asking for the next one at once.
 */
export function useCursorPages<R extends PagedRoute>(route: R, filter: PageFilter<R> | null, pageSize: number) {
  const scope = JSON.stringify(filter);
  const [paging, setPaging] = useState<PagingState>(() => firstPage(scope));
  // Derived reset (not an effect): a new filter never shows a page of the old one.
  const current = paging.scope === scope ? paging : firstPage(scope);
  if (current !== paging) setPaging(current);

  const cursor = current.cursors[current.pageIndex];
  const input = useMemo(
    () =>
      filter === null
        ? null
        : ({ query: { ...filter, limit: pageSize, ...(cursor ? { cursor } : {}) } } as CallInput<R>),
    [filter, pageSize, cursor],
  );
  const { data, error, isLoading, isValidating, mutate } = useApi(route, input);

  const items = (data?.items ?? []) as Item<R>[];
  const nextCursor = data?.nextCursor ?? null;
  const skipping = Boolean(data && items.length === 0 && nextCursor && nextCursor !== cursor);
  if (current === paging && data) {
    if (skipping && nextCursor) {
      const cursors = current.cursors.map((value, index) => (index === current.pageIndex ? nextCursor : value));
      setPaging({ ...current, cursors });
    } else if (!nextCursor && current.lastPageIndex !== current.pageIndex) {
      // Remember where the end is, so going back keeps the pagination closed.
      setPaging({ ...current, lastPageIndex: current.pageIndex });
    }
  }

  const pagesCount = Math.max(current.cursors.length, nextCursor ? current.pageIndex + 2 : 0);
  const goToPage = (index: number) => {
    setPaging((state) => {
      if (index < 0 || index === state.pageIndex) return state;
      if (index < state.cursors.length) return { ...state, pageIndex: index };
      // Only the page right after the current one can be opened: with the cursor just received.
      if (index === state.pageIndex + 1 && index === state.cursors.length && nextCursor) {
        return { ...state, cursors: [...state.cursors, nextCursor], pageIndex: index };
      }
      return state;
    });
  };

  return {
    items,
    error,
    isLoading: isLoading || skipping,
    isRefreshing: isValidating && !isLoading,
    refresh: () => mutate(),
    pageIndex: current.pageIndex,
    pagesCount,
    /** More pages may follow the last one opened. */
    openEnd: current.lastPageIndex === null,
    goToPage,
  };
}

import { useMemo, useState } from 'react';
import { useSWRConfig } from 'swr';
import { routes, type ConformityDocument, type ConformityKind, type RouteQueryInput } from '@portal/shared';
import { useApi } from '../../api/use-api';
import { useChosenCompany } from '../../session/active-company';

export const CONFORMITY_PAGE_SIZE = 20;

/**
 * How many answers one page of the table may take. A selective filter can answer short or empty
 * pages that still carry a nextCursor (docs/adr/0001-calls-and-headers.md "Pages of a filtered list"); past this many
 * the table shows what it has and lets the user ask for the next page.
 */
const MAX_REQUESTS_PER_PAGE = 10;

export const CONFORMITY_ROUTES = {
  SERVICE_SHEET: routes.listServiceSheets,
  MATERIAL_DOCUMENT: routes.listMaterialDocs,
} as const satisfies Record<ConformityKind, unknown>;

/** The filter of GET /service-sheets and /material-docs without its pagination fields. */
export type ConformityFilter = Omit<RouteQueryInput<typeof routes.listServiceSheets>, 'cursor' | 'limit'>;

/** One answer of the API that makes part of a table page. */
interface Segment {
  readonly cursor: string | undefined;
  readonly limit: number;
  /** null until its answer arrives. */
  readonly items: readonly ConformityDocument[] | null;
  readonly nextCursor: string | null;
}

interface PagingState {
  /** Kind, company and filter the cursors belong to: any change starts again at the first page. */
  readonly scope: string;
  /** pageStarts[i] opens page i; page 0 has none. */
  readonly pageStarts: readonly (string | undefined)[];
  readonly pageIndex: number;
  /** Index of the page known to be the last, once reached. */
  readonly lastPageIndex: number | null;
  /** The answers that fill the current page, in order. */
  readonly segments: readonly Segment[];
}

function pageOpenedAt(cursor: string | undefined): Segment[] {
  return [{ cursor, limit: CONFORMITY_PAGE_SIZE, items: null, nextCursor: null }];
}

function initialPaging(scope: string): PagingState {
  return { scope, pageStarts: [undefined], pageIndex: 0, lastPageIndex: null, segments: pageOpenedAt(undefined) };
}

const collected = (segments: readonly Segment[]) => segments.reduce((sum, s) => sum + (s.items?.length ?? 0), 0);

/** Whether the current page is complete: full, at the end of the listing, or out of requests. */
function pageComplete(segments: readonly Segment[]): boolean {
  const last = segments[segments.length - 1]!;
  if (last.items === null) return false;
  return collected(segments) >= CONFORMITY_PAGE_SIZE || !last.nextCursor || segments.length >= MAX_REQUESTS_PER_PAGE;
}

/**
 * The HES or MIGO documents of a company, a table page at a time. The API hands out opaque cursors
 * and a filtered page may come back short with a nextCursor: the hook keeps asking, with the cursor
 * just received and only for the rows still missing, until the page is full or the listing ends.
 */
export function useConformityDocuments(kind: ConformityKind, filter: ConformityFilter | null) {
  const route = CONFORMITY_ROUTES[kind];
  const company = useChosenCompany();
  const { mutate: mutateAll } = useSWRConfig();
  const scope = JSON.stringify([kind, company, filter]);
  const [paging, setPaging] = useState<PagingState>(() => initialPaging(scope));
  // Derived reset (instead of an effect): a new filter never shows a page of the old one.
  const current = paging.scope === scope ? paging : initialPaging(scope);
  if (current !== paging) setPaging(current);

  const pending = current.segments[current.segments.length - 1]!;
  const request = pending.items === null ? pending : null;
  const input = useMemo(
    () =>
      filter === null || request === null
        ? null
        : {
            query: { ...filter, limit: request.limit, ...(request.cursor ? { cursor: request.cursor } : {}) },
          },
    [filter, request],
  );
  // The table keeps the rows it has gathered; refreshing is explicit (the button), not on focus.
  const { data, error, isLoading } = useApi(route, input, { revalidateOnFocus: false });

  // An answer for the pending request: keep it, then ask for the rest of the page if it is short.
  if (data && request !== null && current === paging) {
    const answered: Segment = { ...request, items: data.items, nextCursor: data.nextCursor };
    let segments = [...current.segments.slice(0, -1), answered];
    if (!pageComplete(segments)) {
      segments = [
        ...segments,
        {
          cursor: data.nextCursor ?? undefined,
          limit: CONFORMITY_PAGE_SIZE - collected(segments),
          items: null,
          nextCursor: null,
        },
      ];
    }
    const complete = pageComplete(segments);
    const ended = complete && !segments[segments.length - 1]!.nextCursor;
    setPaging({
      ...current,
      segments,
      lastPageIndex: ended && current.lastPageIndex === null ? current.pageIndex : current.lastPageIndex,
    });
  }

  const complete = pageComplete(current.segments);
  const nextCursor = complete ? current.segments[current.segments.length - 1]!.nextCursor : null;
  const pagesCount = Math.max(current.pageStarts.length, nextCursor ? current.pageIndex + 2 : current.pageIndex + 1);

  const goToPage = (index: number) => {
    setPaging((state) => {
      if (index < 0 || index === state.pageIndex) return state;
      if (index < state.pageStarts.length) {
        return { ...state, pageIndex: index, segments: pageOpenedAt(state.pageStarts[index]) };
      }
      // Only the page right after the last one known can be opened, with the cursor just received.
      if (index === state.pageIndex + 1 && index === state.pageStarts.length && nextCursor) {
        return {
          ...state,
          pageStarts: [...state.pageStarts, nextCursor],
          pageIndex: index,
          segments: pageOpenedAt(nextCursor),
        };
      }
      return state;
    });
  };

  const [refreshing, setRefreshing] = useState(false);
  const items = useMemo(() => current.segments.flatMap((segment) => segment.items ?? []), [current.segments]);

  return {
    // A failed request shows the error alone, not part of a page.
    items: error ? [] : items,
    error,
    /** Until the page is complete the table shows its loading state, not a page that grows. */
    isLoading: filter !== null && !complete && (isLoading || !error),
    pageIndex: current.pageIndex,
    pagesCount,
    /** Whether more pages may follow the last known one. */
    openEnd: current.lastPageIndex === null,
    goToPage,
    /** Asks the API again for every page of this listing, starting over at the first page. */
    isRefreshing: refreshing,
    refresh: async () => {
      setRefreshing(true);
      try {
        await mutateAll((key) => Array.isArray(key) && key[0] === route.id, undefined, { revalidate: true });
      } finally {
        setRefreshing(false);
        setPaging(initialPaging(scope));
      }
    },
  };
}

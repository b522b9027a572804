import { routes, type ConformityKind } from '@portal/shared';
import { useCursorPages, type PageFilter } from '../../hooks/use-cursor-pages';

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
export type ConformityFilter = PageFilter<typeof routes.listServiceSheets>;

/**
 * The HES or MIGO documents of a company, a table page at a time. The table keeps the rows it has
 * gathered; refreshing is explicit (the button), not on focus.
 */
export function useConformityDocuments(kind: ConformityKind, filter: ConformityFilter | null) {
  return useCursorPages(CONFORMITY_ROUTES[kind], filter, CONFORMITY_PAGE_SIZE, {
    maxCallsPerPage: MAX_REQUESTS_PER_PAGE,
    swr: { revalidateOnFocus: false },
  });
}

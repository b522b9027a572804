/**
 * Paging by opaque cursors, with no total (docs/adr/0001-calls-and-headers.md, "Pages of a filtered list"): the rules
 * behind `useCursorPages`, kept apart from React so they can be tested on their own.
 */

/** One answer of a listing: `{items, nextCursor}`, the cursor null at the end. */
export interface CursorPage<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | null;
}

/** Where the table is: the pages visited and how to open each again. */
export interface PagingState {
  /** What the cursors belong to (listing, company, filter, page size): another scope starts again at the first page. */
  readonly scope: string;
  /** cursors[i] opens page i; page 0 has none. */
  readonly cursors: readonly (string | undefined)[];
  readonly pageIndex: number;
  /** The page known to be the last (its answer had no nextCursor), once reached. */
  readonly lastPageIndex: number | null;
}

export function firstPage(scope: string): PagingState {
  return { scope, cursors: [undefined], pageIndex: 0, lastPageIndex: null };
}

/** The state once the current page has answered: the end is remembered, so going back keeps the pagination closed. */
export function settlePage(
  state: PagingState,
  answer: Pick<CursorPage<unknown>, 'nextCursor'> | undefined,
): PagingState {
  if (!answer || answer.nextCursor || state.lastPageIndex !== null) return state;
  return { ...state, lastPageIndex: state.pageIndex };
}

/** The pages the pagination offers: those visited, and the next one while the current page has a cursor for it. */
export function pagesCount(state: PagingState, nextCursor: string | null): number {
  return Math.max(state.cursors.length, nextCursor ? state.pageIndex + 2 : 0);
}

/**
 * The state after the user asks for page `index`. A visited page opens with its kept cursor; a new page
 * only right after the current one, with the cursor its answer just handed out. Anything else is ignored.
 */
export function openPage(state: PagingState, index: number, nextCursor: string | null): PagingState {
  if (index < 0 || index === state.pageIndex) return state;
  if (index < state.cursors.length) return { ...state, pageIndex: index };
  if (index === state.pageIndex + 1 && index === state.cursors.length && nextCursor) {
    return { ...state, cursors: [...state.cursors, nextCursor], pageIndex: index };
  }
  return state;
}

/**
 * One page of the screen, of `pageSize` rows. A filtered listing may answer a short (even empty) page that
 * still has a nextCursor: the page keeps asking with that cursor, only for the rows still missing, until it
 * is full, the listing ends or `maxCalls` answers are spent; then it stays short with the pagination open.
 */
export async function fillPage<T>(
  fetchSlice: (slice: { cursor: string | undefined; limit: number }) => Promise<CursorPage<T>>,
  start: string | undefined,
  pageSize: number,
  maxCalls: number,
): Promise<CursorPage<T>> {
  const items: T[] = [];
  let cursor = start;
  for (let call = 0; call < maxCalls; call += 1) {
    const slice = await fetchSlice({ cursor, limit: pageSize - items.length });
    items.push(...slice.items);
    if (!slice.nextCursor) return { items, nextCursor: null };
    cursor = slice.nextCursor;
    if (items.length >= pageSize) break;
  }
  return { items, nextCursor: cursor ?? null };
}

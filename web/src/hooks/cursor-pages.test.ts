import { describe, expect, it } from 'vitest';
import { fillPage, firstPage, openPage, pagesCount, settlePage, type CursorPage } from './cursor-pages';

/** A listing of `rows` served in answers of at most `perAnswer` rows, its cursor the next row's index. */
function listing(rows: readonly number[], perAnswer: number) {
  const calls: { cursor: string | undefined; limit: number }[] = [];
  const fetchSlice = async (slice: { cursor: string | undefined; limit: number }): Promise<CursorPage<number>> => {
    calls.push(slice);
    const from = slice.cursor ? Number(slice.cursor) : 0;
    const to = Math.min(rows.length, from + Math.min(slice.limit, perAnswer));
    return { items: rows.slice(from, to), nextCursor: to < rows.length ? String(to) : null };
  };
  return { calls, fetchSlice };
}

/** A filtered listing whose answers are given one by one (short or empty, with a cursor or without). */
function answers(...pages: CursorPage<string>[]) {
  const calls: { cursor: string | undefined; limit: number }[] = [];
  const fetchSlice = async (slice: { cursor: string | undefined; limit: number }) => {
    calls.push(slice);
    const page = pages[calls.length - 1];
    if (!page) throw new Error('no more answers');
    return page;
  };
  return { calls, fetchSlice };
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('filling one page of the table', () => {
  it('takes one call when the API answers a full page', async () => {
    const api = listing(range(50), 100);

    const page = await fillPage(api.fetchSlice, undefined, 20, 4);

    expect(page).toEqual({ items: range(20), nextCursor: '20' });
    expect(api.calls).toEqual([{ cursor: undefined, limit: 20 }]);
  });

  it('asks again with the cursor received, only for the rows still missing', async () => {
    const api = listing(range(50), 8);

    const page = await fillPage(api.fetchSlice, '10', 20, 4);

    expect(page).toEqual({ items: range(30).slice(10), nextCursor: '30' });
    expect(api.calls).toEqual([
      { cursor: '10', limit: 20 },
      { cursor: '18', limit: 12 },
      { cursor: '26', limit: 4 },
    ]);
  });

  it('stops at the end of the listing and says there is nothing after it', async () => {
    const api = listing(range(25), 10);

    const page = await fillPage(api.fetchSlice, '20', 20, 4);

    expect(page).toEqual({ items: [20, 21, 22, 23, 24], nextCursor: null });
    expect(api.calls).toHaveLength(1);
  });

  it('skips empty answers that still carry a cursor', async () => {
    const api = answers(
      { items: [], nextCursor: 'a' },
      { items: [], nextCursor: 'b' },
      { items: ['x', 'y'], nextCursor: null },
    );

    const page = await fillPage(api.fetchSlice, undefined, 20, 4);

    expect(page).toEqual({ items: ['x', 'y'], nextCursor: null });
    expect(api.calls.map((call) => call.cursor)).toEqual([undefined, 'a', 'b']);
  });

  it('stays short with the last cursor once its calls are spent', async () => {
    const api = answers(
      { items: ['x'], nextCursor: 'a' },
      { items: [], nextCursor: 'b' },
      { items: ['y'], nextCursor: 'c' },
    );

    const page = await fillPage(api.fetchSlice, undefined, 20, 3);

    expect(page).toEqual({ items: ['x', 'y'], nextCursor: 'c' });
    expect(api.calls).toHaveLength(3);
  });

  it('passes a failed call on to the table', async () => {
    const api = answers({ items: ['x'], nextCursor: 'a' });

    await expect(fillPage(api.fetchSlice, undefined, 20, 4)).rejects.toThrow('no more answers');
  });
});

describe('moving between pages', () => {
  it('starts on the first page, with only that page offered until its answer arrives', () => {
    const state = firstPage('scope');

    expect(state.pageIndex).toBe(0);
    expect(pagesCount(state, null)).toBe(1);
    expect(settlePage(state, undefined)).toBe(state);
  });

  it('offers the next page while the current one has a cursor, and opens it with that cursor', () => {
    const first = firstPage('scope');
    expect(pagesCount(first, 'c1')).toBe(2);

    const second = openPage(first, 1, 'c1');

    expect(second.pageIndex).toBe(1);
    expect(second.cursors).toEqual([undefined, 'c1']);
    expect(pagesCount(second, 'c2')).toBe(3);
  });

  it('goes back with the cursor kept, and forward again without asking for a new one', () => {
    const third = openPage(openPage(firstPage('scope'), 1, 'c1'), 2, 'c2');

    const back = openPage(third, 0, 'ignored');
    const forward = openPage(back, 2, null);

    expect(back.pageIndex).toBe(0);
    expect(back.cursors).toEqual([undefined, 'c1', 'c2']);
    // Visited pages stay offered even though the first page's own cursor is not at hand.
    expect(pagesCount(back, 'c1')).toBe(3);
    expect(forward.pageIndex).toBe(2);
    expect(forward.cursors).toEqual([undefined, 'c1', 'c2']);
  });

  it('ignores a page it cannot open: before the first, a jump past the next, or a next page with no cursor', () => {
    const first = firstPage('scope');

    expect(openPage(first, -1, 'c1')).toBe(first);
    expect(openPage(first, 2, 'c1')).toBe(first);
    expect(openPage(first, 1, null)).toBe(first);
    expect(openPage(first, 0, 'c1')).toBe(first);
  });

  it('remembers where the listing ends, so going back keeps the pagination closed', () => {
    const second = openPage(firstPage('scope'), 1, 'c1');

    const ended = settlePage(second, { nextCursor: null });
    const back = openPage(ended, 0, null);

    expect(ended.lastPageIndex).toBe(1);
    expect(settlePage(ended, { nextCursor: null })).toBe(ended);
    expect(back.lastPageIndex).toBe(1);
    expect(pagesCount(back, 'c1')).toBe(2);
  });

  it('keeps the pagination open while answers carry a cursor', () => {
    const first = firstPage('scope');

    expect(settlePage(first, { nextCursor: 'c1' })).toBe(first);
    expect(first.lastPageIndex).toBeNull();
  });
});

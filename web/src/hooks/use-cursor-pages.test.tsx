import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { http, HttpResponse } from 'msw';
import { SWRConfig } from 'swr';
import { describe, expect, it } from 'vitest';
import { parseTaxIds, routes } from '@portal/shared';
import { AppProviders } from '../app';
import { TEST_CONFIG, TEST_TODAY, mockServer } from '../mock/component-setup';
import { createMockWorld } from '../mock/data';
import { mockPersona } from '../mock/personas';
import { startMockSession } from '../session/mock-session';
import { MAX_CALLS_PER_PAGE, useCursorPages } from './use-cursor-pages';

/*
 * The paging hook as a table drives it, against the mock provider's listing (component-setup.ts): pages forward and
 * back by the cursors it kept, a short answer filled with further calls, and a failed call shown as an error.
 */

const world = createMockWorld(TEST_TODAY);
const manager = mockPersona('gestor')!;
const [company] = parseTaxIds(manager.user.taxId);
const companyInvoices = world.invoices.filter((invoice) => invoice.client === company).map((invoice) => invoice.id);

function wrapper({ children }: { children: ReactNode }) {
  return (
    <AppProviders>
      <SWRConfig value={{ provider: () => new Map(), shouldRetryOnError: false }}>{children}</SWRConfig>
    </AppProviders>
  );
}

function renderPages(pageSize: number) {
  startMockSession({ personaId: manager.id, taxId: manager.user.taxId });
  return renderHook(() => useCursorPages(routes.listInvoices, {}, pageSize), { wrapper });
}

const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);

describe('useCursorPages', () => {
  it('goes forward a page and back by the cursors it kept, the pagination open while more may follow', async () => {
    expect(companyInvoices.length).toBeGreaterThan(10);
    const { result } = renderPages(5);

    await waitFor(() => expect(ids(result.current.items)).toEqual(companyInvoices.slice(0, 5)));
    expect(result.current.pageIndex).toBe(0);
    expect(result.current.openEnd).toBe(true);

    act(() => result.current.nextPage());
    await waitFor(() => expect(ids(result.current.items)).toEqual(companyInvoices.slice(5, 10)));
    expect(result.current.pageIndex).toBe(1);
    expect(result.current.pagesCount).toBeGreaterThanOrEqual(2);

    act(() => result.current.goToPage(0));
    await waitFor(() => expect(ids(result.current.items)).toEqual(companyInvoices.slice(0, 5)));
  });

  it('fills a page the API answered short, with at most its calls per page', async () => {
    // A selective filter's answer: one row and a cursor each time, as the API may (docs/adr/0001-calls-and-headers.md).
    let calls = 0;
    mockServer.use(
      http.get(`${TEST_CONFIG.apiUrl}/invoices`, ({ request }) => {
        calls += 1;
        const cursor = Number(new URL(request.url).searchParams.get('cursor') ?? '0');
        return HttpResponse.json({ items: [world.invoices[cursor]], nextCursor: String(cursor + 1) });
      }),
    );
    const { result } = renderPages(10);

    await waitFor(() => expect(result.current.items).toHaveLength(MAX_CALLS_PER_PAGE));
    expect(calls).toBe(MAX_CALLS_PER_PAGE);
    expect(ids(result.current.items)).toEqual(ids(world.invoices.slice(0, MAX_CALLS_PER_PAGE)));
    // Short, but more may follow: the screen says so rather than "no more invoices".
    expect(result.current.mayHaveMore).toBe(true);
  });

  it('shows a failed call as its error, without the rows of before', async () => {
    mockServer.use(
      http.get(`${TEST_CONFIG.apiUrl}/invoices`, () =>
        HttpResponse.json({ statusCode: 500, message: 'Error', txId: 'tx-paginas', errors: [] }, { status: 500 }),
      ),
    );
    const { result } = renderPages(5);

    await waitFor(() => expect(result.current.error).toBeDefined());
    expect(result.current.items).toEqual([]);
  });
});

import { act, renderHook, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { parseTaxIds, type Level } from '@portal/shared';
import { AppProviders } from '../../app';
import { forgetPagesAhead } from '../../hooks/use-cursor-pages';
import { TEST_CONFIG, TEST_TODAY, mockServer } from '../../mock/component-setup';
import { createMockWorld } from '../../mock/data';
import { mockPersona } from '../../mock/personas';
import { renderApp } from '../../mock/render-app';
import { startMockSession } from '../../session/mock-session';
import { useStartSession } from '../../session/use-current-user';
import { fetchInvoicesAhead } from './invoices-ahead';
import { INVOICES_PAGE_SIZE_KEY } from './page-size';

/*
 * The invoices screen's first page fetched ahead of the guard (main.tsx, the phone): the screen takes that
 * answer instead of asking again when its key is the same, asks for its own when the guard's answer or the session
 * differs, and a refused or failed page changes nothing of where the guard sends the user or what the screen shows.
 */

const world = createMockWorld(TEST_TODAY);
const LIST_URL = `${TEST_CONFIG.apiUrl}/invoices`;

/** Counts the GET /invoices calls (the listing itself, not its count) and lets the mock answer them. */
function countListCalls(): { readonly calls: URL[] } {
  const seen = { calls: [] as URL[] };
  mockServer.use(
    http.get(LIST_URL, ({ request }) => {
      seen.calls.push(new URL(request.url));
      return undefined; // on to the mock provider's own answer
    }),
  );
  return seen;
}

function signInAs(personaId: string) {
  const persona = mockPersona(personaId)!;
  startMockSession({ personaId: persona.id, taxId: persona.user.taxId });
  return persona;
}

/** The claims the persona's ID token would carry (the mock provider has no token: the test gives them). */
function claimsOf(personaId: string, level?: Level) {
  const { user } = mockPersona(personaId)!;
  return { level: level ?? user.level, taxIds: parseTaxIds(user.taxId) };
}

const shownNumbers = async () => (await screen.findAllByTestId('invoice-number')).map((cell) => cell.dataset);

afterEach(() => {
  forgetPagesAhead();
  localStorage.clear();
});

describe('the invoices page fetched ahead of the guard', () => {
  it("is the supplier's first page, taken by the screen without a second call", async () => {
    const supplier = signInAs('proveedor').user.taxId!;
    const list = countListCalls();

    fetchInvoicesAhead({ pathname: '/invoices', search: '' }, claimsOf('proveedor'));
    renderApp('/invoices');

    const rows = await shownNumbers();
    expect(rows.length).toBe(world.invoices.filter((invoice) => invoice.supplierId === supplier).length);
    expect(rows.every((row) => row.supplierId === supplier)).toBe(true);
    expect(list.calls).toHaveLength(1);
  });

  it("is the manager's filtered page of its active company, at the page size the browser remembers", async () => {
    const [company] = parseTaxIds(signInAs('gestor').user.taxId);
    localStorage.setItem(INVOICES_PAGE_SIZE_KEY, '50');
    const list = countListCalls();
    const search = '?invoiceStatus=ACCEPTED';

    fetchInvoicesAhead({ pathname: '/invoices', search }, claimsOf('gestor'));
    renderApp(`/invoices${search}`);

    const rows = await shownNumbers();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.clientId === company)).toBe(true);
    expect(list.calls).toHaveLength(1);
    expect(list.calls[0]!.searchParams.get('limit')).toBe('50');
    expect(list.calls[0]!.searchParams.get('invoiceStatus')).toBe('ACCEPTED');
  });

  it('is not used when the guard answers another level: the screen asks for its own page', async () => {
    const [company] = parseTaxIds(signInAs('gestor').user.taxId);
    const list = countListCalls();

    // A token that still said supplier: its page is not the manager's.
    fetchInvoicesAhead({ pathname: '/invoices', search: '' }, claimsOf('gestor', 'SUPPLIER'));
    renderApp('/invoices');

    const rows = await shownNumbers();
    expect(rows.every((row) => row.clientId === company)).toBe(true);
    expect(list.calls).toHaveLength(2);
    expect(list.calls[1]!.searchParams.get('client')).toBe(company);
  });

  it("never shows one user's page to the next one signed in", async () => {
    signInAs('proveedor');
    fetchInvoicesAhead({ pathname: '/invoices', search: '' }, claimsOf('proveedor'));
    // The supplier leaves and a manager signs in in the same tab before the screen asked for the page.
    const { result } = renderHook(() => useStartSession(), { wrapper: AppProviders });
    await act(() => result.current());
    const [company] = parseTaxIds(signInAs('gestor').user.taxId);
    const list = countListCalls();

    renderApp('/invoices');

    // The manager's own page, asked for by the screen: the supplier's (every client's) was dropped.
    const numbers = (await screen.findAllByTestId('invoice-number')).map((cell) => cell.textContent);
    const companyInvoices = world.invoices.filter((invoice) => invoice.client === company);
    expect(numbers).toEqual(companyInvoices.slice(0, 20).map((invoice) => invoice.id));
    expect(list.calls).toHaveLength(1);
    expect(list.calls[0]!.searchParams.get('client')).toBe(company);
  });

  it('refused (403) changes nothing of the guard: a supplier without a company still goes to its own page', async () => {
    signInAs('proveedor-sin-ruc');
    let refused = false;
    mockServer.use(
      http.get(LIST_URL, async () => {
        // The list answers after the guard has sent the user on (as a slower call would).
        await waitFor(() => expect(window.location.pathname).toBe('/supplier/forbidden'));
        refused = true;
        return HttpResponse.json(
          {
            statusCode: 403,
            message: 'Sesión inválida.',
            txId: 'tx-ahead',
            errors: [{ code: 'ERROR_COMPANY_NOT_ALLOWED' }],
          },
          { status: 403 },
        );
      }),
    );

    // Its token still names a company the user no longer has.
    fetchInvoicesAhead({ pathname: '/invoices', search: '' }, { level: 'SUPPLIER', taxIds: ['20100070970'] });
    renderApp('/invoices');

    await waitFor(() => expect(refused).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The refused page sent nobody to the guest's /forbidden (a call of the screen's own would have).
    expect(window.location.pathname).toBe('/supplier/forbidden');
  });

  it('failed, is asked again by the screen, which shows the rows', async () => {
    const supplier = signInAs('proveedor').user.taxId!;
    let calls = 0;
    mockServer.use(
      http.get(LIST_URL, () => {
        calls += 1;
        if (calls > 1) return undefined;
        return HttpResponse.json({ statusCode: 500, message: 'Error', txId: 'tx-ahead', errors: [] }, { status: 500 });
      }),
    );

    fetchInvoicesAhead({ pathname: '/invoices', search: '' }, claimsOf('proveedor'));
    renderApp('/invoices');

    const rows = await shownNumbers();
    expect(rows.every((row) => row.supplierId === supplier)).toBe(true);
    expect(calls).toBe(2);
  });

  it('starts nothing away from the invoices screen, nor for a level the screen refuses', () => {
    signInAs('proveedor');
    const list = countListCalls();

    fetchInvoicesAhead({ pathname: '/notifications', search: '' }, claimsOf('proveedor'));
    fetchInvoicesAhead({ pathname: '/invoices', search: '' }, { level: 'UNKNOWN', taxIds: [] });
    // An administrator's first page is the group's first company's, which the screen asks GET /clients for.
    fetchInvoicesAhead({ pathname: '/invoices', search: '' }, claimsOf('administrador'));

    expect(list.calls).toHaveLength(0);
  });
});

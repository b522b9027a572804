import { fireEvent, screen, waitFor } from '@testing-library/react';
import createWrapper, { type AutosuggestWrapper } from '@cloudscape-design/components/test-utils/dom';
import { delay, http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { INVOICE_STATUS_LABELS, formatMoney, parseTaxIds, type Invoice } from '@portal/shared';
import { TEST_CONFIG, TEST_TODAY, mockServer } from '../../mock/component-setup';
import { MOCK_SUPPLIERS, createMockWorld } from '../../mock/data';
import { mockPersona } from '../../mock/personas';
import { renderApp } from '../../mock/render-app';
import { INVOICE_SEARCH_LIMIT } from './use-invoice-search';
import { headerMessages } from './messages';

// The header search's dropdown on the mock provider (docs/web-mock.md): the invoices found show under the box.

const text = headerMessages.search;
const world = createMockWorld(TEST_TODAY);
const INVOICES_URL = `${TEST_CONFIG.apiUrl}/invoices`;

/** What the mock's GET /invoices?search= finds among invoices, newest first (web/src/mock/routes.ts). */
const matching = (invoices: readonly Invoice[], typed: string) =>
  invoices.filter((invoice) =>
    `${invoice.id} ${invoice.supplierId} ${invoice.supplierName}`.toLowerCase().includes(typed.toLowerCase()),
  );

const supplierTaxId = mockPersona('proveedor')!.user.taxId!;
const managerCompany = parseTaxIds(mockPersona('gestor')!.user.taxId)[0]!;
const suppliersInvoices = world.invoices.filter((invoice) => invoice.supplierId === supplierTaxId);
const managersInvoices = world.invoices.filter((invoice) => invoice.client === managerCompany);

/** The header's search box, once the signed-in screen shows it (behind its button where the bar is narrow). */
async function headerSearch(): Promise<AutosuggestWrapper> {
  await screen.findAllByTestId('invoice-number');
  const find = () => createWrapper(document.body).find('[role="search"]')?.findAutosuggest() ?? null;
  if (!find()) fireEvent.click(await screen.findByLabelText(text.open));
  return waitFor(() => {
    const search = find();
    if (!search) throw new Error('No header search');
    return search;
  });
}

function type(search: AutosuggestWrapper, value: string) {
  search.focus();
  search.setInputValue(value);
}

/** The dropdown's rows as a person reads them, top to bottom: group labels and options. */
function shownOptions(search: AutosuggestWrapper): string[] {
  const list = search.findDropdown().findOpenDropdown()?.getElement();
  if (!list) return [];
  return [...list.querySelectorAll('[role="listbox"] > [data-mouse-target]')].map(
    (element) => element.textContent?.replace(/\s+/g, ' ').trim() ?? '',
  );
}

/** The option of an invoice found by `searched` (its value is the invoice's address with the search's list). */
const invoiceOption = (search: AutosuggestWrapper, invoice: Invoice, searched: string) =>
  search
    .findDropdown()
    .findOptionByValue(
      `comprobante:/invoices/${invoice.supplierId}/${invoice.type}/${invoice.id}?search=${encodeURIComponent(searched)}`,
    );

const footer = (search: AutosuggestWrapper) =>
  search.findDropdown().findFooterRegion()?.getElement().textContent?.replace(/\s+/g, ' ').trim() ?? '';

beforeEach(() => {
  // jsdom scrolls nothing: the test reads where the search asked to scroll to.
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

describe('the header search shows the invoices it finds right under the box', () => {
  it("shows a supplier its invoice by number, with the client, amount and status, and opens it beside the search's list", async () => {
    const invoice = suppliersInvoices[3]!;
    renderApp('/invoices', 'proveedor');
    const search = await headerSearch();

    type(search, invoice.id);

    const option = await waitFor(() => {
      const found = invoiceOption(search, invoice, invoice.id);
      if (!found) throw new Error(`${invoice.id} is not in the dropdown`);
      return found;
    });
    const shown = option.getElement().textContent ?? '';
    expect(shown).toContain(invoice.id);
    expect(shown).toContain(invoice.clientName);
    expect(shown).toContain(formatMoney(invoice.amount, invoice.currency));
    expect(shown).toContain(INVOICE_STATUS_LABELS[invoice.status]);
    expect(shownOptions(search)).toEqual([
      text.invoicesGroup,
      expect.stringContaining(invoice.id),
      text.allResults(invoice.id),
    ]);
    expect(footer(search)).toBe(`${text.invoicesFound(1)}.`);

    option.fireEvent(new MouseEvent('mouseup', { bubbles: true }));

    await waitFor(() =>
      expect(`${window.location.pathname}${window.location.search}`).toBe(
        `/invoices/${invoice.supplierId}/${invoice.type}/${invoice.id}?search=${invoice.id}`,
      ),
    );
    await waitFor(() =>
      expect(
        document.querySelector(`[data-testid="invoice-detail-panel"][data-invoice-id="${invoice.id}"]`),
      ).not.toBeNull(),
    );
    expect(search.getInputValue()).toBe('');
    expect(window.scrollTo).toHaveBeenCalledWith({ top: 0 });
  });

  it("groups a manager's newest five invoices above the suppliers, and ends with «Ver todos los resultados»", async () => {
    // Part of three suppliers' business names, whose invoices are more than the dropdown shows.
    const typed = 'S.A.C.';
    expect(matching(managersInvoices, typed).length).toBeGreaterThan(INVOICE_SEARCH_LIMIT);
    const expected = matching(managersInvoices, typed).slice(0, INVOICE_SEARCH_LIMIT);
    const suppliers = MOCK_SUPPLIERS.filter((each) => each.name.toLowerCase().includes(typed.toLowerCase()));
    renderApp('/invoices', 'gestor');
    const search = await headerSearch();

    type(search, typed);

    await waitFor(() =>
      expect(footer(search)).toBe(
        `${text.newestInvoices(INVOICE_SEARCH_LIMIT)}. ${text.suppliersFound(suppliers.length)}.`,
      ),
    );
    expect(shownOptions(search)).toEqual([
      text.invoicesGroup,
      ...expected.map((invoice) => expect.stringContaining(invoice.id)),
      text.suppliersGroup,
      ...suppliers.map((each) => expect.stringContaining(each.name)),
      text.allResults(typed),
    ]);
    // Staff read the supplier of each invoice.
    expect(shownOptions(search)[1]).toContain(expected[0]!.supplierName);
    expect(footer(search)).toBe(
      `${text.newestInvoices(INVOICE_SEARCH_LIMIT)}. ${text.suppliersFound(suppliers.length)}.`,
    );

    // «Ver todos los resultados»: the list filtered by the text, as Enter does.
    search.selectSuggestionByValue('todos:');

    await waitFor(() => expect(window.location.pathname).toBe('/invoices'));
    expect(new URLSearchParams(window.location.search).get('search')).toBe(typed);
    expect(window.scrollTo).toHaveBeenCalledWith({ top: 0 });
  });

  it('says in Spanish while it searches, when nothing matches, and when the search failed, with a retry', async () => {
    let fail = true;
    mockServer.use(
      http.get(INVOICES_URL, async ({ request }) => {
        // Anything else falls through to the mock provider's own handler.
        if (!new URL(request.url).searchParams.has('search')) return undefined;
        await delay(100);
        if (!fail) return undefined;
        return HttpResponse.json(
          { statusCode: 500, message: 'Ocurrió un error inesperado.', txId: 'tx-busqueda-500', errors: [] },
          { status: 500 },
        );
      }),
    );
    renderApp('/invoices', 'proveedor');
    const search = await headerSearch();

    type(search, 'ZZ99');

    await waitFor(() => expect(search.findStatusIndicator()?.getElement().textContent).toContain(text.loadingSupplier));
    await waitFor(() => expect(search.findStatusIndicator()?.getElement().textContent).toContain(text.invoicesError));
    expect(search.findStatusIndicator()?.getElement().textContent).toContain('tx-busqueda-500');

    fail = false;
    search.findErrorRecoveryButton()!.click();

    await waitFor(() => expect(footer(search)).toBe(text.noInvoices));
    expect(shownOptions(search)).toEqual([text.allResults('ZZ99')]);
  });

  it('never shows the answer of an earlier text: its call is cancelled', async () => {
    const [first, second] = suppliersInvoices;
    const asked: string[] = [];
    const cancelled: string[] = [];
    let firstAnswered: () => void = () => undefined;
    const firstDone = new Promise<void>((resolve) => (firstAnswered = resolve));
    mockServer.use(
      http.get(INVOICES_URL, async ({ request }) => {
        const searched = new URL(request.url).searchParams.get('search');
        if (searched) asked.push(searched);
        if (searched === first!.id) {
          request.signal.addEventListener('abort', () => cancelled.push(searched));
          await delay(1_000);
          firstAnswered();
        }
        return undefined;
      }),
    );
    renderApp('/invoices', 'proveedor');
    const search = await headerSearch();

    type(search, first!.id);
    // The first search is on its way when the text changes.
    await waitFor(() => expect(asked).toEqual([first!.id]));
    type(search, second!.id);

    await waitFor(() => expect(invoiceOption(search, second!, second!.id)).not.toBeNull());
    expect(cancelled).toEqual([first!.id]);
    // Even once the first call would have answered.
    await firstDone;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(invoiceOption(search, first!, first!.id)).toBeNull();
    expect(invoiceOption(search, second!, second!.id)).not.toBeNull();
  });
});

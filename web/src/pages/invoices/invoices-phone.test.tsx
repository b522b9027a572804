import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { INVOICE_STATUS_LABELS, formatMoney, parseTaxIds } from '@portal/shared';
import { NARROW_SCREEN_QUERY } from '../../hooks/use-narrow-screen';
import { TEST_CONFIG, TEST_TODAY, mockServer, staticMediaQuery } from '../../mock/component-setup';
import { createMockWorld } from '../../mock/data';
import { mockPersona } from '../../mock/personas';
import { renderApp } from '../../mock/render-app';

// The invoices list on a phone (Cloudscape's mobile breakpoint, 688 px, as useNarrowScreen): a card an invoice
// instead of the table. jsdom lays nothing out; the phone is its media query. Queried by test id and text, as the
// table's tests do (accessible names over Cloudscape's collections are slow in jsdom).

const world = createMockWorld(TEST_TODAY);
/** jsdom as a phone: the media queries up to 688 px match. */
function asPhone(phone: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) =>
    staticMediaQuery(query, phone && query === NARROW_SCREEN_QUERY),
  );
}

/** The cards of the list: the items of the list that holds the invoice numbers. */
function cards(): HTMLElement[] {
  const list = document.querySelector('[data-testid="invoice-number"]')?.closest('ol');
  return list ? [...list.querySelectorAll<HTMLElement>(':scope > li')] : [];
}

/** Each invoice number shown, with the address its link opens. */
function numberLinks(): Record<string, string | null> {
  return Object.fromEntries(
    [...document.querySelectorAll('[data-testid="invoice-number"]')].map((number) => [
      number.textContent,
      number.closest('a')?.getAttribute('href') ?? null,
    ]),
  );
}

const pageTitle = () => document.querySelector('h1')?.textContent;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the invoices list on a phone', () => {
  beforeEach(() => asPhone(true));

  it("shows a manager's invoices as cards, not a table: number, supplier, amount, status and payment date", async () => {
    // Prepare
    const [company] = parseTaxIds(mockPersona('gestor')!.user.taxId);
    const expected = world.invoices.filter((invoice) => invoice.client === company);

    // Act
    renderApp('/invoices', 'gestor');

    // Assess
    await screen.findAllByTestId('invoice-number');
    expect(document.querySelector('table')).toBeNull();
    expect(cards()).toHaveLength(expected.length);
    const first = expected[0]!;
    const card = cards()[0]!;
    expect(card.querySelector('[data-testid="invoice-number"]')?.textContent).toBe(first.id);
    expect(card.querySelector('[data-testid="invoice-supplier"]')?.textContent).toContain(first.supplierName);
    expect(card.querySelector('[data-testid="invoice-client"]')).toBeNull();
    expect(card.querySelector('[data-testid="invoice-amount"]')?.textContent).toBe(
      formatMoney(first.amount, first.currency),
    );
    expect(card.querySelector(`[data-testid="invoice-status"][data-status="${first.status}"]`)?.textContent).toContain(
      INVOICE_STATUS_LABELS[first.status],
    );
    expect(card.querySelector('[data-testid="invoice-payment-date"]')).not.toBeNull();
    // The counter with the title, as with the table (on a line of its own).
    await waitFor(() => expect(pageTitle()).toBe(`Comprobantes recibidos (${expected.length})`));
  });

  it('shows a supplier the client of each card, and its invoice number opens the detail', async () => {
    // Prepare
    const supplier = mockPersona('proveedor')!.user.taxId;
    const own = world.invoices.filter((invoice) => invoice.supplierId === supplier);

    // Act
    renderApp('/invoices', 'proveedor');
    await screen.findAllByTestId('invoice-number');

    // Assess
    expect(cards()).toHaveLength(own.length);
    const card = cards()[1]!;
    expect(card.querySelector('[data-testid="invoice-client"]')?.textContent).toBe(own[1]!.clientName);
    expect(card.querySelector('[data-testid="invoice-supplier"]')).toBeNull();
    await waitFor(() => expect(pageTitle()).toBe(`Mis comprobantes (${own.length})`));

    // Act: the number of the second card
    fireEvent.click(card.querySelector('[data-testid="invoice-number"]')!);

    // Assess: its detail, at its own address
    await waitFor(() => expect(window.location.pathname).toMatch(new RegExp(`/${own[1]!.id}$`)));
    expect((await screen.findAllByLabelText(`Detalle del comprobante ${own[1]!.id}`)).length).toBeGreaterThan(0);
  });

  it("links each card's number where the table's number links", async () => {
    asPhone(false);
    renderApp('/invoices?invoiceStatus=PENDING', 'gestor');
    await screen.findAllByTestId('invoice-number');
    expect(document.querySelector('table')).not.toBeNull();
    const fromTable = numberLinks();
    cleanup();

    asPhone(true);
    renderApp('/invoices?invoiceStatus=PENDING', 'gestor');
    await screen.findAllByTestId('invoice-number');

    expect(document.querySelector('table')).toBeNull();
    expect(numberLinks()).toEqual(fromTable);
    expect(Object.keys(fromTable).length).toBeGreaterThan(0);
  });

  it('says in the cards that the list failed, with the transaction id', async () => {
    mockServer.use(
      http.get(`${TEST_CONFIG.apiUrl}/invoices`, () =>
        HttpResponse.json({ statusCode: 500, message: 'Error', txId: 'tx-prueba-movil', errors: [] }, { status: 500 }),
      ),
    );

    renderApp('/invoices', 'gestor');

    const error = await screen.findByTestId('invoices-error');
    expect(error.textContent).toContain('tx-prueba-movil');
    expect(document.querySelector('table')).toBeNull();
  });

  it('says when no invoice matches, with the button that clears the filters', async () => {
    renderApp('/invoices?search=NO-EXISTE-999', 'proveedor');

    expect((await screen.findByTestId('invoices-empty')).textContent).toBe('No hay comprobantes para mostrar.');
    expect(screen.getByText('Ningún comprobante coincide con los filtros.')).toBeDefined();
    expect(document.querySelector('table')).toBeNull();
  });

  it("keeps a supplier's other upload actions in a menu beside «Cargar ZIP»", async () => {
    renderApp('/invoices', 'proveedor');
    await screen.findAllByTestId('invoice-number');

    // One row of upload actions: the zip history and the e-mail addresses wait in the menu.
    expect(screen.queryByText('Cargas de ZIP')).toBeNull();
    expect(screen.queryByText('Enviar comprobantes por correo')).toBeNull();
    fireEvent.click(screen.getByLabelText('Más opciones de carga'));
    fireEvent.click(await screen.findByText('Enviar comprobantes por correo'));

    expect((await screen.findAllByText(/^facturas\+\d{11}@recepcion\.grupo\.example$/)).length).toBeGreaterThan(0);
  });
});

import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { parseTaxIds } from '@portal/shared';
import { TEST_CONFIG, TEST_TODAY, mockServer } from '../../mock/component-setup';
import { MOCK_CLIENTS, createMockWorld } from '../../mock/data';
import { mockPersona } from '../../mock/personas';
import { renderApp } from '../../mock/render-app';

// Queries by test id, text and href rather than by role: computing accessible names over Cloudscape's tables is
// slow enough in jsdom to dominate these tests.

const world = createMockWorld(TEST_TODAY);
const pageTitle = () => document.querySelector('h1')?.textContent;
const menuLink = (href: string) => document.querySelector(`nav a[href="${href}"]`);
/** The element showing `text` that assistive technology sees (Cloudscape keeps hidden copies to measure). */
const shown = (text: string) => {
  const element = screen.getAllByText(text).find((each) => !each.closest('[aria-hidden="true"]'));
  if (!element) throw new Error(`Nothing shows «${text}»`);
  return element;
};

describe('Mis comprobantes on the mock provider', () => {
  it("lists the active company's invoices, newest first, with their total beside the title", async () => {
    const [company] = parseTaxIds(mockPersona('gestor')!.user.taxId);
    const expected = world.invoices.filter((invoice) => invoice.client === company);

    renderApp('/invoices', 'gestor');

    const numbers = await screen.findAllByTestId('invoice-number');
    expect(numbers[0]?.textContent).toBe(expected[0]!.id);
    expect(numbers.every((number) => number.dataset.clientId === company)).toBe(true);
    await waitFor(() => expect(pageTitle()).toBe(`Comprobantes recibidos (${expected.length})`));
  });

  it('titles the home screen by whom it speaks to: staff receive invoices, a supplier has its own', async () => {
    for (const [persona, title] of [
      ['gestor', 'Comprobantes recibidos'],
      ['administrador', 'Comprobantes recibidos'],
      ['proveedor', 'Mis comprobantes'],
    ] as const) {
      renderApp('/', persona);

      await screen.findAllByTestId('invoice-number');
      expect(pageTitle()).toMatch(new RegExp(`^${title}( \\(|$)`));
      // The menu names the screen as its title does.
      expect(menuLink('/invoices')?.textContent).toBe(title);
      // What index.html's frame paints before the app next time (web/frame/frame.js): the audience, nothing else.
      expect(localStorage.getItem('portal.audience')).toBe(persona === 'proveedor' ? 'supplier' : 'staff');
      cleanup();
    }
  });

  it('shows a supplier only what it issued, and no staff screens in the menu', async () => {
    const supplier = mockPersona('proveedor')!.user.taxId;

    renderApp('/invoices', 'proveedor');

    const numbers = await screen.findAllByTestId('invoice-number');
    expect(numbers.length).toBe(world.invoices.filter((invoice) => invoice.supplierId === supplier).length);
    expect(numbers.every((number) => number.dataset.supplierId === supplier)).toBe(true);
    expect(menuLink('/invoices')).not.toBeNull();
    expect(menuLink('/dashboard')).toBeNull();
    expect(menuLink('/clients')).toBeNull();
  });

  it('says in Spanish that the list failed, with the transaction id to report', async () => {
    mockServer.use(
      http.get(`${TEST_CONFIG.apiUrl}/invoices`, () =>
        HttpResponse.json(
          {
            statusCode: 500,
            message: 'Ocurrió un error inesperado. Inténtelo más tarde.',
            txId: 'tx-prueba-500',
            errors: [],
          },
          { status: 500 },
        ),
      ),
    );

    renderApp('/invoices', 'gestor');

    const error = await screen.findByTestId('invoices-error');
    expect(error.textContent).toContain('Ocurrió un error no esperado.');
    expect(error.textContent).toContain('tx-prueba-500');
  });

  it('signs out and back in with another role, whose screens the menu then offers', async () => {
    renderApp('/login');

    fireEvent.click(await screen.findByTestId('mock-sign-in-proveedor'));
    await screen.findAllByTestId('invoice-number');
    expect(menuLink('/clients')).toBeNull();
    // jsdom lays nothing out: the top navigation shows its utilities in the overflow menu.
    fireEvent.click(shown('Opciones'));
    fireEvent.click(shown('Rosa Paredes'));
    fireEvent.click(shown('Cerrar sesión'));
    await screen.findByTestId('mock-sign-in-administrador');
    // Signed out: the frame starts from the supplier's title again.
    expect(localStorage.getItem('portal.audience')).toBeNull();
    fireEvent.click(screen.getByTestId('mock-sign-in-administrador'));

    await waitFor(() => expect(menuLink('/clients')).not.toBeNull());
    expect(menuLink('/suppliers')).not.toBeNull();
    expect(menuLink('/dashboard')).toBeNull();
  });

  it("shows a supplier each company's intake address for invoices by e-mail, beside 'Cargar XML'", async () => {
    renderApp('/invoices', 'proveedor');
    // A button among the list's actions (Cloudscape keeps a hidden copy of the actions to measure them).
    const button = await waitFor(() => shown('Enviar comprobantes por correo'));
    fireEvent.click(button);
    for (const client of MOCK_CLIENTS) {
      expect(await screen.findByText(`facturas+${client.taxId}@recepcion.grupo.example`)).toBeDefined();
      expect(shown(`${client.name} (${client.taxId})`)).toBeDefined();
    }
  });

  it('does not offer the intake addresses to a manager', async () => {
    renderApp('/invoices', 'gestor');
    await screen.findAllByTestId('invoice-number');
    expect(screen.queryByText('Enviar comprobantes por correo')).toBeNull();
  });
});

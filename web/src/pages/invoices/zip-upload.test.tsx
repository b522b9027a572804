import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../mock/render-app';

/** The supplier's processed zip of the mock world (data.ts, buildIntakeBatches). */
const SEEDED = '4f7c2d1e-8a3b-4c5d-9e6f-1a2b3c4d5e6f';
/** The supplier's zip the mock world shows resumed after an interruption, still processing. */
const RESUMED = '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d';
/** The supplier's zip refused while its documents were read, two of them processed before. */
const STOPPED = '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9';

const dialog = () => screen.findByRole('dialog');

describe('«Cargar ZIP» on Mis comprobantes', () => {
  it("opens a zip's results from its e-mail's link: a link per invoice, 'ya existe', and the reason in Spanish", async () => {
    renderApp(`/invoices?zip=${SEEDED}`, 'proveedor');
    const modal = within(await dialog());
    await modal.findByText('comprobantes-octubre.zip', {}, { timeout: 10_000 });
    expect(modal.getAllByText('Ver comprobante').length).toBeGreaterThan(0);
    expect(
      modal
        .getByText(/ya existe$/)
        .closest('a')
        ?.getAttribute('href'),
    ).toMatch(/^\/invoices\//);
    expect(modal.getByText(/^Falta el XML de «.*»: el ZIP trae .*\.pdf sin su XML\.$/)).toBeTruthy();
  });

  it('says a zip that was interrupted was resumed, and where it stands, while it finishes', async () => {
    renderApp(`/invoices?zip=${RESUMED}`, 'proveedor');
    const modal = within(await dialog());
    await modal.findByText('comprobantes-noviembre.zip', {}, { timeout: 10_000 });
    expect(
      modal.getByText(/^Reanudado el \d{2}\/\d{2}\/\d{2,4} \d{2}:\d{2} tras una interrupción: continúa donde quedó/),
    ).toBeTruthy();
    // It goes on to the end, and the note goes with the progress bar.
    await modal.findByText('Aceptados', {}, { timeout: 20_000 });
    await waitFor(() => expect(modal.queryByText(/^Reanudado el/)).toBeNull(), { timeout: 20_000 });
  });

  it('a zip refused part-way says what it had processed and shows those results', async () => {
    renderApp(`/invoices?zip=${STOPPED}`, 'proveedor');
    const modal = within(await dialog());
    await modal.findByText('comprobantes-dañado.zip', {}, { timeout: 10_000 });
    expect(
      modal.getByText(
        'Se detuvo el ZIP: 2 de sus comprobantes ya se habían procesado y se quedan como se indica; el resto no se registró.',
      ),
    ).toBeTruthy();
    expect(modal.queryByText('No se procesó el ZIP: no se registró ninguno de sus comprobantes.')).toBeNull();
    expect(
      modal.getByText('El archivo no es un ZIP válido o está dañado. Vuelva a generarlo e inténtelo nuevamente.'),
    ).toBeTruthy();
    // Its two results, as recorded.
    expect(modal.getAllByRole('row')).toHaveLength(3);
  });

  it('lists the recent zips and opens one', async () => {
    renderApp('/invoices', 'proveedor');
    fireEvent.click(await screen.findByRole('button', { name: 'Cargas de ZIP' }));
    const modal = within(await dialog());
    fireEvent.click(await modal.findByText('comprobantes-octubre.zip', {}, { timeout: 10_000 }));
    await waitFor(() => expect(modal.getAllByText('Ver comprobante').length).toBeGreaterThan(0));
  });

  it('is not offered to staff, who send no documents', async () => {
    renderApp('/invoices', 'gestor');
    await screen.findByRole('button', { name: 'Exportar' });
    expect(screen.queryByRole('button', { name: 'Cargas de ZIP' })).toBeNull();
  });
});

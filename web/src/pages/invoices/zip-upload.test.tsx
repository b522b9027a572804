import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { IntakeBatchSummary } from '@portal/shared';
import { renderApp } from '../../mock/render-app';
import { zipMessages } from './zip-upload';

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

describe('the texts of a zip agree with its counts', () => {
  const batch = (accepted: number, alreadyExisting: number, refused: number): IntakeBatchSummary => ({
    id: SEEDED,
    status: 'DONE',
    fileName: 'marzo.zip',
    company: '20100000001',
    counts: {
      total: accepted + alreadyExisting + refused,
      processed: accepted + alreadyExisting + refused,
      accepted,
      alreadyExisting,
      refused,
    },
    progress: 1,
    error: null,
    createdAt: '2026-03-02T15:00:00.000Z',
    finishedAt: '2026-03-02T15:01:00.000Z',
    resumedAt: null,
  });

  it('says one of each in the singular, and counts in thousands in the plural', () => {
    expect(zipMessages.summary(batch(1, 1, 1))).toBe('1 aceptado, 1 ya existía, 1 rechazado');
    expect(zipMessages.summary(batch(1234, 0, 2))).toBe('1,234 aceptados, 0 ya existían, 2 rechazados');
  });

  it('says one processed document, or one registered before a stop, in the singular', () => {
    expect(zipMessages.progress(1, null)).toBe('1 procesado');
    expect(zipMessages.progress(1, 1)).toBe('1 de 1 comprobante');
    expect(zipMessages.progress(1, 1234)).toBe('1 de 1,234 comprobantes');
    expect(zipMessages.stoppedHeader(1)).toBe(
      'Se detuvo el ZIP: 1 de sus comprobantes ya se había procesado y se queda como se indica; el resto no se registró.',
    );
  });
});

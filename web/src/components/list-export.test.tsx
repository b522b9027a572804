import { fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { TEST_CONFIG, mockServer } from '../mock/component-setup';
import { renderApp } from '../mock/render-app';

/** The element showing `text` that assistive technology sees (Cloudscape keeps hidden copies to measure). */
const shown = (text: string) =>
  screen.queryAllByText(text).find((each) => !each.closest('[aria-hidden="true"]')) ?? null;

async function exportAs(format: 'Excel (XLSX)' | 'CSV') {
  const button = await screen.findByRole('button', { name: 'Exportar' });
  await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
  fireEvent.click(button);
  fireEvent.click(await screen.findByText(format));
}

describe('«Exportar» on a list', () => {
  it('follows the export with its progress, then offers the download', async () => {
    renderApp('/service-sheets', 'gestor');
    await exportAs('CSV');

    await waitFor(() => expect(shown('Generando archivo…')).not.toBeNull());
    const download = await screen.findByText('Descargar', {}, { timeout: 10_000 });
    expect(download.closest('a')?.getAttribute('href')).toMatch(/mock-files\/Conformidades%20HES%20.*\.csv$/);
    expect(shown('Archivo listo')).not.toBeNull();
  });

  it('says in Spanish why an export is refused', async () => {
    mockServer.use(
      http.post(`${TEST_CONFIG.apiUrl}/exports`, () =>
        HttpResponse.json(
          {
            statusCode: 409,
            message: 'Ya tiene 3 exportaciones en curso. Espere a que termine alguna antes de pedir otra.',
            txId: 'tx-prueba-409',
            errors: [{ code: 'ERROR_TOO_MANY_EXPORTS', parameters: { limit: 3 } }],
          },
          { status: 409 },
        ),
      ),
    );
    renderApp('/material-docs', 'gestor');
    await exportAs('Excel (XLSX)');

    await waitFor(() => expect(shown('No se pudo pedir el archivo')).not.toBeNull());
    expect(document.body.textContent).toContain('Ya tiene 3 exportaciones en curso.');
  });

  it('says an export was resumed after an interruption, and that the list changed while it was made', async () => {
    const job = {
      id: '3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b',
      list: 'hes',
      format: 'csv',
      rows: 120,
      total: 300,
      totalChanged: false,
      progress: 0.4,
      fileName: 'Conformidades HES.csv',
      url: null,
      createdAt: '2026-03-05T15:00:00.000Z',
      finishedAt: null,
      resumedAt: '2026-03-05T15:01:30.000Z',
    };
    let reads = 0;
    mockServer.use(
      http.post(`${TEST_CONFIG.apiUrl}/exports`, () =>
        HttpResponse.json({ ...job, status: 'QUEUED' }, { status: 202 }),
      ),
      http.get(`${TEST_CONFIG.apiUrl}/exports/:exportId`, () =>
        HttpResponse.json(
          ++reads < 3
            ? { ...job, status: 'RUNNING' }
            : { ...job, status: 'READY', rows: 302, progress: 1, totalChanged: true, url: 'https://archivo/hes.csv' },
        ),
      ),
    );
    renderApp('/service-sheets', 'gestor');
    await exportAs('CSV');

    await waitFor(() =>
      expect(document.body.textContent).toMatch(
        /Reanudado el \d{2}\/\d{2}\/\d{2,4} \d{2}:\d{2} tras una interrupción: el archivo se genera de nuevo/,
      ),
    );
    await screen.findByText('Descargar', {}, { timeout: 10_000 });
    expect(screen.getByTestId('export-total-changed').textContent).toBe(
      'La lista cambió mientras se generaba el archivo: al pedirlo tenía 300 filas y el archivo tiene 302. ' +
        'Vuelva a exportar si necesita la lista de ahora.',
    );
  });
});

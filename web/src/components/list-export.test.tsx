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
});

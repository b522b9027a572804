import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MOCK_SUPPLIERS } from '../../mock/data';
import { renderApp } from '../../mock/render-app';

/** The element showing `text` that assistive technology sees (Cloudscape keeps hidden copies to measure). */
const shown = (text: string) =>
  screen.queryAllByText(text).find((each) => !each.closest('[aria-hidden="true"]')) ?? null;

async function selectAllAndAsk(button: string) {
  renderApp('/suppliers', 'administrador');
  fireEvent.click(
    await screen.findByRole('checkbox', { name: 'Seleccionar todos los usuarios de la página' }, { timeout: 20_000 }),
  );
  fireEvent.click(screen.getByRole('button', { name: button }));
  return within(await screen.findByTestId('confirm-bulk-reception'));
}

describe('bulk changes of e-mail reception on Usuarios proveedores', () => {
  const suppliers = MOCK_SUPPLIERS.length;

  it('asks first, naming how many suppliers, and changes nothing when cancelled', async () => {
    const dialog = await selectAllAndAsk('Desactivar recepción de correos');
    expect(dialog.getByText(`¿Desactivar la recepción de correos para ${suppliers} proveedores?`)).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByTestId('confirm-bulk-reception')).toBeNull());
    expect(shown(`Se desactivó la recepción de correos de ${suppliers} cuentas.`)).toBeNull();
  });

  it('makes the change once confirmed', async () => {
    const dialog = await selectAllAndAsk('Activar recepción de correos');
    expect(dialog.getByText(`¿Activar la recepción de correos para ${suppliers} proveedores?`)).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Activar' }));
    await waitFor(() => expect(shown(`Se activó la recepción de correos de ${suppliers} cuentas.`)).not.toBeNull());
    expect(screen.queryByTestId('confirm-bulk-reception')).toBeNull();
  });
});

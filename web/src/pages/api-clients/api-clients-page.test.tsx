import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TEST_TODAY } from '../../mock/component-setup';
import { createMockWorld } from '../../mock/data';
import { renderApp } from '../../mock/render-app';

const world = createMockWorld(TEST_TODAY);
const dialog = () => screen.getByRole('dialog');

describe('Clientes de API on the mock provider', () => {
  it('lists the clients with their supplier and state, and creates one whose secret shows once', async () => {
    renderApp('/api-clients', 'administrador');
    await screen.findByText(world.apiClients[0]!.name);
    expect(document.querySelector('h1')?.textContent).toContain('Clientes de API');
    expect(screen.getAllByText('Activo').length).toBeGreaterThan(0);

    fireEvent.click(screen.getByRole('button', { name: 'Crear cliente de API' }));
    const form = within(dialog());
    fireEvent.click(form.getByRole('button', { name: 'Crear' }));
    // Nothing is sent while the form is incomplete: it says what is missing.
    expect(await form.findByText('Ingresa los 11 dígitos del RUC.')).toBeTruthy();
    const [taxId, name] = form.getAllByRole('textbox');
    fireEvent.change(taxId!, { target: { value: world.apiClients[0]!.taxId } });
    fireEvent.change(name!, { target: { value: 'ERP nuevo' } });
    fireEvent.click(form.getByRole('button', { name: 'Crear' }));

    const secret = await screen.findByTestId('api-client-secret');
    expect(secret.textContent).toContain('secreto-de-demostracion-que-solo-se-muestra-una-vez');
    expect(screen.getByText(/es la única vez que el portal lo muestra/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Ya lo guardé' }));
    await waitFor(() => expect(screen.queryByTestId('api-client-secret')).toBeNull());
    expect(await screen.findByText('ERP nuevo')).toBeTruthy();
    // The list never shows it again.
    expect(document.body.textContent).not.toContain('secreto-de-demostracion');
  });

  it('asks before revoking, then shows the client as revoked', async () => {
    renderApp('/api-clients', 'administrador');
    const name = world.apiClients[0]!.name;
    await screen.findByText(name);
    fireEvent.click(screen.getByRole('button', { name: `Revocar ${name}` }));
    expect(within(dialog()).getByText(/dejan de funcionar de inmediato/)).toBeTruthy();
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Revocar' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: `Revocar ${name}` })).toBeNull());
    expect((await screen.findAllByText(/^Revocado el/)).length).toBe(2);
  });
});

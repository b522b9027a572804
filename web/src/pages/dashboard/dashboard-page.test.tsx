import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../mock/render-app';

describe('the manager’s dashboard', () => {
  it('is titled for the manager who reads it, in Spanish', async () => {
    renderApp('/dashboard', 'gestor');
    const title = await screen.findByRole('heading', { level: 1, name: 'Panel del gestor' }, { timeout: 20_000 });
    expect(title).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 1, name: 'Dashboard' })).toBeNull();
    // The menu names the screen as its title does.
    expect(screen.getAllByRole('link', { name: 'Panel del gestor' }).length).toBeGreaterThan(0);
  });
});

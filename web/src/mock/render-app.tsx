import { render } from '@testing-library/react';
import { RouterProvider } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { AppProviders } from '../app';
import { createAppRouter } from '../routing/router';
import { startMockSession } from '../session/mock-session';
import { mockPersona } from './personas';

/**
 * Renders the whole app at `path` for a component test, on the mock provider (component-setup.ts), signed in as
 * a persona of personas.ts or signed out. Each render has its own router and its own SWR cache.
 */
export function renderApp(path: string, personaId?: string) {
  if (personaId) {
    const persona = mockPersona(personaId);
    if (!persona) throw new Error(`No mock persona ${personaId}`);
    startMockSession({ personaId: persona.id, taxId: persona.user.taxId });
  }
  window.history.replaceState(null, '', path);
  return render(
    <AppProviders>
      <SWRConfig value={{ provider: () => new Map() }}>
        <RouterProvider router={createAppRouter()} />
      </SWRConfig>
    </AppProviders>,
  );
}

import { render, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { SWRConfig } from 'swr';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../app';
import { TEST_CONFIG, mockServer } from '../mock/component-setup';
import { mockPersona } from '../mock/personas';
import { HistoryModal } from '../pages/invoices/detail/history-modal';
import { startMockSession } from '../session/mock-session';

const KEY = { supplierId: '20123456789', invoiceType: 'FACTURA', invoiceId: 'F001-7' };

/** The invoice's Historial (history-modal.tsx), rendered alone on the mock provider with the trail it is given. */
function openHistory(trail: unknown[]) {
  const persona = mockPersona('gestor')!;
  startMockSession({ personaId: persona.id, taxId: persona.user.taxId });
  mockServer.use(
    http.get(
      `${TEST_CONFIG.apiUrl}/suppliers/${KEY.supplierId}/invoices/${KEY.invoiceType}/${KEY.invoiceId}/history`,
      () => HttpResponse.json({ items: trail, nextCursor: null }),
    ),
  );
  render(
    <AppProviders>
      <SWRConfig value={{ provider: () => new Map() }}>
        <HistoryModal
          path={KEY}
          number="F001-7"
          currency="PEN"
          history={[
            {
              status: 'PENDING',
              title: 'Recibido',
              additionalMessage: null,
              date: '2025-01-10T15:00:00.000Z',
              by: null,
            },
            {
              status: 'ACCEPTED',
              title: 'Aprobado',
              additionalMessage: null,
              date: '2025-01-12T15:00:00.000Z',
              by: 'gestor@example.com',
            },
          ]}
          onDismiss={() => undefined}
        />
      </SWRConfig>
    </AppProviders>,
  );
}

describe('the Historial of an invoice registered before the trail existed', () => {
  it('shows its status changes without saying above them that it has none', async () => {
    openHistory([]);
    const statuses = await screen.findByTestId('invoice-history', {}, { timeout: 20_000 });
    expect(within(statuses).getAllByTestId('history-entry')).toHaveLength(2);
    expect(screen.queryByText('El comprobante no tiene cambios registrados.')).toBeNull();
  });
});

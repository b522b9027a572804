import { fireEvent, render, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { SWRConfig } from 'swr';
import { describe, expect, it } from 'vitest';
import type { InvoiceDetail, InvoiceMessages } from '@portal/shared';
import { AppProviders } from '../../../app';
import { TEST_CONFIG, mockServer } from '../../../mock/component-setup';
import { mockPersona } from '../../../mock/personas';
import { startMockSession } from '../../../session/mock-session';
import { MessagesSection } from './messages-section';

const PATH = { supplierId: '20100070970', invoiceType: 'FACTURA' as const, invoiceId: 'F001-123' };
const HOSTILE = '<script>globalThis.pwned = 1</script><img src=x onerror="globalThis.pwned = 2">';
const ANSWER: InvoiceMessages = {
  items: [
    {
      id: '20261126T150000000Z-0000000a',
      at: '2026-11-26T15:00:00.000Z',
      authorName: 'Carmen Gutiérrez',
      authorRole: 'MANAGER',
      side: 'STAFF',
      text: 'Falta la guía de remisión.',
      attachments: [],
      observation: true,
    },
    {
      id: '20261126T160000000Z-0000000b',
      at: '2026-11-26T16:00:00.000Z',
      authorName: 'Ana Salazar',
      authorRole: 'SUPPLIER',
      side: 'SUPPLIER',
      text: HOSTILE,
      attachments: [{ key: 'uploads/x.pdf', fileName: 'guía.pdf', contentType: 'application/pdf', size: 10 }],
      observation: false,
    },
  ],
  observation: { since: '2026-11-26T15:00:00.000Z', by: 'Carmen Gutiérrez', reason: 'Falta la guía de remisión.' },
  conversation: {
    messageCount: 2,
    lastMessageAt: '2026-11-26T16:00:00.000Z',
    lastMessageSide: 'SUPPLIER',
    waitingOn: 'STAFF',
  },
};

function show(personaId: 'gestor' | 'proveedor') {
  const persona = mockPersona(personaId)!;
  startMockSession({ personaId: persona.id, taxId: persona.user.taxId });
  mockServer.use(
    http.get(`${TEST_CONFIG.apiUrl}/suppliers/:supplierId/invoices/:type/:id/messages`, () =>
      HttpResponse.json(ANSWER),
    ),
  );
  const invoice = {
    ...PATH,
    type: 'FACTURA',
    client: '20100130204',
    observation: ANSWER.observation,
  } as unknown as InvoiceDetail;
  render(
    <AppProviders>
      <SWRConfig value={{ provider: () => new Map() }}>
        <MessagesSection invoice={invoice} path={PATH} level={persona.user.level} onChanged={() => undefined} />
      </SWRConfig>
    </AppProviders>,
  );
}

describe('the Mensajes section', () => {
  it('lists the conversation oldest first, with author, role and Lima time, and markup as plain text', async () => {
    show('gestor');
    const texts = await screen.findAllByTestId('invoice-message-text');
    expect(texts.map((node) => node.textContent)).toEqual(['Falta la guía de remisión.', HOSTILE]);
    // Nothing of the markup became an element.
    const section = screen.getByTestId('invoice-messages');
    expect(section.querySelector('script, img')).toBeNull();
    expect((globalThis as { pwned?: number }).pwned).toBeUndefined();
    const [first] = screen.getAllByTestId('invoice-message');
    expect(within(first!).getByText('Carmen Gutiérrez · Gestor')).toBeTruthy();
    expect(within(first!).getByText('26/11/26 10:00 (hora de Lima)')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Descargar guía.pdf' })).toBeTruthy();
  });

  it('offers staff the mark and its removal; the supplier only writes', async () => {
    show('gestor');
    await screen.findAllByTestId('invoice-message');
    expect(screen.getByRole('button', { name: 'Marcar como observada' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Quitar observación' })).toBeTruthy();
  });

  it('does not let the supplier mark or clear, and says an empty message needs text', async () => {
    show('proveedor');
    await screen.findAllByTestId('invoice-message');
    expect(screen.queryByRole('button', { name: 'Marcar como observada' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Quitar observación' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(await screen.findByText('Escriba el mensaje antes de enviarlo.')).toBeTruthy();
  });
});

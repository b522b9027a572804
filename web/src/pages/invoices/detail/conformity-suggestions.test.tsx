import { fireEvent, render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { SWRConfig } from 'swr';
import { describe, expect, it, vi } from 'vitest';
import type { ConformityDocument, ConformitySuggestions as Answer, OperationType } from '@portal/shared';
import { AppProviders } from '../../../app';
import { TEST_CONFIG, mockServer } from '../../../mock/component-setup';
import { mockPersona } from '../../../mock/personas';
import { startMockSession } from '../../../session/mock-session';
import { ConformitySuggestions } from './conformity-suggestions';

const PATH = { supplierId: '20100070970', invoiceType: 'FACTURA' as const, invoiceId: 'F001-00000123' };
const doc = (documentId: string, amount: number): ConformityDocument => ({
  fiscalYear: '2026',
  issuerTaxId: PATH.supplierId,
  acquirerTaxId: '20100130204',
  documentId,
  deliveryNote: null,
  purchaseOrder: '4500019100',
  associatedInvoice: null,
  amount,
  currency: 'PEN',
  responsible: null,
});
const ANSWER: Answer = {
  purchaseOrder: '4500019100',
  currency: 'PEN',
  target: 1000,
  candidates: 4,
  complete: true,
  suggestions: [
    { kind: 'SERVICE_SHEET', documents: [doc('H1', 600), doc('H2', 400)], total: 1000, difference: 0, exact: true },
    { kind: 'MATERIAL_DOCUMENT', documents: [doc('M1', 1010)], total: 1010, difference: 10, exact: false },
    { kind: 'SERVICE_SHEET', documents: [doc('H3', 990.5)], total: 990.5, difference: -9.5, exact: false },
  ],
};

function show(operationType: OperationType | null, entered: string[] = [], answer: Answer = ANSWER) {
  const persona = mockPersona('gestor')!;
  startMockSession({ personaId: persona.id, taxId: persona.user.taxId });
  mockServer.use(
    http.get(`${TEST_CONFIG.apiUrl}/suppliers/:supplierId/invoices/:type/:id/conformity-suggestions`, () =>
      HttpResponse.json(answer),
    ),
  );
  const onApply = vi.fn();
  render(
    <AppProviders>
      <SWRConfig value={{ provider: () => new Map() }}>
        <ConformitySuggestions
          path={PATH}
          purchaseOrder="4500019100"
          operationType={operationType}
          entered={entered}
          onApply={onApply}
        />
      </SWRConfig>
    </AppProviders>,
  );
  return onApply;
}

const items = () => screen.getAllByTestId('conformity-suggestion').map((item) => item.textContent ?? '');

describe('suggested HES and MIGO in the review sidebar', () => {
  it('shows the exact sum first and the others with their difference in soles, and applies one with a click', async () => {
    const onApply = show(null);

    await screen.findByText('Suma exacta');
    expect(items()).toHaveLength(3);
    expect(items()[0]).toContain('HES: H1, H2');
    expect(items()[1]).toContain('S/ 10.00 más que el monto sin IGV');
    expect(items()[2]).toContain('S/ 9.50 menos que el monto sin IGV');
    expect(screen.getByText(/que suman S\/ 1,000.00/)).toBeDefined();

    fireEvent.click(screen.getAllByRole('button', { name: /^Aplicar las conformidades/ })[0]!);

    expect(onApply).toHaveBeenCalledWith('SERVICE_SHEET', ['H1', 'H2']);
  });

  it('offers only MIGO on a goods invoice and only HES on a services one', async () => {
    show('GOODS');

    await screen.findByText('MIGO: M1', { exact: false });
    expect(items()).toHaveLength(1);
  });

  it('says so when the order has documents, but none of the kind the operation type takes', async () => {
    show('GOODS', [], { ...ANSWER, suggestions: ANSWER.suggestions.filter((s) => s.kind === 'SERVICE_SHEET') });

    await screen.findByText('La orden de compra no tiene MIGO disponibles para el tipo de operación elegido.');
  });

  it('says when the order has nothing free to propose', async () => {
    show('SERVICES', [], { ...ANSWER, suggestions: [], candidates: 0 });

    await screen.findByText('La orden de compra no tiene HES ni MIGO disponibles del proveedor en esta moneda.');
  });

  it('marks the suggestion already in the form as applied', async () => {
    show('SERVICES', ['H2', 'H1'], { ...ANSWER, complete: false });

    const applied = await screen.findByRole('button', { name: 'Aplicada' });
    expect(applied.hasAttribute('disabled') || applied.getAttribute('aria-disabled') === 'true').toBe(true);
    expect(screen.getByText(/se muestran las mejores encontradas/)).toBeDefined();
  });
});

import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SupplierCdr } from '@portal/shared';
import { SupplierCdrEvidence } from './supplier-cdr';

const CDR: SupplierCdr = {
  responseCode: '0',
  description: 'La Factura numero F001-00000458, ha sido aceptada',
  verdict: 'ACCEPTED_WITH_OBSERVATIONS',
  documentId: 'F001-00000458',
  senderTaxId: '20131312955',
  responseDate: '2026-11-14',
  notes: [{ code: '4287', message: 'El precio unitario no coincide con el valor de venta' }],
  fileKey: 'uploads/20456178325/2026/11/cdr.xml',
  receivedAt: '2026-11-14T15:00:00.000Z',
  contradiction: {
    reasons: [
      {
        kind: 'ACCEPTED_BUT_NOT_VALID',
        message: 'La constancia de recepción dice «Aceptado», pero la consulta a SUNAT indica que no es válido.',
      },
    ],
    flaggedAt: '2026-11-14T15:05:00.000Z',
  },
};

describe('the CDR the supplier sent, beside «Estado Sunat»', () => {
  it('reads SUNAT’s answer as the supplier’s evidence, with its observations and date', () => {
    render(<SupplierCdrEvidence cdr={CDR} staff={false} />);

    expect(
      screen.getByText(
        'Aceptado con observaciones (código 0), según la constancia que envió el proveedor, emitida el 14/11/26.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('4287 - El precio unitario no coincide con el valor de venta')).toBeTruthy();
    expect(screen.getByText('La validez la determina la consulta a SUNAT, no la constancia.')).toBeTruthy();
  });

  it('flags a contradiction to staff only', () => {
    const { unmount } = render(<SupplierCdrEvidence cdr={CDR} staff={false} />);
    expect(screen.queryByTestId('invoice-detail-cdr-contradiction')).toBeNull();
    unmount();

    render(<SupplierCdrEvidence cdr={CDR} staff />);
    expect(screen.getByTestId('invoice-detail-cdr-contradiction').textContent).toContain(
      'La constancia de recepción no concuerda',
    );
  });
});

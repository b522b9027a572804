import { describe, expect, it } from 'vitest';
import {
  ACCEPTED_STATUSES,
  CREDIT_NOTE_REASONS,
  DEBIT_NOTE_REASONS,
  amountToPayOf,
  checkNoteReviewShape,
  noteAdjustmentsOf,
  noteReasonLabel,
  originalAmounts,
  originalTypeOfSeries,
  rucRiskOf,
  rucRiskText,
} from '@portal/shared';

// The rules of notes and their originals as pure functions (docs/ap-notes-and-risk.md).

describe("SUNAT's catálogos 09 and 10", () => {
  it('label each reason of its own catálogo and no other', () => {
    expect(CREDIT_NOTE_REASONS.map((entry) => entry.code)).toEqual([
      '01',
      '02',
      '03',
      '04',
      '05',
      '06',
      '07',
      '08',
      '09',
      '10',
      '11',
      '12',
      '13',
    ]);
    expect(DEBIT_NOTE_REASONS.map((entry) => entry.code)).toEqual(['01', '02', '03', '11', '12']);
    expect(noteReasonLabel('NOTA_DE_CREDITO', '06')).toBe('Devolución total');
    expect(noteReasonLabel('NOTA_DE_DEBITO', '01')).toBe('Intereses por mora');
    expect(noteReasonLabel('NOTA_DE_DEBITO', '13')).toBeNull();
  });

  it('read the original type from the series when the XML does not say it', () => {
    expect(originalTypeOfSeries('F001')).toBe('FACTURA');
    expect(originalTypeOfSeries('E001')).toBe('FACTURA');
    expect(originalTypeOfSeries('B002')).toBe('BOLETA');
    expect(originalTypeOfSeries('EB01')).toBe('BOLETA');
    expect(originalTypeOfSeries('0001')).toBeNull();
  });
});

describe("an original's amount to pay", () => {
  const note = (type: 'NOTA_DE_CREDITO' | 'NOTA_DE_DEBITO', status: string, amount: number) =>
    ({ type, status, amount }) as Parameters<typeof noteAdjustmentsOf>[0][number];

  it('counts accepted notes only: approved, scheduled or paid', () => {
    expect(ACCEPTED_STATUSES).toEqual(['ACCEPTED', 'SCHEDULED', 'PAID']);
    const notes = [
      note('NOTA_DE_CREDITO', 'ACCEPTED', 100.1),
      note('NOTA_DE_CREDITO', 'PAID', 0.2),
      note('NOTA_DE_DEBITO', 'SCHEDULED', 50.05),
      note('NOTA_DE_CREDITO', 'PENDING', 999),
      note('NOTA_DE_CREDITO', 'COMPLETED', 999),
      note('NOTA_DE_DEBITO', 'REJECTED', 999),
    ];
    expect(noteAdjustmentsOf(notes)).toEqual({ credited: 100.3, debited: 50.05 });
    expect(originalAmounts(1180, notes)).toEqual({
      noteAdjustments: { credited: 100.3, debited: 50.05 },
      amountToPay: 1129.75,
    });
  });

  it('is the amount itself without notes, to the cent', () => {
    expect(amountToPayOf(0.3, null)).toBe(0.3);
    expect(amountToPayOf(0.3, { credited: 0.1, debited: 0 })).toBe(0.2);
  });
});

describe('the review of a note (spec §5 as it applies to notes)', () => {
  const input = (change: Partial<Parameters<typeof checkNoteReviewShape>[0]> = {}) => ({
    operationType: 'SERVICES' as const,
    purchaseOrders: ['PO1'],
    serviceSheets: [],
    materialDocs: [],
    attachments: [],
    ...change,
  });
  const original = { id: 'F001-7', operationType: 'SERVICES' as const, purchaseOrders: ['PO1'] };

  it("takes its original's operation type and orders, without HES, MIGO or amount", () => {
    expect(checkNoteReviewShape(input(), original)).toBeNull();
    expect(checkNoteReviewShape(input({ serviceSheets: ['H1'] }), original)?.code).toBe(
      'ERROR_NOTE_WITH_CONFORMITY_DOCUMENTS',
    );
    expect(checkNoteReviewShape(input({ purchaseOrders: ['PO2'] }), original)).toEqual({
      code: 'ERROR_NOTE_REVIEW_NOT_ORIGINAL',
      parameters: { original: 'F001-7', purchaseOrders: 'PO1' },
    });
    expect(checkNoteReviewShape(input({ operationType: 'GOODS' }), original)?.code).toBe(
      'ERROR_NOTE_REVIEW_NOT_ORIGINAL',
    );
    expect(checkNoteReviewShape(input(), { ...original, operationType: null })?.code).toBe(
      'ERROR_NOTE_ORIGINAL_NOT_REVIEWED',
    );
  });

  it('without its original in the portal, needs orders, or PDF support without them', () => {
    expect(checkNoteReviewShape(input(), null)).toBeNull();
    expect(checkNoteReviewShape(input({ purchaseOrders: [] }), null)?.code).toBe(
      'ERROR_UPDATE_INVOICE_WITHOUT_PURCHASE_ORDERS',
    );
    const without = input({ operationType: 'WITHOUT_PURCHASE_ORDER', purchaseOrders: [] });
    expect(checkNoteReviewShape(without, null)?.code).toBe('ERROR_WITHOUT_PO_REQUIRES_ATTACHMENTS');
    expect(checkNoteReviewShape({ ...without, attachments: ['acuerdo.pdf'] }, null)).toBeNull();
  });
});

describe('the RUC risk gate', () => {
  it('sees a risk when SUNAT says the RUC is not ACTIVO or the address not HABIDO', () => {
    expect(rucRiskOf({ estadoRuc: 'ACTIVO', condDomiRuc: 'HABIDO' })).toBeNull();
    expect(rucRiskOf({ estadoRuc: 'ACTIVO', condDomiRuc: 'NO HABIDO' })).toEqual({
      estadoRuc: 'ACTIVO',
      condDomiRuc: 'NO HABIDO',
    });
    expect(rucRiskOf({ estadoRuc: 'SUSPENSION TEMPORAL', condDomiRuc: 'HABIDO' })).not.toBeNull();
    expect(rucRiskOf({ estadoRuc: 'ACTIVO', condDomiRuc: 'NO HALLADO' })).not.toBeNull();
    // A code SUNAT's table does not know is kept as the code: not ACTIVO, so a risk.
    expect(rucRiskOf({ estadoRuc: '05', condDomiRuc: 'HABIDO' })).not.toBeNull();
    expect(rucRiskText({ estadoRuc: 'BAJA DE OFICIO', condDomiRuc: 'NO HABIDO' })).toBe(
      'RUC BAJA DE OFICIO, domicilio NO HABIDO',
    );
  });

  it('acts on what SUNAT said, not on its silence', () => {
    expect(rucRiskOf(null)).toBeNull();
    expect(rucRiskOf({ estadoRuc: null, condDomiRuc: null })).toBeNull();
    expect(rucRiskOf({ estadoRuc: null, condDomiRuc: 'NO HABIDO' })).toEqual({
      estadoRuc: null,
      condDomiRuc: 'NO HABIDO',
    });
  });
});

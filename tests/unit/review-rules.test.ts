import { describe, expect, it } from 'vitest';
import { checkConformity, checkReviewShape, dashboardDelta, type ConformityFacts } from '@portal/shared';

const form = (change: Partial<Parameters<typeof checkReviewShape>[0]> = {}) => ({
  operationType: 'SERVICES' as const,
  purchaseOrders: ['PO1'],
  serviceSheets: ['H1'],
  materialDocs: [],
  attachments: [],
  ...change,
});

describe('the shape of a completion (spec §5)', () => {
  it('accepts services with an order and an HES', () => {
    expect(checkReviewShape(form())).toBeNull();
  });

  it.each([
    [{ operationType: 'GOODS' as const }, 'ERROR_ADD_HES_WITH_GOODS_OPERATION_TYPE'],
    [{ serviceSheets: [], materialDocs: ['M1'] }, 'ERROR_ADD_MIGO_WITH_SERVICE_OPERATION_TYPE'],
    [
      { operationType: 'TRANSPORT' as const, materialDocs: ['M1'] },
      'ERROR_UPDATE_INVOICE_WITH_HES_AND_MIGO_AT_THE_SAME_TIME',
    ],
    [{ purchaseOrders: [] }, 'ERROR_UPDATE_INVOICE_WITHOUT_PURCHASE_ORDERS'],
    [{ serviceSheets: [] }, 'ERROR_UPDATE_INVOICE_WITHOUT_CONFORMITY_DOCUMENTS'],
  ])('refuses %o with %s', (change, code) => {
    expect(checkReviewShape(form(change))?.code).toBe(code);
  });

  it('asks a PDF, and no documents, without purchase order', () => {
    const without = { operationType: 'WITHOUT_PURCHASE_ORDER' as const, purchaseOrders: [], serviceSheets: [] };
    expect(checkReviewShape(form({ ...without, attachments: ['a.png'] }))?.code).toBe(
      'ERROR_WITHOUT_PO_REQUIRES_ATTACHMENTS',
    );
    expect(checkReviewShape(form({ ...without, attachments: ['sustento.PDF'] }))).toBeNull();
    expect(checkReviewShape(form({ ...without, purchaseOrders: ['PO1'], attachments: ['a.pdf'] }))?.code).toBe(
      'ERROR_INVALID_PARAMETER',
    );
  });
});

describe('the conformity documents of a completion (spec §5)', () => {
  const invoice = { key: 'INV#1', supplierId: '20100070970', currency: 'PEN' as const, amount: 1180, taxAmount: 180 };
  const doc = (id: string, change: Partial<ConformityFacts> = {}): [string, ConformityFacts] => [
    id,
    {
      documentId: id,
      kind: 'SERVICE_SHEET',
      purchaseOrder: 'PO1',
      issuerTaxId: invoice.supplierId,
      currency: 'PEN',
      amount: 1000,
      claimedBy: null,
      ...change,
    },
  ];
  type Input = { purchaseOrders: string[]; serviceSheets: string[]; materialDocs: string[] };
  const check = (
    docs: [string, ConformityFacts][],
    input: Input = { purchaseOrders: ['PO1'], serviceSheets: docs.map(([id]) => id), materialDocs: [] },
  ) => checkConformity(invoice, input, new Map(docs), new Set(['PO1', 'PO2']))?.code ?? null;

  it('accepts documents that fit, including ones this invoice already holds', () => {
    expect(check([doc('H1')])).toBeNull();
    expect(check([doc('H1', { claimedBy: 'INV#1' })])).toBeNull();
    expect(check([doc('H1', { amount: 600 }), doc('H2', { amount: 400.01 })])).toBeNull();
  });

  it.each([
    [[doc('H1', { issuerTaxId: '20131312955' })], 'ERROR_INVOICE_AND_CONFORMITY_DOCUMENTS_WITH_DIFFERENT_SUPPLIER'],
    [[doc('H1', { currency: 'USD' })], 'ERROR_INVOICE_AND_CONFORMITY_DOCUMENTS_WITH_DIFFERENT_CURRENCY'],
    [[doc('H1', { purchaseOrder: 'PO2' })], 'ERROR_CONFORMITY_DOCUMENTS_WITH_UNCOVERED_PURCHASE_ORDERS'],
    [[doc('H1', { claimedBy: 'INV#2' })], 'ERROR_CONFORMITY_DOCUMENT_NOT_AVAILABLE'],
    [[doc('H1', { amount: 999.98 })], 'ERROR_INVOICE_AND_CONFORMITY_DOCUMENTS_WITH_DISTANT_AMOUNTS'],
  ])('refuses %o', (docs, code) => {
    expect(check(docs as [string, ConformityFacts][])).toBe(code);
  });

  it('names missing documents and orders', () => {
    expect(check([], { purchaseOrders: ['PO1'], serviceSheets: ['H9'], materialDocs: [] })).toBe('ERROR_HES_NOT_FOUND');
    expect(check([], { purchaseOrders: ['PO1'], serviceSheets: [], materialDocs: ['M9'] })).toBe(
      'ERROR_MIGO_NOT_FOUND',
    );
    expect(check([doc('H1')], { purchaseOrders: ['PO9'], serviceSheets: ['H1'], materialDocs: [] })).toBe(
      'ERROR_PURCHASE_ORDER_NOT_FOUND',
    );
    expect(check([doc('H1')], { purchaseOrders: ['PO1', 'PO2'], serviceSheets: ['H1'], materialDocs: [] })).toBe(
      'ERROR_PURCHASE_ORDERS_WITHOUT_CONFORMITY_DOCUMENTS',
    );
  });
});

describe('dashboard counters', () => {
  it('moves one status and one operation type per transition', () => {
    expect(dashboardDelta(null, { status: 'PENDING', operationType: null })).toEqual({ pending: 1, invUnassigned: 1 });
    expect(
      dashboardDelta({ status: 'PENDING', operationType: null }, { status: 'COMPLETED', operationType: 'GOODS' }),
    ).toEqual({
      pending: -1,
      completed: 1,
      invUnassigned: -1,
      invGoods: 1,
    });
    expect(
      dashboardDelta({ status: 'COMPLETED', operationType: 'GOODS' }, { status: 'COMPLETED', operationType: 'GOODS' }),
    ).toEqual({});
  });
});

import type { StoredInvoice } from '../../repositories/invoice-store.js';

/**
 * An approved factura as the MIRO posting reads it (the unit tests'): S/ 118.00 with one HES, no SAP document yet.
 * `change` names its key and company; only what the posting reads is there.
 */
export function approvedInvoiceFixture(change: Record<string, unknown>): StoredInvoice {
  return {
    type: 'FACTURA',
    status: 'ACCEPTED',
    statusMessage: null,
    amount: 118,
    taxAmount: 18,
    currency: 'PEN',
    issuedAt: '2026-10-15',
    serviceSheets: ['H1'],
    materialDocs: [],
    sapDocument: null,
    version: 3,
    ...change,
  } as unknown as StoredInvoice;
}

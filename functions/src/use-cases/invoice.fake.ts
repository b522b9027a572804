import type { StoredInvoice } from '../repositories/invoice-store.js';

/**
 * A stored invoice for the unit tests: a factura received and under review, nothing completed, as the store reads it
 * back. Each test names what it cares about in `change` (its key, amounts, dates, files, history).
 */
export function storedInvoiceFixture(change: Partial<StoredInvoice> = {}): StoredInvoice {
  return {
    id: 'F001-1',
    prefixId: 'F001',
    numericId: '1',
    type: 'FACTURA',
    status: 'PENDING',
    statusMessage: null,
    certStatus: 'PENDING',
    approved: false,
    supplierId: '20456178320',
    supplierName: 'Servicios Industriales Lima S.A.C.',
    client: '20100070970',
    clientName: 'Corporación Andina de Alimentos S.A.A.',
    responsible: null,
    officeId: null,
    locationId: null,
    operationType: null,
    currency: 'PEN',
    amount: 118,
    taxAmount: 18,
    serviceSheets: [],
    materialDocs: [],
    purchaseOrders: [],
    attachments: [],
    issuedAt: '2026-11-01',
    receivedAt: '2026-11-01T14:00:00.000Z',
    scheduledAt: null,
    paidAt: null,
    xmlUrl: null,
    pdfUrl: null,
    disapprovedWithoutRejection: false,
    notes: null,
    statusHistory: [],
    version: 1,
    ...change,
  };
}

import type { Invoice } from '@portal/shared';
import type { StoredInvoice } from '../repositories/invoice-store.js';

/**
 * An invoice for the unit tests: a factura received and under review, nothing completed. Each test names what it
 * cares about in `change` (its key, supplier, amounts, dates, files, history).
 */
export function invoiceFixture(change: Partial<Invoice> = {}): Invoice {
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
    ...change,
  };
}

/** The same invoice as the store reads it back: with its version (1 unless `change` names another). */
export function storedInvoiceFixture(change: Partial<StoredInvoice> = {}): StoredInvoice {
  return { ...invoiceFixture(change), version: change.version ?? 1 };
}

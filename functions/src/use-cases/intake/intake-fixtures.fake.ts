import { withCheckDigit, type Client } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import type { IncomingDocument } from './intake-deps.js';

/** The intake's unit tests' supplier: a RUC with its check digit. */
export const SUPPLIER = withCheckDigit('2045617832');

/** One of the group's companies, the acquirer of the tests' documents. */
export const CLIENT: Client = {
  taxId: withCheckDigit('2010007097'),
  name: 'Corporación Andina',
  address: 'Lima',
  logo: null,
  system_name: 'CAA',
};

/** The supplier's account as the intake sees its caller. */
export const supplierCaller = {
  sub: 's1',
  email: 'p@demo.pe',
  level: 'SUPPLIER',
  taxIds: [SUPPLIER],
} as unknown as Caller;

/** A factura of SUPPLIER to CLIENT as its XML reads (S/ 118.00, IGV S/ 18.00); `change` sets the rest. */
export function incomingDocumentFixture(change: Partial<IncomingDocument> = {}): IncomingDocument {
  return {
    type: 'FACTURA',
    prefixId: 'F001',
    numericId: '123',
    issueDate: '2026-11-10',
    currency: 'PEN',
    supplier: { taxId: SUPPLIER, name: 'Servicios Industriales Lima S.A.C.' },
    customerTaxId: CLIENT.taxId,
    taxAmount: 18,
    amount: 118,
    purchaseOrders: [],
    notes: null,
    ...change,
  };
}

import { describe, expect, it } from 'vitest';
import {
  INVOICE_API_PATH,
  fromInvoiceParams,
  invoiceApiPath,
  invoicePageOf,
  invoicePagePath,
  invoiceRefOfParams,
  invoiceRefOfTableKey,
  invoiceTableKey,
  miroOutboxKey,
  toInvoiceParams,
  type InvoiceRef,
} from './invoice-ref.js';
import { buildPath, routes } from './manifest.js';

const REF: InvoiceRef = { supplierId: '20456178325', type: 'FACTURA', id: 'F001-123' };

describe('InvoiceRef', () => {
  it('is the table key of the invoice and of its MIRO record, and reads back from the key', () => {
    expect(invoiceTableKey(REF)).toEqual({ pk: 'INVOICE#20456178325#FACTURA#F001-123', sk: 'INVOICE' });
    expect(miroOutboxKey(REF)).toEqual({ pk: 'MIRO#20456178325#FACTURA#F001-123', sk: 'OUTBOX' });
    expect(invoiceRefOfTableKey(invoiceTableKey(REF).pk)).toEqual(REF);
    expect(invoiceRefOfTableKey(miroOutboxKey(REF).pk)).toEqual(REF);
    expect(invoiceRefOfTableKey('INVOICE#20456178325#CHEQUE#F001-123')).toBeNull();
    expect(invoiceRefOfTableKey('INVOICE#20456178325#FACTURA')).toBeNull();
    expect(invoiceRefOfTableKey('LIST#CLIENT#20100000001#STATUS#APPROVED')).toBeNull();
  });

  it("is the wire's {supplierId, invoiceType, invoiceId}, both ways", () => {
    const params = { supplierId: '20456178325', invoiceType: 'FACTURA', invoiceId: 'F001-123' } as const;
    expect(toInvoiceParams(REF)).toEqual(params);
    expect(fromInvoiceParams(params)).toEqual(REF);
    expect(invoiceRefOfParams(params)).toEqual(REF);
    expect(invoiceRefOfParams({ ...params, invoiceType: 'CHEQUE' })).toBeNull();
    expect(invoiceRefOfParams({ supplierId: '20456178325', invoiceType: 'FACTURA' })).toBeNull();
  });

  it("is the API path every invoice route starts with, and the web app's page", () => {
    expect(invoiceApiPath(REF)).toBe('/suppliers/20456178325/invoices/FACTURA/F001-123');
    expect(buildPath(routes.getInvoice, { ...toInvoiceParams(REF) })).toBe(invoiceApiPath(REF));
    expect(routes.approveInvoice.path).toBe(`${INVOICE_API_PATH}/approve`);
    expect(invoicePageOf(REF)).toBe('/invoices/20456178325/FACTURA/F001-123');
    expect(invoicePagePath(toInvoiceParams(REF))).toBe(invoicePageOf(REF));
    expect(invoicePageOf({ ...REF, id: 'A B/1' })).toBe('/invoices/20456178325/FACTURA/A%20B%2F1');
  });
});

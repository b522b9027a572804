import { describe, expect, it } from 'vitest';
import { checkInvoiceCode } from '@portal/shared';

describe('invoice code format (series and correlative)', () => {
  it('accepts a factura series F + 3 alphanumerics, a 4-digit contingencia series and SEE-SOL E001', () => {
    expect(checkInvoiceCode('FACTURA', 'F001', '458')).toBe(true);
    expect(checkInvoiceCode('FACTURA', 'FA1B', '00000458')).toBe(true);
    expect(checkInvoiceCode('FACTURA', '0001', '12')).toBe(true);
    expect(checkInvoiceCode('FACTURA', 'E001', '245')).toBe(true);
  });

  it('refuses a factura with a boleta series, the SEE-SOL boleta series or a malformed one', () => {
    expect(checkInvoiceCode('FACTURA', 'B001', '1')).toBe(false);
    expect(checkInvoiceCode('FACTURA', 'EB01', '1')).toBe(false);
    expect(checkInvoiceCode('FACTURA', 'F01', '1')).toBe(false);
    expect(checkInvoiceCode('FACTURA', 'F0001', '1')).toBe(false);
    expect(checkInvoiceCode('FACTURA', 'f001', '1')).toBe(false);
    expect(checkInvoiceCode('FACTURA', 'F-01', '1')).toBe(false);
    expect(checkInvoiceCode('FACTURA', '001', '1')).toBe(false);
  });

  it('accepts a boleta series B + 3 alphanumerics, a 4-digit one and SEE-SOL EB01, and nothing else', () => {
    expect(checkInvoiceCode('BOLETA', 'B001', '12045')).toBe(true);
    expect(checkInvoiceCode('BOLETA', 'BZ99', '1')).toBe(true);
    expect(checkInvoiceCode('BOLETA', '0002', '1')).toBe(true);
    expect(checkInvoiceCode('BOLETA', 'EB01', '1')).toBe(true);
    expect(checkInvoiceCode('BOLETA', 'F001', '1')).toBe(false);
    expect(checkInvoiceCode('BOLETA', 'E001', '1')).toBe(false);
  });

  it('accepts for a note the series of the factura or boleta it modifies', () => {
    for (const type of ['NOTA_DE_CREDITO', 'NOTA_DE_DEBITO'] as const) {
      expect(checkInvoiceCode(type, 'FC01', '12')).toBe(true);
      expect(checkInvoiceCode(type, 'BD01', '3')).toBe(true);
      expect(checkInvoiceCode(type, '0001', '3')).toBe(true);
      expect(checkInvoiceCode(type, 'E001', '3')).toBe(true);
      expect(checkInvoiceCode(type, 'EB01', '3')).toBe(true);
      expect(checkInvoiceCode(type, 'T001', '3')).toBe(false);
    }
  });

  it('accepts a recibo por honorarios only in SEE-SOL series E001', () => {
    expect(checkInvoiceCode('RECIBO_POR_HONORARIOS', 'E001', '27')).toBe(true);
    expect(checkInvoiceCode('RECIBO_POR_HONORARIOS', 'E002', '27')).toBe(false);
    expect(checkInvoiceCode('RECIBO_POR_HONORARIOS', 'F001', '27')).toBe(false);
    expect(checkInvoiceCode('RECIBO_POR_HONORARIOS', '0001', '27')).toBe(false);
  });

  it('accepts a plain recibo in E001 or a printed 4-digit series', () => {
    expect(checkInvoiceCode('RECIBO', 'E001', '27')).toBe(true);
    expect(checkInvoiceCode('RECIBO', '0001', '27')).toBe(true);
    expect(checkInvoiceCode('RECIBO', 'F001', '27')).toBe(false);
  });

  it('accepts a correlative of 1 to 8 digits, leading zeros included, and refuses anything else', () => {
    expect(checkInvoiceCode('FACTURA', 'F001', '1')).toBe(true);
    expect(checkInvoiceCode('FACTURA', 'F001', '99999999')).toBe(true);
    expect(checkInvoiceCode('FACTURA', 'F001', '00000001')).toBe(true);
    expect(checkInvoiceCode('FACTURA', 'F001', '')).toBe(false);
    expect(checkInvoiceCode('FACTURA', 'F001', '123456789')).toBe(false);
    expect(checkInvoiceCode('FACTURA', 'F001', '12A')).toBe(false);
    expect(checkInvoiceCode('FACTURA', 'F001', '-1')).toBe(false);
    expect(checkInvoiceCode('FACTURA', 'F001', '0')).toBe(false);
    expect(checkInvoiceCode('FACTURA', 'F001', '00000000')).toBe(false);
  });
});

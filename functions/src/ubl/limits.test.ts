import { describe, expect, it } from 'vitest';
import { COUNT_LIMITS, MAX_AMOUNT_TEXT, TEXT_LIMITS } from '@portal/shared';
import { parseSunatDocument } from './parse.js';
import { documentRefusal, ublText, utf8 } from './ubl-documents.fake.js';

// Every text the reader takes from an XML has its limit (docs/limits.md); beyond it, a Spanish 400 with its code.

const FACTURA = ublText('factura-ubl21-credito.xml');
const SUPPLIER_NAME = '<cbc:RegistrationName><![CDATA[SERVICIOS INDUSTRIALES LIMA S.A.C.]]></cbc:RegistrationName>';

function read(xml: string) {
  return parseSunatDocument(utf8(xml));
}

/** The first error of the 400 the reader refuses this XML with, and its message. */
const refusal = (xml: string) => documentRefusal(utf8(xml));

const withSupplierName = (name: string) =>
  FACTURA.replace(SUPPLIER_NAME, `<cbc:RegistrationName>${name}</cbc:RegistrationName>`);

describe('UBL reader limits', () => {
  it('refuses a 203 KB supplier name with ERROR_XML_FIELD_TOO_LONG, and reads one at the maximum', () => {
    const refused = refusal(withSupplierName('A'.repeat(203 * 1024)));
    expect(refused).toEqual({
      code: 'ERROR_XML_FIELD_TOO_LONG',
      parameters: { field: 'razón social del emisor', limit: TEXT_LIMITS.partyName },
      message: `El dato «razón social del emisor» del XML del comprobante excede el máximo de ${TEXT_LIMITS.partyName} caracteres.`,
    });
    expect(refusal(withSupplierName('Ñ'.repeat(TEXT_LIMITS.partyName + 1))).code).toBe('ERROR_XML_FIELD_TOO_LONG');
    const atMaximum = 'Ñ'.repeat(TEXT_LIMITS.partyName);
    expect(read(withSupplierName(atMaximum)).supplier.name).toBe(atMaximum);
  });

  it("bounds the customer's name, the series and number and the purchase orders", () => {
    expect(
      refusal(FACTURA.replace('CORPORACIÓN ANDINA DE ALIMENTOS S.A.A.', 'x'.repeat(TEXT_LIMITS.partyName + 1)))
        .parameters,
    ).toEqual({ field: 'nombre o razón social del adquirente', limit: TEXT_LIMITS.partyName });
    expect(
      refusal(FACTURA.replace('<cbc:ID>F001-00000458</cbc:ID>', `<cbc:ID>F001-${'0'.repeat(40)}458</cbc:ID>`))
        .parameters,
    ).toEqual({ field: 'serie y número', limit: TEXT_LIMITS.documentId });
    expect(refusal(FACTURA.replace('4500012345', '4'.repeat(TEXT_LIMITS.sapDocumentId + 1))).parameters).toEqual({
      field: 'orden de compra',
      limit: TEXT_LIMITS.sapDocumentId,
    });
  });

  it('refuses more purchase orders than an invoice may hold, and reads as many as it may', () => {
    const orders = (count: number) =>
      Array.from(
        { length: count },
        (_, i) => `<cac:OrderReference><cbc:ID>45000${String(i).padStart(5, '0')}</cbc:ID></cac:OrderReference>`,
      ).join('');
    const xmlWith = (count: number) =>
      FACTURA.replace(/<cac:OrderReference>[\s\S]*?<\/cac:OrderReference>/, orders(count));
    expect(read(xmlWith(COUNT_LIMITS.purchaseOrders)).purchaseOrders).toHaveLength(COUNT_LIMITS.purchaseOrders);
    expect(refusal(xmlWith(COUNT_LIMITS.purchaseOrders + 1))).toMatchObject({
      code: 'ERROR_XML_TOO_MANY_ITEMS',
      parameters: { field: 'orden de compra', limit: COUNT_LIMITS.purchaseOrders },
    });
  });

  it('refuses an amount beyond the maximum instead of storing it rounded (999999999999999.99 became 1e15)', () => {
    const huge = FACTURA.replace(
      '<cbc:PayableAmount currencyID="PEN">11800.00</cbc:PayableAmount>',
      '<cbc:PayableAmount currencyID="PEN">999999999999999.99</cbc:PayableAmount>',
    );
    expect(refusal(huge)).toEqual({
      code: 'ERROR_INVOICE_AMOUNT_OUT_OF_RANGE',
      parameters: { field: 'importe total', limit: MAX_AMOUNT_TEXT },
      message: `El dato «importe total» del comprobante supera el monto máximo permitido (${MAX_AMOUNT_TEXT}).`,
    });
    // The precio de venta with it: the importe total must still add up as SUNAT requires (rule 3280).
    const atMaximum = FACTURA.replace(
      '<cbc:PayableAmount currencyID="PEN">11800.00</cbc:PayableAmount>',
      '<cbc:PayableAmount currencyID="PEN">9999999999.99</cbc:PayableAmount>',
    ).replace(
      '<cbc:TaxInclusiveAmount currencyID="PEN">11800.00</cbc:TaxInclusiveAmount>',
      '<cbc:TaxInclusiveAmount currencyID="PEN">9999999999.99</cbc:TaxInclusiveAmount>',
    );
    expect(read(atMaximum).payableAmount).toBe(9999999999.99);
  });
});

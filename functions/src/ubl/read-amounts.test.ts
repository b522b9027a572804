import { describe, expect, it } from 'vitest';
import { COUNT_LIMITS } from '@portal/shared';
import {
  CONTADO,
  FERRETERIA,
  MINERA_PACIFICO_SUR,
  NOTHING_DEDUCTED,
  QUISPE,
  TRANSPORTES_INCA,
  documentRefusal,
  latin1,
  parsedDocument,
  readDocument,
  ublText,
  utf8,
} from './ubl-documents.fake.js';

// Every document SUNAT accepts, read right (docs/ap-documents.md): each shape of the corpus read
// field by field, and the amounts SUNAT's own validation refuses refused here with a Spanish message.

/** Replaces `from` in `xml`, failing if it is not there (a test must change what it says it changes). */
function changed(xml: string, from: string | RegExp, to: string | ((whole: string, open: string) => string)): string {
  // One call per overload of String#replace.
  const result = typeof to === 'string' ? xml.replace(from, to) : xml.replace(from, to);
  expect(result).not.toBe(xml);
  return result;
}

describe('parseSunatDocument: every document SUNAT accepts, field by field', () => {
  it('reads a transferencia gratuita: importe total 0.00, the value given free under scheme 9996, nothing to pay', () => {
    const document = readDocument(utf8(ublText('factura-gratuita.xml')));

    expect(document).toEqual(
      parsedDocument({
        type: 'FACTURA',
        prefixId: 'F001',
        numericId: '00000601',
        issueDate: '2025-06-10',
        // The 72.00 of scheme 9996 is the IGV the free goods would bear: nobody pays it, it is not IGV.
        taxAmount: 0,
        payableAmount: 0,
        paymentTerms: CONTADO,
        operationType: '0101',
        saleValue: 0,
        taxes: { igv: 0, isc: 0, icbper: 0, other: 0 },
        ...NOTHING_DEDUCTED,
        freeOfCharge: true,
        freeOfChargeValue: 400,
      }),
    );
  });

  it('knows a transferencia gratuita by any of its marks: the scheme 9996 value, the lines of price type 02, legend 1002', () => {
    const xml = ublText('factura-gratuita.xml');
    const withoutLegend = changed(xml, /<cbc:Note languageLocaleID="1002">.*<\/cbc:Note>/, '');
    const withoutHeaderValue = changed(
      withoutLegend,
      '<cbc:TaxableAmount currencyID="PEN">400.00</cbc:TaxableAmount>',
      '<cbc:TaxableAmount currencyID="PEN">0.00</cbc:TaxableAmount>',
    );

    expect(readDocument(utf8(withoutLegend))).toMatchObject({ freeOfCharge: true, freeOfChargeValue: 400 });
    // Only the lines' price type (catálogo 16 code 02) is left to tell.
    expect(readDocument(utf8(withoutHeaderValue))).toMatchObject({ freeOfCharge: true, freeOfChargeValue: 0 });
  });

  it('reads ISC (scheme 2000) and ICBPER (scheme 7152) beside the IGV, whose base includes the ISC', () => {
    const document = readDocument(utf8(ublText('factura-isc-icbper.xml')));

    expect(document).toEqual(
      parsedDocument({
        type: 'FACTURA',
        prefixId: 'F001',
        numericId: '00000602',
        issueDate: '2025-06-12',
        supplier: FERRETERIA,
        customer: MINERA_PACIFICO_SUR,
        taxAmount: 446.47,
        payableAmount: 2928.87,
        purchaseOrders: ['4500012602'],
        paymentTerms: CONTADO,
        operationType: '0101',
        saleValue: 2200.4,
        taxes: { igv: 446.47, isc: 280, icbper: 2, other: 0 },
        ...NOTHING_DEDUCTED,
        freeOfCharge: false,
        freeOfChargeValue: 0,
      }),
    );
  });

  it('reads global discounts and charges with their catálogo 53 codes', () => {
    const document = readDocument(utf8(ublText('factura-descuento-cargo.xml')));

    expect(document).toEqual(
      parsedDocument({
        type: 'FACTURA',
        prefixId: 'F001',
        numericId: '00000603',
        issueDate: '2025-06-16',
        taxAmount: 1710,
        payableAmount: 11230,
        purchaseOrders: ['4500012603'],
        paymentTerms: CONTADO,
        operationType: '0101',
        // 10,000.00 of lines less the 5 % discount that lowers the IGV base.
        saleValue: 9500,
        taxes: { igv: 1710, isc: 0, icbper: 0, other: 0 },
        allowances: [
          { code: '02', amount: 500 },
          { code: '03', amount: 100 },
        ],
        charges: [{ code: '50', amount: 120 }],
        prepaidAmount: 0,
        prepayments: [],
        freeOfCharge: false,
        freeOfChargeValue: 0,
      }),
    );
  });

  it('does not list a percepción as a charge: it is collected beside the importe total, never in it', () => {
    const withPerception = changed(
      ublText('factura-descuento-cargo.xml'),
      '  <cac:TaxTotal>',
      `  <cac:AllowanceCharge>
    <cbc:ChargeIndicator>true</cbc:ChargeIndicator>
    <cbc:AllowanceChargeReasonCode>51</cbc:AllowanceChargeReasonCode>
    <cbc:MultiplierFactorNumeric>0.02</cbc:MultiplierFactorNumeric>
    <cbc:Amount currencyID="PEN">224.60</cbc:Amount>
    <cbc:BaseAmount currencyID="PEN">11230.00</cbc:BaseAmount>
  </cac:AllowanceCharge>
  <cac:TaxTotal>`,
    );

    expect(readDocument(utf8(withPerception))).toMatchObject({
      charges: [{ code: '50', amount: 120 }],
      payableAmount: 11230,
    });
  });

  it('reads an anticipo deducted: its document, its amount, and the IGV on the reduced base', () => {
    const document = readDocument(utf8(ublText('factura-anticipo.xml')));

    expect(document).toEqual(
      parsedDocument({
        type: 'FACTURA',
        prefixId: 'F001',
        numericId: '00000604',
        issueDate: '2025-06-20',
        taxAmount: 720,
        // 5,900.00 of precio de venta less the 1,180.00 already billed and paid.
        payableAmount: 4720,
        paymentTerms: CONTADO,
        operationType: '0101',
        saleValue: 5000,
        taxes: { igv: 720, isc: 0, icbper: 0, other: 0 },
        // The global discount 04 is the same anticipo taken from the IGV base: shown once, as the anticipo.
        allowances: [],
        charges: [],
        prepaidAmount: 1180,
        prepayments: [{ documentId: 'F001-00000590', amount: 1180 }],
        freeOfCharge: false,
        freeOfChargeValue: 0,
      }),
    );
  });

  it("reads an anticipo's document from the payment's own cbc:ID, and none when nothing names it", () => {
    const xml = ublText('factura-anticipo.xml');
    const inPayment = changed(
      changed(xml, /<cac:AdditionalDocumentReference>[\s\S]*<\/cac:AdditionalDocumentReference>/, ''),
      '<cbc:ID schemeName="Anticipo" schemeAgencyName="PE:SUNAT">1</cbc:ID>',
      '<cbc:ID schemeID="02">F001-590</cbc:ID>',
    );
    const unnamed = changed(xml, /<cac:AdditionalDocumentReference>[\s\S]*<\/cac:AdditionalDocumentReference>/, '');

    expect(readDocument(utf8(inPayment)).prepayments).toEqual([{ documentId: 'F001-590', amount: 1180 }]);
    expect(readDocument(utf8(unnamed)).prepayments).toEqual([{ documentId: null, amount: 1180 }]);
  });

  it('reads an exportación in dollars: operation type 0200, the value under scheme 9995, no IGV', () => {
    const document = readDocument(utf8(ublText('factura-exportacion-usd.xml')));

    expect(document).toEqual(
      parsedDocument({
        type: 'FACTURA',
        prefixId: 'F001',
        numericId: '00000605',
        issueDate: '2025-06-24',
        currency: 'USD',
        customer: MINERA_PACIFICO_SUR,
        taxAmount: 0,
        payableAmount: 2450.5,
        paymentTerms: CONTADO,
        operationType: '0200',
        saleValue: 2450.5,
        taxes: { igv: 0, isc: 0, icbper: 0, other: 0 },
        ...NOTHING_DEDUCTED,
        freeOfCharge: false,
        freeOfChargeValue: 0,
      }),
    );
  });

  it('reads a factura in dollars al crédito in one cuota', () => {
    const document = readDocument(utf8(ublText('factura-usd-credito.xml')));

    expect(document).toEqual(
      parsedDocument({
        type: 'FACTURA',
        prefixId: 'F001',
        numericId: '00000606',
        issueDate: '2025-06-27',
        dueDates: ['2025-07-28'],
        currency: 'USD',
        taxAmount: 450,
        payableAmount: 2950,
        purchaseOrders: ['4500012606'],
        paymentTerms: {
          method: 'CREDITO',
          pendingAmount: 2950,
          installments: [{ id: 'Cuota001', amount: 2950, dueDate: '2025-07-28' }],
        },
        operationType: '0101',
        saleValue: 2500,
        taxes: { igv: 450, isc: 0, icbper: 0, other: 0 },
        ...NOTHING_DEDUCTED,
        freeOfCharge: false,
        freeOfChargeValue: 0,
      }),
    );
  });

  it('reads a recibo por honorarios of S/ 1,200.00 without retención: no IGV, the gross amount is paid', () => {
    const document = readDocument(latin1(ublText('recibo-honorarios-sin-retencion.xml', 'latin1')));

    expect(document).toEqual(
      parsedDocument({
        type: 'RECIBO_POR_HONORARIOS',
        ublVersion: '2.0',
        prefixId: 'E001',
        numericId: '31',
        issueDate: '2025-05-30',
        dueDates: ['2025-06-15'],
        supplier: QUISPE,
        customer: TRANSPORTES_INCA,
        taxAmount: 0,
        payableAmount: 1200,
        operationType: null,
        saleValue: 1200,
        taxes: { igv: 0, isc: 0, icbper: 0, other: 0 },
        ...NOTHING_DEDUCTED,
        freeOfCharge: false,
        freeOfChargeValue: 0,
      }),
    );
  });

  it('reads a recibo por honorarios with the 8 % retención: the gross honorarios and the net paid', () => {
    const document = readDocument(latin1(ublText('recibo-honorarios.xml', 'latin1')));

    expect(document).toMatchObject({
      type: 'RECIBO_POR_HONORARIOS',
      saleValue: 2000,
      incomeTaxWithholding: 160,
      payableAmount: 1840,
      taxes: { igv: 0, isc: 0, icbper: 0, other: 0 },
    });
  });

  it('reads the net paid of a recibo as the precio de venta less its retención, or less its deduction (rule 3280)', () => {
    // TaxInclusiveAmount is the gross; the retención is a total by kind (2002), or a deduction counted in the
    // discounts' total: either way the net paid adds up, and the deduction is not listed as a discount too.
    const additional = readDocument(latin1(ublText('recibo-honorarios-total-adicional.xml', 'latin1')));
    const deducted = readDocument(latin1(ublText('recibo-honorarios-descuento-retencion.xml', 'latin1')));

    expect(additional).toMatchObject({ saleValue: 4000, incomeTaxWithholding: 320, payableAmount: 3680 });
    expect(deducted).toMatchObject({ saleValue: 2200, incomeTaxWithholding: 176, payableAmount: 2024, allowances: [] });
  });

  it('lists a deduction of a recibo that has a catálogo 53 code as what its code says, not as the retención', () => {
    const xml = changed(
      ublText('recibo-honorarios-descuento-retencion.xml', 'latin1'),
      '<cbc:ChargeIndicator>false</cbc:ChargeIndicator>',
      '$&\n<cbc:AllowanceChargeReasonCode>03</cbc:AllowanceChargeReasonCode>',
    );

    // The net is still the gross less 8 %: that is the retención read, and the deduction is a discount besides.
    expect(readDocument(latin1(xml))).toMatchObject({
      incomeTaxWithholding: 176,
      allowances: [{ code: '03', amount: 176 }],
    });
  });

  it('reads a boleta to a group company identified by its RUC', () => {
    const document = readDocument(utf8(ublText('boleta-a-empresa.xml')));

    expect(document).toEqual(
      parsedDocument({
        type: 'BOLETA',
        prefixId: 'B002',
        numericId: '00000607',
        issueDate: '2025-07-01',
        supplier: FERRETERIA,
        customer: MINERA_PACIFICO_SUR,
        taxAmount: 27,
        payableAmount: 177,
        paymentTerms: CONTADO,
        operationType: '0101',
        saleValue: 150,
        taxes: { igv: 27, isc: 0, icbper: 0, other: 0 },
        ...NOTHING_DEDUCTED,
        freeOfCharge: false,
        freeOfChargeValue: 0,
      }),
    );
  });

  it('takes the operation type from cbc:ProfileID when the type code has no listID (the first UBL 2.1 documents)', () => {
    const xml = changed(ublText('factura-ubl21-credito.xml'), 'listID="1001" ', '');

    expect(readDocument(utf8(xml)).operationType).toBe('1001');
  });

  it('adds IVAP and otros tributos as other taxes', () => {
    const xml = changed(
      ublText('factura-isc-icbper.xml'),
      '<cbc:ID>7152</cbc:ID>\n          <cbc:Name>ICBPER</cbc:Name>',
      '<cbc:ID>9999</cbc:ID>\n          <cbc:Name>OTROS</cbc:Name>',
    );

    expect(readDocument(utf8(xml)).taxes).toEqual({ igv: 446.47, isc: 280, icbper: 0, other: 2 });
  });

  it('accepts an importe total within the unit SUNAT tolerates, and one with its rounding stated', () => {
    const xml = ublText('factura-isc-icbper.xml');
    const offByCents = changed(
      xml,
      '<cbc:PayableAmount currencyID="PEN">2928.87<',
      '<cbc:PayableAmount currencyID="PEN">2929.00<',
    );
    const rounded = changed(
      xml,
      '<cbc:PayableAmount currencyID="PEN">2928.87</cbc:PayableAmount>',
      '<cbc:PayableRoundingAmount currencyID="PEN">-0.87</cbc:PayableRoundingAmount><cbc:PayableAmount currencyID="PEN">2928.00</cbc:PayableAmount>',
    );

    expect(readDocument(utf8(offByCents)).payableAmount).toBe(2929);
    expect(readDocument(utf8(rounded)).payableAmount).toBe(2928);
  });

  it('reads a credit note of 0.00 (a correction of cuotas or of a description changes no amount)', () => {
    const note = changed(
      changed(
        ublText('nota-credito-ubl21.xml'),
        /(TaxInclusiveAmount currencyID="PEN">)1180.00/,
        (_, open: string) => `${open}0.00`,
      ),
      /(PayableAmount currencyID="PEN">)1180.00/,
      (_, open: string) => `${open}0.00`,
    );

    expect(readDocument(utf8(note))).toMatchObject({ type: 'NOTA_DE_CREDITO', payableAmount: 0, freeOfCharge: false });
  });
});

describe('parseSunatDocument: amounts that SUNAT would refuse are refused, in Spanish', () => {
  it('refuses an importe total that is not the precio de venta plus charges less discounts and anticipos (rule 3280)', () => {
    const xml = changed(
      ublText('factura-descuento-cargo.xml'),
      '<cbc:PayableAmount currencyID="PEN">11230.00<',
      '<cbc:PayableAmount currencyID="PEN">11330.00<',
    );

    expect(documentRefusal(utf8(xml))).toEqual({
      code: 'ERROR_XML_INCONSISTENT_AMOUNTS',
      parameters: { field: 'importe total', stated: 'S/ 11,330.00', computed: 'S/ 11,230.00' },
      message:
        'Los importes del XML no cuadran: el dato «importe total» dice S/ 11,330.00, pero los demás importes del comprobante dan S/ 11,230.00. SUNAT no acepta un comprobante así; solicite al emisor el XML correcto.',
    });
  });

  it('refuses a recibo whose net is neither its precio de venta nor that less its retención (rule 3280)', () => {
    const xml = changed(
      ublText('recibo-honorarios-total-adicional.xml', 'latin1'),
      '<cbc:PayableAmount currencyID="PEN">3680.00<',
      '<cbc:PayableAmount currencyID="PEN">3000.00<',
    );

    expect(documentRefusal(latin1(xml))).toMatchObject({
      code: 'ERROR_XML_INCONSISTENT_AMOUNTS',
      parameters: { field: 'importe total', stated: 'S/ 3,000.00', computed: 'S/ 4,000.00' },
    });
  });

  it('allows no retención off the importe total of a factura (rule 3280 as SUNAT applies it)', () => {
    // A factura's retención de renta in scheme 3000 is read, but its total is still the precio de venta.
    const withRenta = changed(
      ublText('factura-descuento-cargo.xml'),
      '</cac:TaxTotal>',
      '<cac:TaxSubtotal><cbc:TaxableAmount currencyID="PEN">9000.00</cbc:TaxableAmount>' +
        '<cbc:TaxAmount currencyID="PEN">900.00</cbc:TaxAmount><cac:TaxCategory><cac:TaxScheme>' +
        '<cbc:ID>3000</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal></cac:TaxTotal>',
    );
    const netOfRenta = changed(
      withRenta,
      '<cbc:PayableAmount currencyID="PEN">11230.00<',
      '<cbc:PayableAmount currencyID="PEN">10330.00<',
    );

    expect(readDocument(utf8(withRenta))).toMatchObject({
      type: 'FACTURA',
      incomeTaxWithholding: 900,
      payableAmount: 11230,
    });
    expect(documentRefusal(utf8(netOfRenta))).toMatchObject({
      code: 'ERROR_XML_INCONSISTENT_AMOUNTS',
      parameters: { stated: 'S/ 10,330.00', computed: 'S/ 11,230.00' },
    });
  });

  it('refuses an anticipos total that is not the sum of the anticipos (rule 2509)', () => {
    const xml = changed(
      ublText('factura-anticipo.xml'),
      '<cbc:PaidAmount currencyID="PEN">1180.00</cbc:PaidAmount>',
      '<cbc:PaidAmount currencyID="PEN">1000.00</cbc:PaidAmount>',
    );

    expect(documentRefusal(utf8(xml))).toMatchObject({
      code: 'ERROR_XML_INCONSISTENT_AMOUNTS',
      parameters: { field: 'total de anticipos', stated: 'S/ 1,180.00', computed: 'S/ 1,000.00' },
    });
  });

  it('refuses a factura whose every line is given free but which charges something', () => {
    const xml = changed(
      changed(
        ublText('factura-gratuita.xml'),
        /(TaxInclusiveAmount currencyID="PEN">)0.00/,
        (_, open: string) => `${open}472.00`,
      ),
      /(PayableAmount currencyID="PEN">)0.00/,
      (_, open: string) => `${open}472.00`,
    );

    expect(documentRefusal(utf8(xml))).toMatchObject({
      code: 'ERROR_XML_INCONSISTENT_AMOUNTS',
      parameters: { field: 'importe total', stated: 'S/ 472.00', computed: 'S/ 0.00' },
    });
  });

  it('refuses an importe total of 0.00 that the XML does not explain', () => {
    const xml = changed(
      changed(
        ublText('factura-usd-credito.xml'),
        /(TaxInclusiveAmount currencyID="USD">)2950.00/,
        (_, open: string) => `${open}0.00`,
      ),
      /(PayableAmount currencyID="USD">)2950.00/,
      (_, open: string) => `${open}0.00`,
    );

    expect(documentRefusal(utf8(xml))).toEqual({
      code: 'ERROR_XML_ZERO_TOTAL_UNEXPLAINED',
      parameters: {},
      message:
        'El importe total del comprobante es 0.00, pero el XML no lo declara como transferencia gratuita ni como cubierto por anticipos.',
    });
  });

  it('refuses negative amounts, naming them', () => {
    const negativeDiscount = changed(
      ublText('factura-descuento-cargo.xml'),
      '<cbc:Amount currencyID="PEN">500.00</cbc:Amount>',
      '<cbc:Amount currencyID="PEN">-500.00</cbc:Amount>',
    );
    const negativeTotal = changed(
      ublText('factura-usd-credito.xml'),
      '<cbc:PayableAmount currencyID="USD">2950.00<',
      '<cbc:PayableAmount currencyID="USD">-2950.00<',
    );

    expect(documentRefusal(utf8(negativeDiscount))).toEqual({
      code: 'ERROR_XML_NEGATIVE_AMOUNT',
      parameters: { field: 'monto del cargo o descuento global', amount: '-500.00' },
      message: 'El dato «monto del cargo o descuento global» del XML del comprobante no puede ser negativo (-500.00).',
    });
    expect(documentRefusal(utf8(negativeTotal)).parameters).toEqual({ field: 'importe total', amount: '-2950.00' });
  });

  it('refuses missing amounts of a discount, an anticipo or a tax, naming them', () => {
    const cases: [string, string][] = [
      [
        changed(ublText('factura-descuento-cargo.xml'), '<cbc:Amount currencyID="PEN">120.00</cbc:Amount>', ''),
        'monto del cargo o descuento global',
      ],
      [
        changed(ublText('factura-descuento-cargo.xml'), '<cbc:ChargeIndicator>true</cbc:ChargeIndicator>', ''),
        'indicador de cargo o descuento global',
      ],
      [
        changed(ublText('factura-anticipo.xml'), '<cbc:PaidAmount currencyID="PEN">1180.00</cbc:PaidAmount>', ''),
        'monto del anticipo',
      ],
      [
        changed(ublText('factura-isc-icbper.xml'), '<cbc:TaxAmount currencyID="PEN">280.00</cbc:TaxAmount>', ''),
        'monto del ISC',
      ],
    ];

    for (const [xml, field] of cases) {
      expect(documentRefusal(utf8(xml))).toMatchObject({
        code: 'ERROR_XML_MISSING_FIELD',
        parameters: { field },
        message: `Falta el dato «${field}» en el XML del comprobante.`,
      });
    }
  });

  it('refuses an operation type that is not a catálogo 51 code, and a discount that is neither charge nor discount', () => {
    const badType = changed(ublText('factura-isc-icbper.xml'), 'listID="0101"', 'listID="VENTA"');
    const badIndicator = changed(
      ublText('factura-descuento-cargo.xml'),
      '<cbc:ChargeIndicator>true</cbc:ChargeIndicator>',
      '<cbc:ChargeIndicator>quizás</cbc:ChargeIndicator>',
    );

    expect(documentRefusal(utf8(badType))).toMatchObject({
      code: 'ERROR_XML_INVALID_FIELD',
      parameters: { field: 'tipo de operación' },
    });
    expect(documentRefusal(utf8(badIndicator)).parameters).toEqual({ field: 'indicador de cargo o descuento global' });
  });

  it('refuses more global discounts and charges, or anticipos, than a document holds', () => {
    const discount =
      '<cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:AllowanceChargeReasonCode>03</cbc:AllowanceChargeReasonCode><cbc:Amount currencyID="PEN">1.00</cbc:Amount></cac:AllowanceCharge>';
    const payment =
      '<cac:PrepaidPayment><cbc:ID>9</cbc:ID><cbc:PaidAmount currencyID="PEN">1.00</cbc:PaidAmount></cac:PrepaidPayment>';
    const manyDiscounts = changed(
      ublText('factura-isc-icbper.xml'),
      '  <cac:TaxTotal>',
      `${discount.repeat(COUNT_LIMITS.allowanceCharges + 1)}<cac:TaxTotal>`,
    );
    const manyPayments = changed(
      ublText('factura-anticipo.xml'),
      '  <cac:PaymentTerms>',
      `${payment.repeat(COUNT_LIMITS.prepayments)}<cac:PaymentTerms>`,
    );

    expect(documentRefusal(utf8(manyDiscounts))).toMatchObject({
      code: 'ERROR_XML_TOO_MANY_ITEMS',
      parameters: { field: 'cargo o descuento global', limit: COUNT_LIMITS.allowanceCharges },
    });
    expect(documentRefusal(utf8(manyPayments))).toMatchObject({
      code: 'ERROR_XML_TOO_MANY_ITEMS',
      parameters: { field: 'anticipo', limit: COUNT_LIMITS.prepayments },
    });
  });
});

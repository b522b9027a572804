import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BadRequestError } from '@portal/shared';
import { deeplyNested, largeFactura, manyElements, oversized } from '../../../tests/fixtures/ubl/generate.js';
import { parseSunatDocument } from './parse.js';
import { ParsedDocument } from './parsed-document.js';
import { XML_LIMITS, screenXml } from './screen.js';
import { readXmlTree } from './xml-tree.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../../tests/fixtures/ubl');

function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(FIXTURES, name)));
}

function utf8Fixture(name: string): string {
  return readFileSync(path.join(FIXTURES, name), 'utf8');
}

function latin1Fixture(name: string): string {
  return readFileSync(path.join(FIXTURES, name), 'latin1');
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const latin1 = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));

/** The BadRequestError an action throws; fails the test if it throws nothing or something else. */
function refusal(action: () => unknown): BadRequestError {
  try {
    action();
  } catch (error) {
    if (error instanceof BadRequestError) return error;
    throw error;
  }
  throw new Error('expected a BadRequestError, nothing was thrown');
}

function read(bytes: Uint8Array): ParsedDocument {
  const document = parseSunatDocument(bytes);
  // Whatever the parser returns honours the contract other modules rely on.
  expect(ParsedDocument.parse(document)).toEqual(document);
  return document;
}

const CORPORACION_ANDINA = { taxId: '20100070970', taxIdType: '6', name: 'CORPORACIÓN ANDINA DE ALIMENTOS S.A.A.' };
const SERVICIOS_INDUSTRIALES = { taxId: '20456178325', taxIdType: '6', name: 'SERVICIOS INDUSTRIALES LIMA S.A.C.' };

/** What a document with nothing beyond its IGV reads (issue 21): no other tax, discount, charge or anticipo. */
function igvOnly(igv: number, saleValue: number | null, operationType: string | null) {
  return {
    operationType,
    saleValue,
    taxes: { igv, isc: 0, icbper: 0, other: 0 },
    allowances: [],
    charges: [],
    prepaidAmount: 0,
    prepayments: [],
    freeOfCharge: false,
    freeOfChargeValue: 0,
  };
}

describe('parseSunatDocument: the corpus is read exactly', () => {
  it('reads a UBL 2.1 factura with IGV 18 %, a purchase order and credit in two cuotas', () => {
    const document = read(fixture('factura-ubl21-credito.xml'));

    expect(document).toEqual({
      type: 'FACTURA',
      ublVersion: '2.1',
      prefixId: 'F001',
      numericId: '00000458',
      issueDate: '2025-03-14',
      dueDates: ['2025-04-13', '2025-05-13'],
      currency: 'PEN',
      supplier: SERVICIOS_INDUSTRIALES,
      customer: CORPORACION_ANDINA,
      taxAmount: 1800,
      incomeTaxWithholding: 0,
      payableAmount: 11800,
      purchaseOrders: ['4500012345'],
      billingReference: null,
      paymentTerms: {
        method: 'CREDITO',
        // Net of the 12 % detracción, as SUNAT requires; the Detraccion payment terms are not a forma de pago.
        pendingAmount: 10384,
        installments: [
          { id: 'Cuota001', amount: 5192, dueDate: '2025-04-13' },
          { id: 'Cuota002', amount: 5192, dueDate: '2025-05-13' },
        ],
      },
      ...igvOnly(1800, 10000, '1001'),
      // Operation type 1001 (catálogo 51), service 037 (catálogo 54) at 12 %, the deposit in soles.
      detraction: {
        operationType: '1001',
        code: '037',
        percent: 12,
        amount: 1416,
        currency: 'PEN',
        account: '00-068-123456',
      },
    });
  });

  it('reads a boleta to a customer identified by DNI, paid in cash', () => {
    const document = read(fixture('boleta-ubl21.xml'));

    expect(document).toEqual({
      type: 'BOLETA',
      ublVersion: '2.1',
      prefixId: 'B001',
      numericId: '00012045',
      issueDate: '2025-02-03',
      dueDates: [],
      currency: 'PEN',
      supplier: { taxId: '20608172352', taxIdType: '6', name: 'FERRETERÍA EL CONSTRUCTOR E.I.R.L.' },
      // The name is spread over lines in the XML; runs of whitespace become one space.
      customer: { taxId: '45678912', taxIdType: '1', name: 'JUAN CARLOS PÉREZ ROJAS' },
      taxAmount: 36,
      incomeTaxWithholding: 0,
      payableAmount: 236,
      purchaseOrders: [],
      billingReference: null,
      paymentTerms: { method: 'CONTADO', pendingAmount: null, installments: [] },
      ...igvOnly(36, 200, '0101'),
    });
  });

  it('reads a credit note and the factura it modifies, whatever prefixes its namespaces use', () => {
    const document = read(fixture('nota-credito-ubl21.xml'));

    expect(document).toEqual({
      type: 'NOTA_DE_CREDITO',
      ublVersion: '2.1',
      prefixId: 'FC01',
      numericId: '00000012',
      issueDate: '2025-03-28',
      dueDates: [],
      currency: 'PEN',
      supplier: SERVICIOS_INDUSTRIALES,
      customer: CORPORACION_ANDINA,
      taxAmount: 180,
      incomeTaxWithholding: 0,
      payableAmount: 1180,
      purchaseOrders: [],
      billingReference: {
        prefixId: 'F001',
        numericId: '00000458',
        typeCode: '01',
        reasonCode: '07',
        reasonDescription: 'DEVOLUCIÓN POR ÍTEM: SERVICIO NO PRESTADO EN SU TOTALIDAD',
      },
      paymentTerms: null,
      ...igvOnly(180, 1000, null),
    });
  });

  it('reads a debit note, whose total is the requested monetary total', () => {
    const document = read(fixture('nota-debito-ubl21.xml'));

    expect(document).toEqual({
      type: 'NOTA_DE_DEBITO',
      ublVersion: '2.1',
      prefixId: 'FD01',
      numericId: '00000003',
      issueDate: '2025-06-02',
      dueDates: [],
      currency: 'PEN',
      supplier: SERVICIOS_INDUSTRIALES,
      customer: CORPORACION_ANDINA,
      taxAmount: 9,
      incomeTaxWithholding: 0,
      payableAmount: 59,
      purchaseOrders: [],
      billingReference: {
        prefixId: 'F001',
        numericId: '00000458',
        typeCode: '01',
        reasonCode: '01',
        reasonDescription: 'INTERESES POR MORA EN EL PAGO DE LA CUOTA 002',
      },
      paymentTerms: null,
      ...igvOnly(9, 50, null),
    });
  });

  it('reads a UBL 2.0 factura in ISO-8859-1 with the parties in CustomerAssignedAccountID', () => {
    const bytes = fixture('factura-ubl20-latin1.xml');
    // The fixture really is Latin-1: "í" is the single byte 0xED, which is not UTF-8.
    expect(bytes.includes(0xed)).toBe(true);
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow();

    const document = read(bytes);

    expect(document).toEqual({
      // No InvoiceTypeCode in this 2.0 document: the F series makes it a factura.
      type: 'FACTURA',
      ublVersion: '2.0',
      prefixId: 'F002',
      numericId: '00003871',
      issueDate: '2018-10-31',
      dueDates: ['2018-11-30'],
      currency: 'PEN',
      supplier: { taxId: '20608172352', taxIdType: '6', name: 'Ferretería El Constructor E.I.R.L.' },
      customer: { taxId: '20603415800', taxIdType: '6', name: 'Minera Pacífico Sur S.A.' },
      taxAmount: 585,
      incomeTaxWithholding: 0,
      payableAmount: 3835,
      purchaseOrders: ['4500007781'],
      billingReference: null,
      paymentTerms: null,
      ...igvOnly(585, null, null),
    });
  });

  it('takes the currency from the amounts when DocumentCurrencyCode is absent, and POs from document references', () => {
    const document = read(fixture('factura-sin-moneda.xml'));

    expect(document).toEqual({
      type: 'FACTURA',
      ublVersion: '2.1',
      prefixId: 'E001',
      numericId: '245',
      issueDate: '2025-01-20',
      dueDates: [],
      currency: 'USD',
      // Both parties in the PartyTaxScheme layout.
      supplier: { taxId: '20490123459', taxIdType: '6', name: 'CONSULTORES TRIBUTARIOS ASOCIADOS S.R.L.' },
      customer: { taxId: '20512334891', taxIdType: '6', name: 'TRANSPORTES Y LOGÍSTICA INCA S.A.C.' },
      taxAmount: 450,
      incomeTaxWithholding: 0,
      payableAmount: 2950,
      // The contract (catálogo 12 code 99) is not a purchase order.
      purchaseOrders: ['OC-2025-0117', '4500013002'],
      billingReference: null,
      paymentTerms: { method: 'CONTADO', pendingAmount: null, installments: [] },
      ...igvOnly(450, 2500, '0101'),
    });
  });

  it('reads the IGV as written at a 10 % rate: 18 % is never assumed', () => {
    const document = read(fixture('factura-igv-10-restaurante.xml'));

    expect(document).toEqual({
      type: 'FACTURA',
      ublVersion: '2.1',
      prefixId: 'F003',
      numericId: '00001234',
      issueDate: '2025-05-09',
      dueDates: [],
      currency: 'PEN',
      supplier: { taxId: '20601234565', taxIdType: '6', name: 'RESTAURANTE LA SAZÓN CRIOLLA S.A.C.' },
      customer: CORPORACION_ANDINA,
      taxAmount: 50,
      incomeTaxWithholding: 0,
      payableAmount: 550,
      purchaseOrders: [],
      billingReference: null,
      paymentTerms: { method: 'CONTADO', pendingAmount: null, installments: [] },
      ...igvOnly(50, 500, '0101'),
    });
  });

  it('reads an IGV of 0 when the sale is exonerated (no scheme 1000 subtotal)', () => {
    const document = read(fixture('factura-exonerada.xml'));

    expect(document).toEqual({
      type: 'FACTURA',
      ublVersion: '2.1',
      prefixId: 'F005',
      numericId: '00000077',
      issueDate: '2024-12-30',
      // cbc:DueDate and the single cuota fall on the same day: listed once.
      dueDates: ['2025-01-29'],
      currency: 'PEN',
      supplier: { taxId: '20608172352', taxIdType: '6', name: 'FERRETERÍA EL CONSTRUCTOR E.I.R.L.' },
      customer: { taxId: '20603415800', taxIdType: '6', name: 'MINERA PACÍFICO SUR S.A.' },
      taxAmount: 0,
      incomeTaxWithholding: 0,
      payableAmount: 1000,
      purchaseOrders: [],
      billingReference: null,
      paymentTerms: {
        method: 'CREDITO',
        pendingAmount: 1000,
        installments: [{ id: 'Cuota001', amount: 1000, dueDate: '2025-01-29' }],
      },
      ...igvOnly(0, 1000, '0101'),
    });
  });

  it('reads a recibo por honorarios with its retención de 4ta categoría', () => {
    const document = read(fixture('recibo-honorarios.xml'));

    expect(document).toEqual({
      type: 'RECIBO_POR_HONORARIOS',
      ublVersion: '2.0',
      prefixId: 'E001',
      numericId: '27',
      issueDate: '2025-04-30',
      dueDates: ['2025-05-15'],
      currency: 'PEN',
      // PartyName is all a person has; there is no legal entity.
      supplier: { taxId: '10456789019', taxIdType: '6', name: 'QUISPE MAMANI ROSA ELENA' },
      customer: { taxId: '20512334891', taxIdType: '6', name: 'TRANSPORTES Y LOGÍSTICA INCA S.A.C.' },
      taxAmount: 0,
      incomeTaxWithholding: 160,
      payableAmount: 1840,
      purchaseOrders: [],
      billingReference: null,
      paymentTerms: null,
      ...igvOnly(0, 2000, null),
    });
  });

  it('reads a 2,000-line factura of about 1 MB', () => {
    const { bytes, taxAmount, payableAmount } = largeFactura(2000);
    expect(bytes.length).toBeGreaterThan(1_000_000);

    const document = read(bytes);

    expect(document).toMatchObject({
      type: 'FACTURA',
      prefixId: 'F001',
      numericId: '00099999',
      taxAmount,
      payableAmount,
      purchaseOrders: ['4500099999'],
    });
  });
});

describe('parseSunatDocument: layouts and encodings', () => {
  const latin1Factura = latin1Fixture('factura-ubl20-latin1.xml');
  const recibo = latin1Fixture('recibo-honorarios.xml');

  it('reads the same document in UTF-8 with a byte order mark', () => {
    const asUtf8 = latin1Factura.replace('encoding="ISO-8859-1"', 'encoding="UTF-8"');

    const document = read(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(asUtf8)]));

    expect(document).toEqual(read(fixture('factura-ubl20-latin1.xml')));
  });

  it('refuses Latin-1 bytes declared as UTF-8 rather than guess', () => {
    const mislabelled = latin1(latin1Factura.replace('encoding="ISO-8859-1"', 'encoding="UTF-8"'));

    expect(refusal(() => parseSunatDocument(mislabelled)).code).toBe('ERROR_XML_MALFORMED');
  });

  it('refuses an encoding SUNAT does not use', () => {
    const shiftJis = latin1(latin1Factura.replace('encoding="ISO-8859-1"', 'encoding="Shift_JIS"'));

    expect(refusal(() => parseSunatDocument(shiftJis)).code).toBe('ERROR_XML_MALFORMED');
  });

  it('infers a boleta from a B series when a 2.0 document has no InvoiceTypeCode', () => {
    const boleta = latin1(latin1Factura.replace('F002-00003871', 'B002-00003871'));

    expect(read(boleta)).toMatchObject({ type: 'BOLETA', prefixId: 'B002' });
  });

  it('reads a recibo por honorarios typed R1, or with no type code but a retención', () => {
    const typedR1 = recibo.replace(/(<cbc:InvoiceTypeCode[^>]*>)02</, '$1R1<');
    const untyped = recibo.replace(/<cbc:InvoiceTypeCode[^>]*>02<\/cbc:InvoiceTypeCode>/, '');
    expect(untyped).not.toContain('InvoiceTypeCode');

    expect(read(latin1(typedR1)).type).toBe('RECIBO_POR_HONORARIOS');
    expect(read(latin1(untyped)).type).toBe('RECIBO_POR_HONORARIOS');
  });

  it('reads an E001 document without type code or retención, from a company with IGV, as a factura', () => {
    const solFactura = latin1Factura.replace('F002-00003871', 'E001-00003871');

    expect(read(latin1(solFactura)).type).toBe('FACTURA');
  });
});

describe('parseSunatDocument: documents that are not what the portal reads', () => {
  const factura = utf8Fixture('factura-ubl21-credito.xml');

  it('refuses a currency other than PEN or USD, naming it', () => {
    const euros = factura.replace(/(<cbc:DocumentCurrencyCode[^>]*>)PEN</, '$1EUR<');

    const error = refusal(() => parseSunatDocument(utf8(euros)));

    expect(error.code).toBe('ERROR_XML_UNSUPPORTED_CURRENCY');
    expect(error.statusCode).toBe(400);
    expect(error.errors[0]!.parameters).toEqual({ currency: 'EUR' });
    expect(error.message).toBe(
      'La moneda EUR no está permitida; solo se aceptan comprobantes en soles (PEN) o dólares (USD).',
    );
  });

  it('refuses a total in a currency other than the document currency', () => {
    const mixed = factura.replace('<cbc:PayableAmount currencyID="PEN">', '<cbc:PayableAmount currencyID="USD">');

    const error = refusal(() => parseSunatDocument(utf8(mixed)));

    expect(error.code).toBe('ERROR_XML_INVALID_FIELD');
    expect(error.errors[0]!.parameters).toEqual({ field: 'moneda' });
  });

  it('names a missing field in Spanish', () => {
    const undated = factura.replace('<cbc:IssueDate>2025-03-14</cbc:IssueDate>', '');

    const error = refusal(() => parseSunatDocument(utf8(undated)));

    expect(error.code).toBe('ERROR_XML_MISSING_FIELD');
    expect(error.errors[0]!.parameters).toEqual({ field: 'fecha de emisión' });
    expect(error.message).toBe('Falta el dato «fecha de emisión» en el XML del comprobante.');
  });

  it('refuses a note that does not say which document it modifies', () => {
    const note = utf8Fixture('nota-debito-ubl21.xml')
      .replace(/<cac:DiscrepancyResponse>[\s\S]*<\/cac:DiscrepancyResponse>/, '')
      .replace(/<cac:BillingReference>[\s\S]*<\/cac:BillingReference>/, '');

    const error = refusal(() => parseSunatDocument(utf8(note)));

    expect(error.code).toBe('ERROR_XML_MISSING_FIELD');
    expect(error.errors[0]!.parameters).toEqual({ field: 'comprobante que se modifica' });
  });

  it('refuses an amount that is not a plain decimal number', () => {
    const formatted = factura.replace('>11800.00</cbc:PayableAmount>', '>11,800.00</cbc:PayableAmount>');

    const error = refusal(() => parseSunatDocument(utf8(formatted)));

    expect(error.code).toBe('ERROR_XML_INVALID_FIELD');
    expect(error.errors[0]!.parameters).toEqual({ field: 'importe total' });
  });

  it('refuses a supplier RUC whose check digit is wrong', () => {
    const forged = factura.replace(/>20456178325</g, '>20456178326<');

    const error = refusal(() => parseSunatDocument(utf8(forged)));

    expect(error.code).toBe('ERROR_XML_INVALID_FIELD');
    expect(error.errors[0]!.parameters).toEqual({ field: 'RUC del emisor' });
  });

  it('refuses an impossible date', () => {
    const february30 = factura.replace('<cbc:IssueDate>2025-03-14<', '<cbc:IssueDate>2025-02-30<');

    const error = refusal(() => parseSunatDocument(utf8(february30)));

    expect(error.code).toBe('ERROR_XML_INVALID_FIELD');
    expect(error.errors[0]!.parameters).toEqual({ field: 'fecha de emisión' });
  });

  it('refuses other SUNAT documents and other invoice types', () => {
    const liquidacion = factura.replace(/(<cbc:InvoiceTypeCode[^>]*>)01</, (_, open: string) => `${open}04<`);

    expect(refusal(() => parseSunatDocument(fixture('not-a-sunat-document.xml'))).code).toBe(
      'ERROR_XML_UNSUPPORTED_DOCUMENT',
    );
    expect(refusal(() => parseSunatDocument(utf8(liquidacion))).code).toBe('ERROR_XML_UNSUPPORTED_DOCUMENT');
  });

  it('matches elements by namespace URI, not by prefix', () => {
    const wrongRoot = factura.replace(
      'xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"',
      'xmlns="urn:example:not-ubl:Invoice"',
    );
    const wrongCbc = factura.replace(
      'xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"',
      'xmlns:cbc="urn:example:not-ubl:basic"',
    );

    expect(refusal(() => parseSunatDocument(utf8(wrongRoot))).code).toBe('ERROR_XML_UNSUPPORTED_DOCUMENT');
    // Every cbc: element is now foreign: the first field read is missing.
    expect(refusal(() => parseSunatDocument(utf8(wrongCbc))).errors[0]!.parameters).toEqual({
      field: 'serie y número',
    });
  });
});

describe('parseSunatDocument: hostile files are refused', () => {
  it.each([['billion-laughs.xml'], ['xxe.xml'], ['xxe-parameter-entity.xml']])(
    '%s: any DOCTYPE is refused by the screen, before an XML parser sees it',
    (name) => {
      const bytes = fixture(name);

      expect(refusal(() => screenXml(bytes)).code).toBe('ERROR_XML_FORBIDDEN_CONTENT');
      expect(refusal(() => parseSunatDocument(bytes)).code).toBe('ERROR_XML_FORBIDDEN_CONTENT');
    },
  );

  it('refuses a DOCTYPE in the parser too, should it ever be called without the screen', () => {
    const text = utf8Fixture('billion-laughs.xml');

    const error = refusal(() => readXmlTree(text, { maxDepth: 64, maxElements: 1000 }));

    expect(error.code).toBe('ERROR_XML_FORBIDDEN_CONTENT');
  });

  it('refuses an entity reference without a DTD: nothing but the predefined entities is expanded', () => {
    const nbsp = utf8Fixture('boleta-ubl21.xml').replace('CANDADO DE BRONCE', 'CANDADO&nbsp;DE BRONCE');

    expect(refusal(() => parseSunatDocument(utf8(nbsp))).code).toBe('ERROR_XML_MALFORMED');
  });

  it('refuses a file over 5 MB by its size alone, before decoding it', () => {
    const bytes = oversized(6 * 1024 * 1024);

    const error = refusal(() => screenXml(bytes));

    expect(error.code).toBe('ERROR_XML_TOO_LARGE');
    expect(error.errors[0]!.parameters).toEqual({ limit: '5 MB' });
    expect(refusal(() => parseSunatDocument(bytes)).code).toBe('ERROR_XML_TOO_LARGE');
  });

  it.each([['plain-text.xml'], ['pdf-renamed.xml']])('%s: refused by the screen as not XML', (name) => {
    const bytes = fixture(name);

    expect(refusal(() => screenXml(bytes)).code).toBe('ERROR_XML_MALFORMED');
    expect(refusal(() => parseSunatDocument(bytes)).message).toBe('El archivo no es un XML válido.');
  });

  it('refuses a truncated document', () => {
    expect(refusal(() => parseSunatDocument(fixture('truncated.xml'))).code).toBe('ERROR_XML_MALFORMED');
  });

  it('refuses 10,000 levels of nesting at the 65th level, without reading further', () => {
    // Proof the marker works: reached, it makes the document malformed.
    expect(refusal(() => parseSunatDocument(deeplyNested(10))).code).toBe('ERROR_XML_MALFORMED');

    const error = refusal(() => parseSunatDocument(deeplyNested(10_000)));

    // Refused as too deep, not as malformed: the parser stopped long before the marker at the bottom.
    expect(error.code).toBe('ERROR_XML_TOO_DEEP');
    expect(error.errors[0]!.parameters).toEqual({ limit: XML_LIMITS.maxDepth });
  });

  it('refuses a document with more elements than the bound, at the first one past it', () => {
    // The root and 100 notes: 101 elements, at the bound. Past the last one sits the malformed marker.
    const bound = { maxDepth: XML_LIMITS.maxDepth, maxElements: 101 };
    expect(refusal(() => readXmlTree(new TextDecoder().decode(manyElements(100)), bound)).code).toBe(
      'ERROR_XML_MALFORMED',
    );

    const error = refusal(() => readXmlTree(new TextDecoder().decode(manyElements(101)), bound));

    expect(error.code).toBe('ERROR_XML_TOO_LARGE');
    expect(error.errors[0]!.parameters).toEqual({ limit: '101 elementos' });
  });

  it('applies the element bound to whole documents', () => {
    const error = refusal(() => parseSunatDocument(manyElements(XML_LIMITS.maxElements)));

    expect(error.code).toBe('ERROR_XML_TOO_LARGE');
  });
});

describe("parseSunatDocument: a note's reason (issue 21)", () => {
  const note = utf8Fixture('nota-credito-ubl21.xml');

  it('reads a note without a reason as such, and refuses a description beyond SUNAT’s 500 characters', () => {
    const silent = note.replace(/<agg:DiscrepancyResponse>[\s\S]*<\/agg:DiscrepancyResponse>/, '');
    expect(read(utf8(silent)).billingReference).toMatchObject({
      reasonCode: null,
      reasonDescription: null,
    });

    const long = note.replace(/(<basic:Description>)[^<]*(<\/basic:Description>)/, `$1${'A'.repeat(501)}$2`);
    const error = refusal(() => parseSunatDocument(utf8(long)));
    expect(error.code).toBe('ERROR_XML_FIELD_TOO_LONG');
    expect(error.errors[0]!.parameters).toEqual({ field: 'motivo de la nota', limit: 500 });
  });
});

describe('parseSunatDocument: the detracción (SPOT)', () => {
  const factura = utf8Fixture('factura-ubl21-credito.xml');
  const detractionTerms = /<cac:PaymentTerms>\s*<cbc:ID>Detraccion<\/cbc:ID>[\s\S]*?<\/cac:PaymentTerms>/;

  it('is absent from an operation that is not subject to it', () => {
    const plain = factura.replace(detractionTerms, '').replace('listID="1001"', 'listID="0101"');

    expect(read(utf8(plain)).detraction).toBeUndefined();
  });

  it('reads a percentage with decimals', () => {
    const dollars = factura
      .replace('<cbc:PaymentPercent>12</cbc:PaymentPercent>', '<cbc:PaymentPercent>1.50</cbc:PaymentPercent>')
      .replace('<cbc:Amount currencyID="PEN">1416.00</cbc:Amount>', '<cbc:Amount currencyID="PEN">177.00</cbc:Amount>');

    expect(read(utf8(dollars)).detraction).toMatchObject({ percent: 1.5, amount: 177, currency: 'PEN' });
  });

  it('refuses an operation type of the SPOT without its detracción', () => {
    const error = refusal(() => parseSunatDocument(utf8(factura.replace(detractionTerms, ''))));

    expect(error.code).toBe('ERROR_XML_MISSING_FIELD');
    expect(error.errors[0]!.parameters).toEqual({ field: 'detracción' });
  });

  it.each([
    [
      'a code that is not catálogo 54’s three digits',
      ['>037</cbc:PaymentMeansID>', '>37A</cbc:PaymentMeansID>'],
      'código de bien o servicio sujeto a detracción',
    ],
    ['a percentage above 100', ['<cbc:PaymentPercent>12<', '<cbc:PaymentPercent>120<'], 'porcentaje de detracción'],
    ['a percentage of zero', ['<cbc:PaymentPercent>12<', '<cbc:PaymentPercent>0<'], 'porcentaje de detracción'],
    [
      'an amount in euros',
      ['<cbc:Amount currencyID="PEN">1416.00', '<cbc:Amount currencyID="EUR">1416.00'],
      'monto de la detracción',
    ],
  ])('refuses %s', (_, [from, to], field) => {
    const error = refusal(() => parseSunatDocument(utf8(factura.replace(from!, to!))));

    expect(error.code).toBe('ERROR_XML_INVALID_FIELD');
    expect(error.errors[0]!.parameters).toEqual({ field });
  });
});

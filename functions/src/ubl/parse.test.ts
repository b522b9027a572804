import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BadRequestError } from '@portal/shared';
import { deeplyNested, largeFactura, manyElements, oversized } from '../../../tests/fixtures/ubl/generate.js';
import { parseSunatDocument } from './parse.js';
import { isUnreadContent } from './read-document.js';
import type { ParsedDocument } from './parsed-document.js';
import { XML_LIMITS, screenXml } from './screen.js';
import {
  CONTADO,
  SERVICIOS_INDUSTRIALES,
  FERRETERIA,
  QUISPE,
  TRANSPORTES_INCA,
  UBL_FIXTURES,
  igvOnly,
  latin1,
  parsedDocument,
  readDocument,
  ublFixture,
  ublText,
  utf8,
} from './ubl-documents.fake.js';
import { readXmlTree } from './xml-tree.js';

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

describe('parseSunatDocument: the corpus is read exactly', () => {
  it.each<[string, string, ParsedDocument]>([
    [
      'reads a UBL 2.1 factura with IGV 18 %, a purchase order and credit in two cuotas',
      'factura-ubl21-credito.xml',
      parsedDocument({
        type: 'FACTURA',
        prefixId: 'F001',
        numericId: '00000458',
        issueDate: '2025-03-14',
        dueDates: ['2025-04-13', '2025-05-13'],
        taxAmount: 1800,
        payableAmount: 11800,
        purchaseOrders: ['4500012345'],
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
      }),
    ],
    [
      'reads a boleta to a customer identified by DNI, paid in cash',
      'boleta-ubl21.xml',
      parsedDocument({
        type: 'BOLETA',
        prefixId: 'B001',
        numericId: '00012045',
        issueDate: '2025-02-03',
        supplier: FERRETERIA,
        // The name is spread over lines in the XML; runs of whitespace become one space.
        customer: { taxId: '45678912', taxIdType: '1', name: 'JUAN CARLOS PÉREZ ROJAS' },
        taxAmount: 36,
        payableAmount: 236,
        paymentTerms: CONTADO,
        ...igvOnly(36, 200, '0101'),
      }),
    ],
    [
      'reads a credit note and the factura it modifies, whatever prefixes its namespaces use',
      'nota-credito-ubl21.xml',
      parsedDocument({
        type: 'NOTA_DE_CREDITO',
        prefixId: 'FC01',
        numericId: '00000012',
        issueDate: '2025-03-28',
        taxAmount: 180,
        payableAmount: 1180,
        billingReference: {
          prefixId: 'F001',
          numericId: '00000458',
          typeCode: '01',
          reasonCode: '07',
          reasonDescription: 'DEVOLUCIÓN POR ÍTEM: SERVICIO NO PRESTADO EN SU TOTALIDAD',
        },
        ...igvOnly(180, 1000, null),
      }),
    ],
    [
      'reads a debit note, whose total is the requested monetary total',
      'nota-debito-ubl21.xml',
      parsedDocument({
        type: 'NOTA_DE_DEBITO',
        prefixId: 'FD01',
        numericId: '00000003',
        issueDate: '2025-06-02',
        taxAmount: 9,
        payableAmount: 59,
        billingReference: {
          prefixId: 'F001',
          numericId: '00000458',
          typeCode: '01',
          reasonCode: '01',
          reasonDescription: 'INTERESES POR MORA EN EL PAGO DE LA CUOTA 002',
        },
        ...igvOnly(9, 50, null),
      }),
    ],
    [
      'takes the currency from the amounts when DocumentCurrencyCode is absent, and POs from document references',
      'factura-sin-moneda.xml',
      parsedDocument({
        type: 'FACTURA',
        prefixId: 'E001',
        numericId: '245',
        issueDate: '2025-01-20',
        currency: 'USD',
        // Both parties in the PartyTaxScheme layout.
        supplier: { taxId: '20490123459', taxIdType: '6', name: 'CONSULTORES TRIBUTARIOS ASOCIADOS S.R.L.' },
        customer: TRANSPORTES_INCA,
        taxAmount: 450,
        payableAmount: 2950,
        // The contract (catálogo 12 code 99) is not a purchase order.
        purchaseOrders: ['OC-2025-0117', '4500013002'],
        paymentTerms: CONTADO,
        ...igvOnly(450, 2500, '0101'),
      }),
    ],
    [
      'reads the IGV as written at a 10 % rate: 18 % is never assumed',
      'factura-igv-10-restaurante.xml',
      parsedDocument({
        type: 'FACTURA',
        prefixId: 'F003',
        numericId: '00001234',
        issueDate: '2025-05-09',
        supplier: { taxId: '20601234565', taxIdType: '6', name: 'RESTAURANTE LA SAZÓN CRIOLLA S.A.C.' },
        taxAmount: 50,
        payableAmount: 550,
        paymentTerms: CONTADO,
        ...igvOnly(50, 500, '0101'),
      }),
    ],
    [
      'reads an IGV of 0 when the sale is exonerated (no scheme 1000 subtotal)',
      'factura-exonerada.xml',
      parsedDocument({
        type: 'FACTURA',
        prefixId: 'F005',
        numericId: '00000077',
        issueDate: '2024-12-30',
        // cbc:DueDate and the single cuota fall on the same day: listed once.
        dueDates: ['2025-01-29'],
        supplier: FERRETERIA,
        customer: { taxId: '20603415800', taxIdType: '6', name: 'MINERA PACÍFICO SUR S.A.' },
        taxAmount: 0,
        payableAmount: 1000,
        paymentTerms: {
          method: 'CREDITO',
          pendingAmount: 1000,
          installments: [{ id: 'Cuota001', amount: 1000, dueDate: '2025-01-29' }],
        },
        ...igvOnly(0, 1000, '0101'),
      }),
    ],
    [
      'reads a recibo por honorarios with its retención de 4ta categoría',
      'recibo-honorarios.xml',
      parsedDocument({
        type: 'RECIBO_POR_HONORARIOS',
        ublVersion: '2.0',
        prefixId: 'E001',
        numericId: '27',
        issueDate: '2025-04-30',
        dueDates: ['2025-05-15'],
        // PartyName is all a person has; there is no legal entity.
        supplier: QUISPE,
        customer: TRANSPORTES_INCA,
        taxAmount: 0,
        incomeTaxWithholding: 160,
        payableAmount: 1840,
        ...igvOnly(0, 2000, null),
      }),
    ],
  ])('%s', (_title, name, expected) => {
    expect(readDocument(ublFixture(name))).toEqual(expected);
  });

  it('reads a UBL 2.0 factura in ISO-8859-1 with the parties in CustomerAssignedAccountID', () => {
    const bytes = ublFixture('factura-ubl20-latin1.xml');
    // The fixture really is Latin-1: "í" is the single byte 0xED, which is not UTF-8.
    expect(bytes.includes(0xed)).toBe(true);
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow();

    const document = readDocument(bytes);

    expect(document).toEqual(
      parsedDocument({
        // No InvoiceTypeCode in this 2.0 document: the F series makes it a factura.
        type: 'FACTURA',
        ublVersion: '2.0',
        prefixId: 'F002',
        numericId: '00003871',
        issueDate: '2018-10-31',
        dueDates: ['2018-11-30'],
        supplier: { taxId: '20608172352', taxIdType: '6', name: 'Ferretería El Constructor E.I.R.L.' },
        customer: { taxId: '20603415800', taxIdType: '6', name: 'Minera Pacífico Sur S.A.' },
        taxAmount: 585,
        payableAmount: 3835,
        purchaseOrders: ['4500007781'],
        ...igvOnly(585, null, null),
      }),
    );
  });

  it('reads a 2,000-line factura of about 1 MB', () => {
    const { bytes, taxAmount, payableAmount } = largeFactura(2000);
    expect(bytes.length).toBeGreaterThan(1_000_000);

    const document = readDocument(bytes);

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
  const latin1Factura = ublText('factura-ubl20-latin1.xml', 'latin1');
  const recibo = ublText('recibo-honorarios.xml', 'latin1');

  it('reads the same document in UTF-8 with a byte order mark', () => {
    const asUtf8 = latin1Factura.replace('encoding="ISO-8859-1"', 'encoding="UTF-8"');

    const document = readDocument(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(asUtf8)]));

    expect(document).toEqual(readDocument(ublFixture('factura-ubl20-latin1.xml')));
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

    expect(readDocument(boleta)).toMatchObject({ type: 'BOLETA', prefixId: 'B002' });
  });

  it('reads a recibo por honorarios typed R1, or with no type code but a retención', () => {
    const typedR1 = recibo.replace(/(<cbc:InvoiceTypeCode[^>]*>)02</, '$1R1<');
    const untyped = recibo.replace(/<cbc:InvoiceTypeCode[^>]*>02<\/cbc:InvoiceTypeCode>/, '');
    expect(untyped).not.toContain('InvoiceTypeCode');

    expect(readDocument(latin1(typedR1)).type).toBe('RECIBO_POR_HONORARIOS');
    expect(readDocument(latin1(untyped)).type).toBe('RECIBO_POR_HONORARIOS');
  });

  it('reads an E001 document without type code or retención, from a company with IGV, as a factura', () => {
    const solFactura = latin1Factura.replace('F002-00003871', 'E001-00003871');

    expect(readDocument(latin1(solFactura)).type).toBe('FACTURA');
  });
});

describe("parseSunatDocument: a recibo por honorarios typed with a factura's code (01)", () => {
  // SEE-SOL may write '01' on a recibo por honorarios electrónico: the series (E001), the issuer (a RUC 10), the
  // IGV it does not charge and the retención it states tell it from a factura (read-document.ts, isHonorarios).
  const factura = ublText('factura-ubl21-credito.xml');
  const typed01 = (name: string) => {
    const text = ublText(name, 'latin1');
    expect(text).toMatch(/<cbc:InvoiceTypeCode[^>]*>01<\/cbc:InvoiceTypeCode>/);
    return text;
  };

  it('reads a recibo typed 01, its retención a subtotal of scheme 3000, field by field', () => {
    const document = readDocument(latin1(typed01('recibo-honorarios-tipo-01.xml')));

    expect(document).toEqual(
      parsedDocument({
        type: 'RECIBO_POR_HONORARIOS',
        ublVersion: '2.0',
        prefixId: 'E001',
        numericId: '40',
        issueDate: '2025-06-30',
        dueDates: ['2025-07-15'],
        supplier: QUISPE,
        customer: TRANSPORTES_INCA,
        taxAmount: 0,
        incomeTaxWithholding: 200,
        payableAmount: 2300,
        ...igvOnly(0, 2500, null),
      }),
    );
  });

  // Each shape of the retención we accept (docs/ap-documents.md): the gross honorarios (saleValue), the 8 %
  // withheld and the net paid.
  it.each([
    ['recibo-honorarios-tipo-01.xml', '40', 2500, 200, 2300],
    ['recibo-honorarios-renta-4ta.xml', '41', 1800, 144, 1656],
    ['recibo-honorarios-total-retenido.xml', '42', 3000, 240, 2760],
    ['recibo-honorarios-descuento-retencion.xml', '43', 2200, 176, 2024],
    ['recibo-honorarios-total-adicional.xml', '44', 4000, 320, 3680],
    ['recibo-honorarios-nota-retencion.xml', '45', 1750, 140, 1610],
    ['recibo-honorarios-neto.xml', '46', 1625.5, 130.04, 1495.46],
    ['recibo-honorarios-tipo-01-sin-retencion.xml', '47', 1000, 0, 1000],
    ['recibo-honorarios-inafecto.xml', '48', 2100, 168, 1932],
  ])('reads %s as a recibo por honorarios: gross, retención and net', (name, numericId, gross, withheld, net) => {
    const document = readDocument(latin1(typed01(name)));

    expect(document).toMatchObject({
      type: 'RECIBO_POR_HONORARIOS',
      prefixId: 'E001',
      numericId,
      supplier: QUISPE,
      taxAmount: 0,
      saleValue: gross,
      incomeTaxWithholding: withheld,
      payableAmount: net,
      // A retención stated as a deduction is the withholding, not a discount as well.
      allowances: [],
      taxes: { igv: 0, isc: 0, icbper: 0, other: 0 },
    });
  });

  it('keeps every factura of the corpus a factura', () => {
    const facturas = readdirSync(UBL_FIXTURES).filter((name) => /^factura-.*\.xml$/.test(name));
    expect(facturas.length).toBeGreaterThan(10);

    for (const name of facturas) expect([name, readDocument(ublFixture(name)).type]).toEqual([name, 'FACTURA']);
  });

  it('keeps a factura typed 01 from a RUC 20 with IGV a factura, though in series E001 and claiming a retención', () => {
    const hostile = factura
      .replace('F001-00000458', 'E001-00000458')
      .replace(
        '<cbc:Note languageLocaleID="2006">',
        '<cbc:Note>Retención del Impuesto a la Renta de 4ta categoría (8 %): S/ 944.00</cbc:Note>\n  $&',
      )
      .replace(
        '<cac:LegalMonetaryTotal>',
        '<cac:WithholdingTaxTotal><cbc:TaxAmount currencyID="PEN">944.00</cbc:TaxAmount></cac:WithholdingTaxTotal>\n  $&',
      );
    expect(hostile).toContain('4ta categoría');
    expect(hostile).toContain('WithholdingTaxTotal');

    expect(readDocument(utf8(hostile))).toMatchObject({
      type: 'FACTURA',
      prefixId: 'E001',
      supplier: SERVICIOS_INDUSTRIALES,
      taxAmount: 1800,
      incomeTaxWithholding: 0,
      payableAmount: 11800,
    });
  });

  it("keeps a person's factura typed 01 with IGV a factura, in series E001 and with a retención", () => {
    const person = factura
      .replaceAll('20456178325', QUISPE.taxId)
      .replace('F001-00000458', 'E001-00000458')
      .replace(
        '<cbc:Note languageLocaleID="2006">',
        '<cbc:Note>Retención IR 4ta categoría: S/ 944.00</cbc:Note>\n  $&',
      );
    expect(person).not.toContain('20456178325');

    expect(readDocument(utf8(person))).toMatchObject({
      type: 'FACTURA',
      supplier: { taxId: QUISPE.taxId },
      taxAmount: 1800,
    });
  });

  it('reads as a factura the same recibo in another series than SEE-SOL’s, or from a company', () => {
    const recibo = typed01('recibo-honorarios-tipo-01.xml');
    const otherSeries = recibo.replace('E001-40', 'F001-40');
    const company = recibo.replace('10456789019', '20490123459');
    const untypedCompany = company.replace(/<cbc:InvoiceTypeCode[^>]*>01<\/cbc:InvoiceTypeCode>/, '');
    expect(untypedCompany).not.toContain('InvoiceTypeCode');

    expect(readDocument(latin1(otherSeries)).type).toBe('FACTURA');
    expect(readDocument(latin1(company))).toMatchObject({ type: 'FACTURA', supplier: { taxId: '20490123459' } });
    // A company earns no 4ta categoría income: its E001 document without a type code is a factura, retención or not.
    expect(readDocument(latin1(untypedCompany)).type).toBe('FACTURA');
  });

  it('reads as a factura an unaffected sale of a person without retención; with the retención it is a recibo', () => {
    const recibo = typed01('recibo-honorarios-inafecto.xml');
    const withoutRetention = recibo
      .replace(
        /<cac:TaxSubtotal>(?:(?!<\/cac:TaxSubtotal>)[\s\S])*<cbc:ID>3000<\/cbc:ID>[\s\S]*?<\/cac:TaxSubtotal>\n/,
        '',
      )
      .replace(
        '<cbc:TaxAmount currencyID="PEN">168.00</cbc:TaxAmount>',
        '<cbc:TaxAmount currencyID="PEN">0.00</cbc:TaxAmount>',
      )
      .replace('<cbc:PayableAmount currencyID="PEN">1932.00', '<cbc:PayableAmount currencyID="PEN">2100.00');
    expect(withoutRetention).not.toContain('<cbc:ID>3000</cbc:ID>');
    expect(withoutRetention).toContain('<cbc:ID>9998</cbc:ID>');

    expect(readDocument(latin1(recibo)).type).toBe('RECIBO_POR_HONORARIOS');
    expect(readDocument(latin1(withoutRetention))).toMatchObject({ type: 'FACTURA', incomeTaxWithholding: 0 });
  });

  it("reads UBL 2.0's totals by kind: taxed or exonerated sales make a person's E001 document a factura", () => {
    const recibo = typed01('recibo-honorarios-tipo-01-sin-retencion.xml');
    const withTotal = (id: string) =>
      recibo.replace(
        '<ext:UBLExtensions>\n',
        `$&<ext:UBLExtension><ext:ExtensionContent><sac:AdditionalInformation><sac:AdditionalMonetaryTotal>` +
          `<cbc:ID>${id}</cbc:ID><cbc:PayableAmount currencyID="PEN">1000.00</cbc:PayableAmount>` +
          `</sac:AdditionalMonetaryTotal></sac:AdditionalInformation></ext:ExtensionContent></ext:UBLExtension>\n`,
      );

    expect(readDocument(latin1(recibo)).type).toBe('RECIBO_POR_HONORARIOS');
    expect(readDocument(latin1(withTotal('1001'))).type).toBe('FACTURA');
    expect(readDocument(latin1(withTotal('1003'))).type).toBe('FACTURA');
    // 2002 is the total of retenciones: a recibo's, here of 0.00.
    expect(readDocument(latin1(withTotal('2002'))).type).toBe('RECIBO_POR_HONORARIOS');
  });

  it('takes from a note only an amount the totals bear out, and from the net only the gross less 8 %', () => {
    const noted = typed01('recibo-honorarios-nota-retencion.xml');
    // The gross is paid in full: the 140.00 the note claims is not the difference between gross and net.
    const notBorneOut = noted.replace(
      '<cbc:PayableAmount currencyID="PEN">1610.00',
      '<cbc:PayableAmount currencyID="PEN">1750.00',
    );
    const net = typed01('recibo-honorarios-neto.xml');
    const notEightPercent = net.replace(
      '<cbc:PayableAmount currencyID="PEN">1495.46',
      '<cbc:PayableAmount currencyID="PEN">1500.00',
    );
    expect(notBorneOut).not.toBe(noted);
    expect(notEightPercent).not.toBe(net);

    expect(readDocument(latin1(notBorneOut))).toMatchObject({ incomeTaxWithholding: 0, payableAmount: 1750 });
    expect(readDocument(latin1(notEightPercent))).toMatchObject({ incomeTaxWithholding: 0, payableAmount: 1500 });
  });

  it("keeps of the extensions only UBL 2.0's totals by kind, never the signature", () => {
    const root = readXmlTree(screenXml(ublFixture('recibo-honorarios-total-adicional.xml')), {
      maxDepth: XML_LIMITS.maxDepth,
      maxElements: XML_LIMITS.maxElements,
      prune: isUnreadContent,
    });
    const kept = JSON.stringify(root.children[0]);

    expect(kept).toContain('AdditionalMonetaryTotal');
    expect(kept).toContain('2002');
    expect(kept).not.toContain('Signature');
    expect(kept).not.toContain('c3VuYXQ');
  });
});

describe('parseSunatDocument: documents that are not what the portal reads', () => {
  const factura = ublText('factura-ubl21-credito.xml');

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

  it.each([
    [
      'a total in a currency other than the document currency',
      factura.replace('<cbc:PayableAmount currencyID="PEN">', '<cbc:PayableAmount currencyID="USD">'),
      'ERROR_XML_INVALID_FIELD',
      'moneda',
    ],
    [
      'a note that does not say which document it modifies',
      ublText('nota-debito-ubl21.xml')
        .replace(/<cac:DiscrepancyResponse>[\s\S]*<\/cac:DiscrepancyResponse>/, '')
        .replace(/<cac:BillingReference>[\s\S]*<\/cac:BillingReference>/, ''),
      'ERROR_XML_MISSING_FIELD',
      'comprobante que se modifica',
    ],
    [
      'an amount that is not a plain decimal number',
      factura.replace('>11800.00</cbc:PayableAmount>', '>11,800.00</cbc:PayableAmount>'),
      'ERROR_XML_INVALID_FIELD',
      'importe total',
    ],
    [
      'a supplier RUC whose check digit is wrong',
      factura.replace(/>20456178325</g, '>20456178326<'),
      'ERROR_XML_INVALID_FIELD',
      'RUC del emisor',
    ],
    [
      'an impossible date',
      factura.replace('<cbc:IssueDate>2025-03-14<', '<cbc:IssueDate>2025-02-30<'),
      'ERROR_XML_INVALID_FIELD',
      'fecha de emisión',
    ],
  ])('refuses %s, naming the field', (_what, xml, code, field) => {
    const error = refusal(() => parseSunatDocument(utf8(xml)));

    expect(error.code).toBe(code);
    expect(error.errors[0]!.parameters).toEqual({ field });
  });

  it('names a missing field in Spanish', () => {
    const undated = factura.replace('<cbc:IssueDate>2025-03-14</cbc:IssueDate>', '');

    const error = refusal(() => parseSunatDocument(utf8(undated)));

    expect(error.code).toBe('ERROR_XML_MISSING_FIELD');
    expect(error.errors[0]!.parameters).toEqual({ field: 'fecha de emisión' });
    expect(error.message).toBe('Falta el dato «fecha de emisión» en el XML del comprobante.');
  });

  it('refuses other SUNAT documents and other invoice types', () => {
    const liquidacion = factura.replace(/(<cbc:InvoiceTypeCode[^>]*>)01</, (_, open: string) => `${open}04<`);

    expect(refusal(() => parseSunatDocument(ublFixture('not-a-sunat-document.xml'))).code).toBe(
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
      const bytes = ublFixture(name);

      expect(refusal(() => screenXml(bytes)).code).toBe('ERROR_XML_FORBIDDEN_CONTENT');
      expect(refusal(() => parseSunatDocument(bytes)).code).toBe('ERROR_XML_FORBIDDEN_CONTENT');
    },
  );

  it('refuses a DOCTYPE in the parser too, should it ever be called without the screen', () => {
    const text = ublText('billion-laughs.xml');

    const error = refusal(() => readXmlTree(text, { maxDepth: 64, maxElements: 1000 }));

    expect(error.code).toBe('ERROR_XML_FORBIDDEN_CONTENT');
  });

  it('refuses an entity reference without a DTD: nothing but the predefined entities is expanded', () => {
    const nbsp = ublText('boleta-ubl21.xml').replace('CANDADO DE BRONCE', 'CANDADO&nbsp;DE BRONCE');

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
    const bytes = ublFixture(name);

    expect(refusal(() => screenXml(bytes)).code).toBe('ERROR_XML_MALFORMED');
    expect(refusal(() => parseSunatDocument(bytes)).message).toBe('El archivo no es un XML válido.');
  });

  it('refuses a truncated document', () => {
    expect(refusal(() => parseSunatDocument(ublFixture('truncated.xml'))).code).toBe('ERROR_XML_MALFORMED');
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

describe("parseSunatDocument: a note's reason", () => {
  const note = ublText('nota-credito-ubl21.xml');

  it('reads a note without a reason as such, and refuses a description beyond SUNAT’s 500 characters', () => {
    const silent = note.replace(/<agg:DiscrepancyResponse>[\s\S]*<\/agg:DiscrepancyResponse>/, '');
    expect(readDocument(utf8(silent)).billingReference).toMatchObject({
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
  const factura = ublText('factura-ubl21-credito.xml');
  const detractionTerms = /<cac:PaymentTerms>\s*<cbc:ID>Detraccion<\/cbc:ID>[\s\S]*?<\/cac:PaymentTerms>/;

  it('is absent from an operation that is not subject to it', () => {
    const plain = factura.replace(detractionTerms, '').replace('listID="1001"', 'listID="0101"');

    expect(readDocument(utf8(plain)).detraction).toBeUndefined();
  });

  it('reads a percentage with decimals', () => {
    const dollars = factura
      .replace('<cbc:PaymentPercent>12</cbc:PaymentPercent>', '<cbc:PaymentPercent>1.50</cbc:PaymentPercent>')
      .replace('<cbc:Amount currencyID="PEN">1416.00</cbc:Amount>', '<cbc:Amount currencyID="PEN">177.00</cbc:Amount>');

    expect(readDocument(utf8(dollars)).detraction).toMatchObject({ percent: 1.5, amount: 177, currency: 'PEN' });
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

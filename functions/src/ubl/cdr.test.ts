import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BadRequestError, type InvoiceForCdr } from '@portal/shared';
import { CDR_LIMITS, assertCdrOfDocument, parseCdr } from './cdr.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../../tests/fixtures');

const fixture = (name: string) => new Uint8Array(readFileSync(path.join(FIXTURES, 'cdr', name)));
const text = (name: string) => readFileSync(path.join(FIXTURES, 'cdr', name), 'utf8');
const utf8 = (xml: string) => new TextEncoder().encode(xml);

const ACCEPTED = 'R-20456178325-01-F001-00000458.xml';
const OSE = 'R-20456178325-01-F002-00001203-ose.xml';
const OSE_RUC = '20557103920';

/** The BadRequestError an action throws, as code, parameters and the Spanish message a person reads. */
function refusal(action: () => unknown): { code: string; parameters: Record<string, unknown>; message: string } {
  try {
    action();
  } catch (error) {
    if (error instanceof BadRequestError) return { ...error.errors[0]!, message: error.message };
    throw error;
  }
  throw new Error('expected a BadRequestError, nothing was thrown');
}

/** The factura F001-00000458 of tests/fixtures/ubl/factura-ubl21-credito.xml, as the portal keeps it. */
const FACTURA: InvoiceForCdr = {
  supplierId: '20456178325',
  client: '20100070970',
  type: 'FACTURA',
  prefixId: 'F001',
  numericId: '00000458',
  certStatus: 'PENDING',
};

describe('parseCdr: what SUNAT answered', () => {
  it('reads an accepted factura from SUNAT’s UBL 2.0 CDR, its signature skipped', () => {
    expect(parseCdr(fixture(ACCEPTED))).toEqual({
      responseCode: '0',
      description: 'La Factura numero F001-00000458, ha sido aceptada',
      documentId: 'F001-00000458',
      prefixId: 'F001',
      numericId: '00000458',
      documentTypeCode: null,
      issuerTaxId: '20456178325',
      // SUNAT names the acquirer as "<catálogo 06 type>-<number>".
      recipient: { taxId: '20100070970', taxIdType: '6' },
      senderTaxId: '20131312955',
      responseDate: '2025-03-14',
      notes: [],
    });
  });

  it('reads a rejection: its 2xxx code and SUNAT’s reason', () => {
    const cdr = parseCdr(fixture('R-20456178325-01-F001-00000459-rechazado.xml'));

    expect(cdr).toMatchObject({
      responseCode: '2017',
      description: 'El numero de documento de identidad del receptor debe ser RUC',
      documentId: 'F001-00000459',
      notes: [],
    });
  });

  it('reads the observations SUNAT writes as "4xxx - text" notes beside code 0', () => {
    const cdr = parseCdr(fixture('R-20456178325-01-F001-00000460-observado.xml'));

    expect(cdr.responseCode).toBe('0');
    expect(cdr.notes).toEqual([
      {
        code: '4287',
        message:
          'El precio unitario de la operación que está informando difiere de los cálculos realizados en base a la cantidad, valor unitario del ítem e impuestos correspondientes',
      },
      { code: '4332', message: 'Documento de identidad del adquirente no coincide con el registrado en SUNAT' },
    ]);
  });

  it('reads a response code written with leading zeros, and a note without a code as it is', () => {
    const xml = text(ACCEPTED)
      .replace('<cbc:ResponseCode>0</cbc:ResponseCode>', '<cbc:ResponseCode>4252</cbc:ResponseCode>')
      .replace('  <cac:Signature>', '  <cbc:Note>Revise el ubigeo</cbc:Note>\n  <cac:Signature>');

    expect(parseCdr(utf8(xml))).toMatchObject({
      responseCode: '4252',
      notes: [{ code: null, message: 'Revise el ubigeo' }],
    });
    expect(
      parseCdr(utf8(text(ACCEPTED).replace('>0</cbc:ResponseCode>', '>0000</cbc:ResponseCode>'))).responseCode,
    ).toBe('0');
  });

  it('reads the UBL 2.1 layout of an OSE the caller trusts: issuer, acquirer, type and cac:Status observations', () => {
    expect(parseCdr(fixture(OSE), { trustedSenders: [OSE_RUC] })).toEqual({
      responseCode: '0',
      description: 'La Factura F002-1203 ha sido aceptada.',
      documentId: 'F002-1203',
      prefixId: 'F002',
      numericId: '1203',
      documentTypeCode: '01',
      issuerTaxId: '20456178325',
      recipient: { taxId: '20100070970', taxIdType: '6' },
      senderTaxId: OSE_RUC,
      responseDate: '2025-06-02',
      notes: [{ code: '4093', message: 'El codigo de ubigeo del domicilio fiscal del emisor no es válido' }],
    });
  });
});

describe('parseCdr: what is not a CDR from SUNAT is refused in Spanish', () => {
  it('refuses a CDR sent by anyone but SUNAT, an OSE included until the portal trusts it', () => {
    expect(refusal(() => parseCdr(fixture('no-sunat.xml')))).toEqual({
      code: 'ERROR_CDR_NOT_SUNAT',
      parameters: { sender: OSE_RUC },
      message:
        'La constancia de recepción no fue emitida por SUNAT (RUC 20131312955) sino por el RUC 20557103920; envíe la constancia que SUNAT entregó al emisor.',
    });
    expect(refusal(() => parseCdr(fixture(OSE))).code).toBe('ERROR_CDR_NOT_SUNAT');
  });

  it('refuses a CDR that names no sender, and one whose sender is not a RUC', () => {
    const withoutSender = text(ACCEPTED).replace(/<cac:SenderParty>[\s\S]*?<\/cac:SenderParty>/, '');
    const notARuc = text(ACCEPTED).replace(
      /<cac:SenderParty>[\s\S]*?<\/cac:SenderParty>/,
      '<cac:SenderParty><cac:PartyIdentification><cbc:ID>SUNAT</cbc:ID></cac:PartyIdentification></cac:SenderParty>',
    );

    expect(refusal(() => parseCdr(utf8(withoutSender)))).toMatchObject({
      code: 'ERROR_CDR_INVALID_FIELD',
      parameters: { field: 'emisor de la constancia' },
      message: 'Falta o no es válido el dato «emisor de la constancia» de la constancia de recepción (CDR).',
    });
    expect(refusal(() => parseCdr(utf8(notARuc))).parameters).toEqual({ field: 'emisor de la constancia' });
  });

  it('refuses an invoice sent as a CDR, and an ApplicationResponse under another namespace', () => {
    const factura = new Uint8Array(readFileSync(path.join(FIXTURES, 'ubl', 'factura-ubl21-credito.xml')));
    const foreign = text(ACCEPTED).replace(
      'xmlns:ar="urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2"',
      'xmlns:ar="urn:example:ApplicationResponse"',
    );

    expect(refusal(() => parseCdr(factura))).toEqual({
      code: 'ERROR_CDR_INVALID',
      parameters: {},
      message:
        'El archivo no es una constancia de recepción (CDR) de SUNAT: debe ser el XML de respuesta (ApplicationResponse) que SUNAT entregó al emisor.',
    });
    expect(refusal(() => parseCdr(utf8(foreign))).code).toBe('ERROR_CDR_INVALID');
  });

  it.each([
    ['no response code', [/<cbc:ResponseCode>0<\/cbc:ResponseCode>/, ''], 'código de respuesta'],
    [
      'a response code that is not a number',
      ['>0</cbc:ResponseCode>', '>OK</cbc:ResponseCode>'],
      'código de respuesta',
    ],
    // 0100–1999 are exceptions SUNAT answers as a fault, never in a CDR.
    ['an exception code', ['>0</cbc:ResponseCode>', '>0109</cbc:ResponseCode>'], 'código de respuesta'],
    ['a code beyond SUNAT’s ranges', ['>0</cbc:ResponseCode>', '>5000</cbc:ResponseCode>'], 'código de respuesta'],
    ['no description', [/<cbc:Description>[^<]*<\/cbc:Description>/, ''], 'descripción de la respuesta'],
    [
      'no document',
      [/<cbc:ReferenceID>[^<]*<\/cbc:ReferenceID>([\s\S]*<\/cac:Response>)[\s\S]*<\/cac:DocumentReference>/, '$1'],
      'serie y número del comprobante',
    ],
    [
      'a document that is not SERIE-NÚMERO',
      [/F001-00000458<\/cbc:ID>/, 'F001/458</cbc:ID>'],
      'serie y número del comprobante',
    ],
    [
      'an issuer whose RUC fails its check digit',
      ['<cbc:ID>20456178325</cbc:ID>', '<cbc:ID>20456178326</cbc:ID>'],
      'RUC del emisor del comprobante',
    ],
    ['an impossible date', ['<cbc:ResponseDate>2025-03-14<', '<cbc:ResponseDate>2025-02-30<'], 'fecha de respuesta'],
  ] as const)('refuses %s with ERROR_CDR_INVALID_FIELD', (_, [from, to], field) => {
    const error = refusal(() => parseCdr(utf8(text(ACCEPTED).replace(from, to))));

    expect(error).toMatchObject({ code: 'ERROR_CDR_INVALID_FIELD', parameters: { field } });
  });

  it('takes the issue date when the response date is absent, and refuses a CDR with neither', () => {
    const withoutResponseDate = text(ACCEPTED).replace(/<cbc:ResponseDate>[^<]*<\/cbc:ResponseDate>/, '');

    expect(parseCdr(utf8(withoutResponseDate)).responseDate).toBe('2025-03-14');
    expect(
      refusal(() => parseCdr(utf8(withoutResponseDate.replace(/<cbc:IssueDate>[^<]*<\/cbc:IssueDate>/, ''))))
        .parameters,
    ).toEqual({ field: 'fecha de respuesta' });
  });
});

describe('parseCdr: hostile files are refused before anything is read', () => {
  it('refuses a DTD with nested entities and an external one: no entity is ever expanded', () => {
    expect(refusal(() => parseCdr(fixture('entidades.xml')))).toMatchObject({
      code: 'ERROR_XML_FORBIDDEN_CONTENT',
    });
  });

  it('refuses a truncated CDR as malformed', () => {
    expect(refusal(() => parseCdr(fixture('truncado.xml')))).toEqual({
      code: 'ERROR_XML_MALFORMED',
      parameters: {},
      message: 'El archivo no es un XML válido.',
    });
  });

  it('refuses a file over 256 KB by its size alone; a CDR is a few kilobytes', () => {
    const padded = text(ACCEPTED).replace(
      '</ar:ApplicationResponse>',
      `<!--${' '.repeat(CDR_LIMITS.maxBytes)}--></ar:ApplicationResponse>`,
    );

    expect(refusal(() => parseCdr(utf8(padded)))).toMatchObject({
      code: 'ERROR_XML_TOO_LARGE',
      parameters: { limit: '256 KB' },
    });
  });

  it('refuses more elements than a CDR holds, and more observations than SUNAT writes', () => {
    const notes = (count: number) =>
      text(ACCEPTED).replace(
        '  <cac:Signature>',
        `${Array.from({ length: count }, (_, i) => `<cbc:Note>${4000 + i} - observación</cbc:Note>`).join('')}<cac:Signature>`,
      );

    expect(parseCdr(utf8(notes(CDR_LIMITS.maxNotes))).notes).toHaveLength(CDR_LIMITS.maxNotes);
    expect(refusal(() => parseCdr(utf8(notes(CDR_LIMITS.maxNotes + 1)))).parameters).toEqual({ field: 'observación' });
    expect(refusal(() => parseCdr(utf8(notes(CDR_LIMITS.maxElements)))).code).toBe('ERROR_XML_TOO_LARGE');
  });

  it('refuses a description beyond a paragraph', () => {
    const long = text(ACCEPTED).replace(
      /<cbc:Description>[^<]*</,
      `<cbc:Description>${'a'.repeat(CDR_LIMITS.maxText + 1)}<`,
    );

    expect(refusal(() => parseCdr(utf8(long))).parameters).toEqual({ field: 'descripción de la respuesta' });
  });
});

describe('assertCdrOfDocument: a CDR travels with its own document', () => {
  it('accepts the CDR of the document, whatever the zeros of its number', () => {
    expect(() => assertCdrOfDocument(parseCdr(fixture(ACCEPTED)), FACTURA)).not.toThrow();
    expect(() => assertCdrOfDocument(parseCdr(fixture(ACCEPTED)), { ...FACTURA, numericId: '458' })).not.toThrow();
  });

  it('refuses the CDR of another document with ERROR_CDR_OTHER_DOCUMENT', () => {
    expect(refusal(() => assertCdrOfDocument(parseCdr(fixture('otro-documento.xml')), FACTURA))).toEqual({
      code: 'ERROR_CDR_OTHER_DOCUMENT',
      parameters: {
        cdrDocument: 'F001-00000999',
        cdrIssuer: '20456178325',
        document: 'F001-00000458',
        issuer: '20456178325',
      },
      message:
        'La constancia de recepción corresponde al comprobante F001-00000999 del RUC 20456178325, no al comprobante F001-00000458 del RUC 20456178325.',
    });
  });

  it('refuses the CDR of the same series and number from another issuer, or of another type', () => {
    const otherIssuer = { ...FACTURA, supplierId: '20608172352' };
    const ose = parseCdr(fixture(OSE), { trustedSenders: [OSE_RUC] });

    expect(refusal(() => assertCdrOfDocument(parseCdr(fixture(ACCEPTED)), otherIssuer)).code).toBe(
      'ERROR_CDR_OTHER_DOCUMENT',
    );
    expect(() => assertCdrOfDocument(ose, { ...FACTURA, prefixId: 'F002', numericId: '00001203' })).not.toThrow();
    expect(
      refusal(() =>
        assertCdrOfDocument(ose, { ...FACTURA, type: 'NOTA_DE_CREDITO', prefixId: 'F002', numericId: '1203' }),
      ).code,
    ).toBe('ERROR_CDR_OTHER_DOCUMENT');
  });
});

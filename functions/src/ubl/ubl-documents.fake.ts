import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { BadRequestError } from '@portal/shared';
import { parseSunatDocument } from './parse.js';
import { ParsedDocument } from './parsed-document.js';

/** The corpus of SUNAT documents the reader's tests read (tests/fixtures/ubl). */
export const UBL_FIXTURES = path.resolve(import.meta.dirname, '../../../tests/fixtures/ubl');

/** A document of the corpus as bytes, as it arrives. */
export function ublFixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(UBL_FIXTURES, name)));
}

/** A document of the corpus as text, decoded as it is written (UTF-8 unless told), for a test to change. */
export function ublText(name: string, encoding: 'utf8' | 'latin1' = 'utf8'): string {
  return readFileSync(path.join(UBL_FIXTURES, name), encoding);
}

export const utf8 = (text: string) => new TextEncoder().encode(text);
export const latin1 = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));

/** Reads a document, checking that what the parser returns honours the contract other modules rely on. */
export function readDocument(bytes: Uint8Array): ParsedDocument {
  const document = parseSunatDocument(bytes);
  expect(ParsedDocument.parse(document)).toEqual(document);
  return document;
}

/** The first error of the 400 the parser refuses these bytes with, and its message; fails if it reads them. */
export function documentRefusal(bytes: Uint8Array): {
  code: string;
  parameters: Record<string, unknown>;
  message: string;
} {
  try {
    parseSunatDocument(bytes);
  } catch (error) {
    if (error instanceof BadRequestError) return { ...error.errors[0]!, message: error.message };
    throw error;
  }
  throw new Error('expected a BadRequestError, nothing was thrown');
}

// The parties of the corpus, as the parser reads them.
export const CORPORACION_ANDINA = {
  taxId: '20100070970',
  taxIdType: '6',
  name: 'CORPORACIÓN ANDINA DE ALIMENTOS S.A.A.',
};
export const SERVICIOS_INDUSTRIALES = {
  taxId: '20456178325',
  taxIdType: '6',
  name: 'SERVICIOS INDUSTRIALES LIMA S.A.C.',
};
export const FERRETERIA = { taxId: '20608172352', taxIdType: '6', name: 'FERRETERÍA EL CONSTRUCTOR E.I.R.L.' };
export const MINERA_PACIFICO_SUR = { taxId: '20603415800', taxIdType: '6', name: 'MINERA PACÍFICO SUR S.A.' };
export const QUISPE = { taxId: '10456789019', taxIdType: '6', name: 'QUISPE MAMANI ROSA ELENA' };
export const TRANSPORTES_INCA = { taxId: '20512334891', taxIdType: '6', name: 'TRANSPORTES Y LOGÍSTICA INCA S.A.C.' };

/** Paid in cash (contado): nothing pending, no cuotas. */
export const CONTADO: ParsedDocument['paymentTerms'] = { method: 'CONTADO', pendingAmount: null, installments: [] };

/** No discount, charge or anticipo. */
export const NOTHING_DEDUCTED = { allowances: [], charges: [], prepaidAmount: 0, prepayments: [] };

/** What a document with nothing beyond its IGV reads: no other tax, discount, charge or anticipo. */
export function igvOnly(igv: number, saleValue: number | null, operationType: string | null) {
  return {
    operationType,
    saleValue,
    taxes: { igv, isc: 0, icbper: 0, other: 0 },
    ...NOTHING_DEDUCTED,
    freeOfCharge: false,
    freeOfChargeValue: 0,
  };
}

/**
 * A document as the parser reads it, for `toEqual`: the fields a test names, over those of a UBL 2.1 document in soles
 * between Servicios Industriales and Corporación Andina with no due date, retención, purchase order, reference or
 * forma de pago. The IGV and the rest of the amounts (igvOnly, or each) are always named.
 */
export function parsedDocument(
  fields: Partial<ParsedDocument> &
    Pick<ParsedDocument, 'type' | 'prefixId' | 'numericId' | 'issueDate' | 'taxAmount' | 'payableAmount' | 'taxes'>,
): ParsedDocument {
  return {
    ublVersion: '2.1',
    dueDates: [],
    currency: 'PEN',
    supplier: SERVICIOS_INDUSTRIALES,
    customer: CORPORACION_ANDINA,
    incomeTaxWithholding: 0,
    purchaseOrders: [],
    billingReference: null,
    paymentTerms: null,
    ...fields,
  } as ParsedDocument;
}

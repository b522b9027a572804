import { describe, expect, it } from 'vitest';
import {
  CDR_VERDICT_LABELS,
  cdrContradiction,
  cdrVerdictOf,
  sameDocumentId,
  type CdrEvidence,
  type InvoiceForCdr,
} from './cdr.js';

/** An accepted CDR of F001-00000458, issued by 20456178325 to 20100070970 (SUNAT's UBL 2.0 layout). */
const ACCEPTED: CdrEvidence = {
  responseCode: '0',
  notes: [],
  prefixId: 'F001',
  numericId: '00000458',
  documentTypeCode: null,
  issuerTaxId: '20456178325',
  recipient: { taxId: '20100070970', taxIdType: '6' },
};
const REJECTED: CdrEvidence = { ...ACCEPTED, responseCode: '2017' };
const OBSERVED: CdrEvidence = { ...ACCEPTED, notes: [{ code: '4287', message: 'precio unitario' }] };

const invoice = (change: Partial<InvoiceForCdr> = {}): InvoiceForCdr => ({
  supplierId: '20456178325',
  client: '20100070970',
  type: 'FACTURA',
  prefixId: 'F001',
  numericId: '458',
  certStatus: 'VALID',
  sunat: { estadoCp: '1' },
  ...change,
});

describe('cdrVerdictOf: SUNAT’s return codes', () => {
  it.each([
    ['0', 0, 'ACCEPTED'],
    ['0', 2, 'ACCEPTED_WITH_OBSERVATIONS'],
    ['2000', 0, 'REJECTED'],
    ['2017', 0, 'REJECTED'],
    ['3999', 0, 'REJECTED'],
    ['4000', 0, 'ACCEPTED_WITH_OBSERVATIONS'],
    ['4287', 1, 'ACCEPTED_WITH_OBSERVATIONS'],
    ['4999', 0, 'ACCEPTED_WITH_OBSERVATIONS'],
  ] as const)('code %s with %i observations is %s', (code, observations, verdict) => {
    expect(cdrVerdictOf(code, observations)).toBe(verdict);
  });

  it.each([['0100'], ['1033'], ['1999'], ['5000'], ['-1'], ['OK'], ['']])(
    'code «%s» is no verdict on the document',
    (code) => {
      expect(cdrVerdictOf(code)).toBeNull();
    },
  );

  it('labels each verdict in Spanish', () => {
    expect(CDR_VERDICT_LABELS).toEqual({
      ACCEPTED: 'Aceptado',
      ACCEPTED_WITH_OBSERVATIONS: 'Aceptado con observaciones',
      REJECTED: 'Rechazado',
    });
  });
});

describe('sameDocumentId', () => {
  it('compares the series without case and the correlative as a number', () => {
    expect(sameDocumentId({ prefixId: 'f001', numericId: '00000458' }, { prefixId: 'F001', numericId: '458' })).toBe(
      true,
    );
    expect(sameDocumentId({ prefixId: 'F001', numericId: '458' }, { prefixId: 'F001', numericId: '4580' })).toBe(false);
    expect(sameDocumentId({ prefixId: 'F001', numericId: '458' }, { prefixId: 'F002', numericId: '458' })).toBe(false);
  });
});

describe('cdrContradiction: the CDR never replaces SUNAT’s check, and staff see where they disagree', () => {
  it('says nothing when the CDR agrees with SUNAT’s check and names the invoice', () => {
    expect(cdrContradiction(ACCEPTED, invoice())).toBeNull();
    expect(cdrContradiction(OBSERVED, invoice({ sunat: { estadoCp: '3' } }))).toBeNull();
    expect(cdrContradiction(REJECTED, invoice({ certStatus: 'INVALID', sunat: { estadoCp: '0' } }))).toBeNull();
  });

  it('flags an accepted CDR for a document SUNAT says does not exist: a forged CDR', () => {
    expect(cdrContradiction(ACCEPTED, invoice({ certStatus: 'INVALID', sunat: { estadoCp: '0' } }))).toEqual({
      verdict: 'ACCEPTED',
      reasons: [
        {
          kind: 'ACCEPTED_BUT_NOT_VALID',
          message:
            'La constancia de recepción dice «Aceptado», pero la consulta a SUNAT indica que el comprobante no es válido (NO EXISTE).',
        },
      ],
    });
  });

  it('flags an accepted CDR with observations of a document voided since', () => {
    expect(cdrContradiction(OBSERVED, invoice({ certStatus: 'INVALID', sunat: { estadoCp: '2' } }))?.reasons).toEqual([
      {
        kind: 'ACCEPTED_BUT_NOT_VALID',
        message:
          'La constancia de recepción dice «Aceptado con observaciones», pero la consulta a SUNAT indica que el comprobante no es válido (ANULADO).',
      },
    ]);
  });

  it('flags a rejected CDR of a document SUNAT says is valid', () => {
    expect(cdrContradiction(REJECTED, invoice())).toEqual({
      verdict: 'REJECTED',
      reasons: [
        {
          kind: 'REJECTED_BUT_VALID',
          message:
            'La constancia de recepción dice «Rechazado» (código 2017), pero la consulta a SUNAT indica que el comprobante es válido (ACEPTADO).',
        },
      ],
    });
  });

  it('compares no verdict while SUNAT has not answered, and says an unknown state as its code', () => {
    expect(cdrContradiction(ACCEPTED, invoice({ certStatus: 'PENDING', sunat: null }))).toBeNull();
    expect(cdrContradiction(REJECTED, invoice({ certStatus: 'PENDING', sunat: undefined }))).toBeNull();
    expect(
      cdrContradiction(ACCEPTED, invoice({ certStatus: 'INVALID', sunat: { estadoCp: '9' } }))?.reasons[0]?.message,
    ).toBe(
      'La constancia de recepción dice «Aceptado», pero la consulta a SUNAT indica que el comprobante no es válido (estado 9).',
    );
  });

  it('flags a CDR of another document, type, issuer or acquirer whatever SUNAT says', () => {
    const other: CdrEvidence = {
      ...ACCEPTED,
      prefixId: 'F001',
      numericId: '999',
      documentTypeCode: '07',
      issuerTaxId: '20608172352',
      recipient: { taxId: '20456178325', taxIdType: '6' },
    };

    const flag = cdrContradiction(other, invoice());

    expect(flag?.reasons.map((reason) => reason.kind)).toEqual([
      'OTHER_DOCUMENT',
      'OTHER_TYPE',
      'OTHER_ISSUER',
      'OTHER_CUSTOMER',
    ]);
    expect(flag?.reasons.map((reason) => reason.message)).toEqual([
      'La constancia de recepción corresponde al comprobante F001-999, no a F001-458.',
      'La constancia de recepción es de un comprobante de tipo 07 (catálogo 01 de SUNAT), no de tipo 01.',
      'La constancia de recepción es de un comprobante emitido por el RUC 20608172352, no por el proveedor (RUC 20456178325).',
      'La constancia de recepción es de un comprobante emitido al RUC 20456178325, no a la sociedad (RUC 20100070970).',
    ]);
  });

  it('does not compare an acquirer named by DNI, nor the type of a document the catálogo 01 list omits', () => {
    const boletaCdr: CdrEvidence = {
      ...ACCEPTED,
      documentTypeCode: '03',
      recipient: { taxId: '45678912', taxIdType: '1' },
    };

    expect(cdrContradiction(boletaCdr, invoice({ type: 'BOLETA' }))).toBeNull();
    expect(
      cdrContradiction({ ...ACCEPTED, documentTypeCode: '02' }, invoice({ type: 'RECIBO_POR_HONORARIOS' })),
    ).toBeNull();
  });

  it('adds the identity reasons to a verdict contradiction: both are for staff', () => {
    const flag = cdrContradiction(
      { ...ACCEPTED, numericId: '459' },
      invoice({ certStatus: 'INVALID', sunat: { estadoCp: '4' } }),
    );

    expect(flag?.reasons.map((reason) => reason.kind)).toEqual(['ACCEPTED_BUT_NOT_VALID', 'OTHER_DOCUMENT']);
  });
});

import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  CreateInvoiceWithoutXmlBody,
  DisapproveBody,
  MAX_AMOUNT_TEXT,
  ROUTES,
  TEXT_LIMITS,
  todayInLima,
  type ErrorItem,
} from '@portal/shared';
import { parsePart } from '../../functions/src/http/validation.js';

// Every text a request brings has a maximum (docs/limits.md), refused with a Spanish reason beyond it.

function fieldsOf(schema: unknown): string[] {
  let current = schema as { _zod?: { def: Record<string, unknown> } } | undefined;
  for (let i = 0; i < 5 && current?._zod; i++) {
    const def = current._zod.def;
    if (def.type === 'object') return Object.keys(def.shape as object);
    current = (def.innerType ?? def.in) as typeof current;
  }
  return [];
}

function refusalOf(schema: Parameters<typeof parsePart>[0], value: unknown): ErrorItem[] {
  try {
    parsePart(schema, value);
  } catch (error) {
    if (error instanceof BadRequestError) return error.errors;
    throw error;
  }
  return [];
}

const HUGE = 'x'.repeat(203 * 1024);

const form = (change: Record<string, unknown> = {}) => ({
  prefixId: 'F001',
  numericId: '123',
  type: 'FACTURA',
  clientTaxId: '20100070970',
  supplierTaxId: '20456178325',
  supplierName: 'Servicios Industriales Lima S.A.C.',
  currency: 'PEN',
  amount: 118,
  taxAmount: 18,
  issueDate: '2025-03-14',
  pdfUrl: 'uploads/x.pdf',
  ...change,
});

const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe('request limits', () => {
  it.each(
    ROUTES.flatMap((route) => (['path', 'query', 'body'] as const).map((part) => [route.id, part, route] as const)),
  )('%s %s: no text field takes 203 KB', (_id, part, route) => {
    const schema = route.request[part];
    for (const field of fieldsOf(schema)) {
      for (const value of [HUGE, [HUGE]]) {
        const result = schema!.safeParse({ [field]: value });
        const issues = result.success ? [] : result.error.issues.filter((issue) => issue.path[0] === field);
        expect(
          issues.length,
          `${route.id} ${part}.${field} accepted ${JSON.stringify(value).length} characters`,
        ).toBeGreaterThan(0);
      }
    }
  });

  it('refuses a 203 KB supplier name in the form with its reason, and takes a name at the maximum', () => {
    expect(refusalOf(CreateInvoiceWithoutXmlBody, form({ supplierName: HUGE }))).toEqual([
      {
        code: 'ERROR_INVALID_PARAMETER',
        parameters: { parameter: 'supplierName', reason: `admite como máximo ${TEXT_LIMITS.partyName} caracteres` },
      },
    ]);
    const atMaximum = 'Ñ'.repeat(TEXT_LIMITS.partyName);
    expect(parsePart(CreateInvoiceWithoutXmlBody, form({ supplierName: atMaximum }))?.supplierName).toBe(atMaximum);
    expect(refusalOf(DisapproveBody, { reason: 'x'.repeat(TEXT_LIMITS.reason + 1) })[0]?.parameters).toEqual({
      parameter: 'reason',
      reason: `admite como máximo ${TEXT_LIMITS.reason} caracteres`,
    });
  });

  it('refuses amounts beyond the maximum or with more than two decimals, and takes the maximum', () => {
    expect(refusalOf(CreateInvoiceWithoutXmlBody, form({ amount: Number('999999999999999.99') }))).toEqual([
      {
        code: 'ERROR_INVALID_PARAMETER',
        parameters: { parameter: 'amount', reason: `no puede superar ${MAX_AMOUNT_TEXT}` },
      },
    ]);
    expect(refusalOf(CreateInvoiceWithoutXmlBody, form({ taxAmount: 18.005 }))[0]?.parameters).toEqual({
      parameter: 'taxAmount',
      reason: 'admite como máximo dos decimales',
    });
    expect(refusalOf(CreateInvoiceWithoutXmlBody, form({ amount: -5 }))[0]?.parameters.parameter).toBe('amount');
    expect(parsePart(CreateInvoiceWithoutXmlBody, form({ amount: 9999999999.99, taxAmount: 0.07 }))).toMatchObject({
      amount: 9999999999.99,
      taxAmount: 0.07,
    });
  });

  it('refuses an issue date after today in Lima or before 2010, and takes both ends', () => {
    const today = todayInLima();
    expect(refusalOf(CreateInvoiceWithoutXmlBody, form({ issueDate: dayAfter(today) }))).toEqual([
      {
        code: 'ERROR_INVALID_PARAMETER',
        parameters: { parameter: 'issueDate', reason: 'no puede ser posterior a la fecha de hoy' },
      },
    ]);
    expect(refusalOf(CreateInvoiceWithoutXmlBody, form({ issueDate: '2009-12-31' }))).toEqual([
      {
        code: 'ERROR_INVALID_PARAMETER',
        parameters: { parameter: 'issueDate', reason: 'no puede ser anterior al 01/01/2010' },
      },
    ]);
    for (const issueDate of [today, '2010-01-01']) {
      expect(parsePart(CreateInvoiceWithoutXmlBody, form({ issueDate }))?.issueDate).toBe(issueDate);
    }
    // A malformed date gets one reason, the format's.
    expect(refusalOf(CreateInvoiceWithoutXmlBody, form({ issueDate: 'mañana' }))).toHaveLength(1);
  });
});

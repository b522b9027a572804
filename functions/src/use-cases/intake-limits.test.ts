import { describe, expect, it } from 'vitest';
import { BadRequestError, MAX_AMOUNT_TEXT, type Client } from '@portal/shared';
import type { IntakeStore } from '../repositories/intake-store.js';
import { makeFakeNoteLinks } from '../repositories/note-links.fake.js';
import { intakeCalls } from './intake/intake-calls.fake.js';
import { CLIENT as INTAKE_CLIENT, incomingDocumentFixture, supplierCaller } from './intake/intake-fixtures.fake.js';
import { type IncomingDocument, type IntakeDeps } from './intake/intake-deps.js';

// The domain's bounds on what a document says, whether read from its XML or typed with its PDF.

const CLIENT: Client = { ...INTAKE_CLIENT, name: 'C', system_name: 'C' };
const caller = supplierCaller;
/** 03:00 UTC on 21 November is still 22:00 of the 20th in Lima (UTC-5): the 21st is tomorrow there. */
const NOW = new Date('2026-11-21T03:00:00.000Z');

function intakeReading(change: Partial<IncomingDocument>) {
  const stored: unknown[] = [];
  const document: IncomingDocument = incomingDocumentFixture(change);
  const deps = {
    verifyUpload: async (key: string) => ({ key, bytes: new Uint8Array() }),
    discardUpload: async () => undefined,
    parseDocument: async () => document,
    checkInvoiceCode: () => true,
    clients: { get: async (taxId: string) => (taxId === CLIENT.taxId ? CLIENT : null) },
    profiles: { getMany: async () => new Map() },
    store: {
      existing: async () => null,
      create: async (invoice: unknown) => void stored.push(invoice),
    } as unknown as IntakeStore,
    noteLinks: makeFakeNoteLinks(),
    outgoing: { deliver: async () => undefined },
    clock: () => NOW,
  };
  const intake = intakeCalls(deps as unknown as IntakeDeps);
  return { submit: () => intake.fromXml(caller, { url: 'uploads/x.xml' }), stored };
}

async function refusal(change: Partial<IncomingDocument>) {
  const { submit, stored } = intakeReading(change);
  const error = await submit().then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(stored).toEqual([]);
  if (!(error instanceof BadRequestError)) throw new Error(`expected a BadRequestError, got ${String(error)}`);
  return { ...error.errors[0]!, message: error.message };
}

describe('intake bounds', () => {
  it.each([
    [
      'after today in Lima, and takes today',
      '2026-11-21',
      {
        code: 'ERROR_INVOICE_ISSUE_DATE_IN_FUTURE',
        parameters: { date: '21/11/2026', today: '20/11/2026' },
        message: 'La fecha de emisión 21/11/2026 es posterior a la fecha de hoy (20/11/2026).',
      },
      '2026-11-20',
    ],
    [
      'before the floor, and takes the floor itself',
      '2009-12-31',
      {
        code: 'ERROR_INVOICE_ISSUE_DATE_TOO_OLD',
        parameters: { date: '31/12/2009', floor: '01/01/2010' },
        message: 'La fecha de emisión 31/12/2009 es anterior al 01/01/2010, la fecha más antigua que el portal admite.',
      },
      '2010-01-01',
    ],
  ])('refuses an issue date %s', async (_when, refused, expected, taken) => {
    expect(await refusal({ issueDate: refused })).toEqual(expected);
    const accepted = intakeReading({ issueDate: taken });
    await accepted.submit();
    expect(accepted.stored).toHaveLength(1);
  });

  it('refuses an amount beyond the maximum, and takes the maximum exactly', async () => {
    expect(await refusal({ amount: 1e15, taxAmount: 0 })).toMatchObject({
      code: 'ERROR_INVOICE_AMOUNT_OUT_OF_RANGE',
      parameters: { field: 'importe total', limit: MAX_AMOUNT_TEXT },
    });
    const maximum = intakeReading({ amount: 9_999_999_999.99, taxAmount: 1_525_423_728.81 });
    await maximum.submit();
    expect(maximum.stored).toEqual([
      expect.objectContaining({ amount: 9_999_999_999.99, taxAmount: 1_525_423_728.81 }),
    ]);
  });
});

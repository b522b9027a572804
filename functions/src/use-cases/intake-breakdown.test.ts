import { parseCdr } from '../ubl/cdr.js';
import { makeFakeReceivedFiles } from './received-files.fake.js';
import { describe, expect, it } from 'vitest';
import type { Invoice, InvoiceBreakdown } from '@portal/shared';
import type { IntakeStore } from '../repositories/intake-store.js';
import { intakeCalls } from './intake/intake-calls.fake.js';
import { type IncomingDocument } from './intake/intake-deps.js';
import { makeFakeNoteLinks } from '../repositories/note-links.fake.js';
import { CLIENT, incomingDocumentFixture, supplierCaller } from './intake/intake-fixtures.fake.js';
import { igvOnly } from '../ubl/ubl-documents.fake.js';

// What the XML says beyond its total is stored with the invoice, and an importe total of 0.00 is taken only
// when nothing is to be paid (docs/ap-documents.md).

const supplier = supplierCaller;

/** A sale of S/ 100.00 with its IGV and nothing else, as the XML's reader leaves it. */
const PLAIN: InvoiceBreakdown = { ...igvOnly(18, 100, '0101'), incomeTaxWithholding: 0 };

function document(change: Partial<IncomingDocument>): IncomingDocument {
  return incomingDocumentFixture({ numericId: '601', breakdown: PLAIN, ...change });
}

function intakeOf(parsed: IncomingDocument) {
  const stored: Invoice[] = [];
  const discarded: string[] = [];
  const receivedFiles = makeFakeReceivedFiles();
  const intake = intakeCalls({
    storeReceived: receivedFiles.storeReceived,
    parseCdr: (bytes) => parseCdr(bytes),
    verifyUpload: async (key) => ({ key, bytes: new Uint8Array() }),
    discardUpload: async (key) => void discarded.push(key),
    parseDocument: async () => parsed,
    checkInvoiceCode: () => true,
    clients: { get: async (taxId) => (taxId === CLIENT.taxId ? CLIENT : null) },
    profiles: { getMany: async () => new Map() },
    store: {
      existing: async () => null,
      create: async (invoice: Invoice) => void stored.push(invoice),
    } as unknown as IntakeStore,
    outgoing: { deliver: async () => undefined },
    noteLinks: makeFakeNoteLinks(),
    clock: () => new Date('2026-11-20T15:00:00.000Z'),
  });
  return { submit: () => intake.fromXml(supplier, { url: 'uploads/f.xml' }), stored, discarded };
}

describe('document intake: what the XML says beyond the total', () => {
  it('stores the breakdown with the invoice', async () => {
    const breakdown: InvoiceBreakdown = {
      ...PLAIN,
      taxes: { igv: 446.47, isc: 280, icbper: 2, other: 0 },
      allowances: [{ code: '02', amount: 50 }],
      charges: [{ code: '50', amount: 10 }],
    };
    const { submit, stored } = intakeOf(document({ amount: 2928.87, taxAmount: 446.47, breakdown }));

    const invoice = await submit();

    expect(invoice.breakdown).toEqual(breakdown);
    expect(stored.map((each) => each.breakdown)).toEqual([breakdown]);
  });

  it('takes an importe total of 0.00 for a transferencia gratuita, and for anticipos that cover the whole', async () => {
    const free = intakeOf(
      document({
        amount: 0,
        taxAmount: 0,
        breakdown: { ...PLAIN, taxes: { ...PLAIN.taxes, igv: 0 }, freeOfCharge: true, freeOfChargeValue: 400 },
      }),
    );
    const prepaid = intakeOf(
      document({ numericId: '604', amount: 0, taxAmount: 0, breakdown: { ...PLAIN, prepaidAmount: 118 } }),
    );

    await expect(free.submit()).resolves.toMatchObject({ amount: 0, breakdown: { freeOfCharge: true } });
    await expect(prepaid.submit()).resolves.toMatchObject({ amount: 0, breakdown: { prepaidAmount: 118 } });
  });

  it('refuses an importe total of 0.00 otherwise, and deletes the upload', async () => {
    const { submit, stored, discarded } = intakeOf(document({ amount: 0, taxAmount: 0 }));

    await expect(submit()).rejects.toMatchObject({ statusCode: 400, code: 'ERROR_INVALID_PARAMETER' });
    expect(stored).toEqual([]);
    expect(discarded).toEqual(['uploads/f.xml']);
  });
});

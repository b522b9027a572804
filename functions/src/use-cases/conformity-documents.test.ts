import { describe, expect, it } from 'vitest';
import type { Client, ConformityDocument } from '@portal/shared';
import type { Caller } from '../http/caller.js';
import type { StoredInvoice } from '../repositories/invoice-store.js';
import type { ConformityDocumentRepository, StoredConformityDocument } from '../repositories/conformity-documents.js';
import { conformityCalls } from './conformity/conformity-calls.fake.js';

const ACQUIRER = '20100070970';
const ISSUER = '20456178325';
const OTHER_ISSUER = '20608172355';
const empty = { items: [], nextCursor: null };
const calls: string[] = [];
const stored: StoredConformityDocument = {
  fiscalYear: '2026',
  issuerTaxId: ISSUER,
  acquirerTaxId: ACQUIRER,
  documentId: 'H1',
  deliveryNote: null,
  purchaseOrder: 'PO1',
  associatedInvoice: null,
  amount: 100,
  currency: 'PEN',
  responsible: 'E1001',
  claimedBy: null,
};
const docs: Record<string, StoredConformityDocument> = {
  H1: stored,
  H2: { ...stored, documentId: 'H2', claimedBy: 'INVOICE#x', associatedInvoice: 'F001-1' },
};
const INVOICE = { supplierId: ISSUER, invoiceType: 'FACTURA' as const, invoiceId: 'F001-00000001' };
const OWN_KEY = `INVOICE#${ISSUER}#FACTURA#F001-00000001`;
// The order's sheets: the invoice's net is 1,000.00.
const orderSheets: StoredConformityDocument[] = [
  { ...stored, documentId: 'S1', amount: 600 },
  { ...stored, documentId: 'S2', amount: 400, claimedBy: OWN_KEY },
  { ...stored, documentId: 'S3', amount: 400, claimedBy: 'INVOICE#other' },
  { ...stored, documentId: 'S4', amount: 400, issuerTaxId: OTHER_ISSUER },
  { ...stored, documentId: 'S5', amount: 400, currency: 'USD' },
  { ...stored, documentId: 'S6', amount: 999 },
];
const invoice = {
  supplierId: ISSUER,
  type: 'FACTURA',
  id: 'F001-00000001',
  client: ACQUIRER,
  currency: 'PEN',
  amount: 1180,
  taxAmount: 180,
} as unknown as StoredInvoice;
const documents: ConformityDocumentRepository = {
  listByAcquirer: async (kind, acquirer) => (calls.push(`acquirer:${kind}:${acquirer}`), empty),
  listByAcquirerAndIssuer: async (_kind, _acquirer, issuer) => (calls.push(`issuer:${issuer}`), empty),
  listByAcquirerAndResponsible: async (_kind, _acquirer, responsible) => (
    calls.push(`responsible:${responsible}`),
    empty
  ),
  listByAcquirerIssuerAndResponsible: async (_kind, _acquirer, issuer, responsible) => (
    calls.push(`issuer+responsible:${issuer}:${responsible}`),
    empty
  ),
  listByPurchaseOrder: async (kind, _acquirer, purchaseOrder) => ({
    items: kind === 'SERVICE_SHEET' && purchaseOrder === 'PO1' ? orderSheets : [],
    nextCursor: null,
  }),
  get: async (kind, _acquirer, id) => (kind === 'SERVICE_SHEET' ? (docs[id] ?? null) : null),
  getPurchaseOrder: async (_acquirer, id) =>
    id === 'PO1' ? { id, issuerTaxId: ISSUER, acquirerTaxId: ACQUIRER } : null,
};
const client: Client = { taxId: ACQUIRER, name: 'Uno', address: 'Lima', logo: null, system_name: 'UNO' };
const useCases = conformityCalls({
  documents,
  clients: { get: async () => client },
  invoices: {
    get: async (supplierId, type, id) =>
      id === invoice.id && supplierId === ISSUER && type === 'FACTURA' ? invoice : null,
  },
});
const manager = { level: 'MANAGER', taxIds: [ACQUIRER] } as unknown as Caller;

async function listed(query: Record<string, string>) {
  calls.length = 0;
  await useCases.list(manager, 'SERVICE_SHEET', { acquirer: ACQUIRER, limit: 20, ...query });
  return calls[0];
}

describe('conformity documents', () => {
  it('lists through the index that fits the filters', async () => {
    expect(await listed({})).toBe(`acquirer:SERVICE_SHEET:${ACQUIRER}`);
    expect(await listed({ issuer: ISSUER })).toBe(`issuer:${ISSUER}`);
    expect(await listed({ responsible: 'E1' })).toBe('responsible:E1');
    expect(await listed({ issuer: ISSUER, responsible: 'E1' })).toBe(`issuer+responsible:${ISSUER}:E1`);
  });

  it('answers a free document of the supplier as a row, without its claim', async () => {
    const row: ConformityDocument = await useCases.documentAvailability(
      manager,
      'SERVICE_SHEET',
      { id: 'H1' },
      { acquirer: ACQUIRER, issuer: ISSUER },
    );
    expect(row).not.toHaveProperty('claimedBy');
    expect(row.documentId).toBe('H1');
  });

  it.each([
    ['an unknown document', 'H9', ISSUER, 'ERROR_HES_NOT_FOUND'],
    ["another supplier's document", 'H1', OTHER_ISSUER, 'ERROR_HES_NOT_FOUND'],
    ['a document already used', 'H2', ISSUER, 'ERROR_CONFORMITY_DOCUMENT_NOT_AVAILABLE'],
  ])('answers 404 for %s', async (_, id, issuer, code) => {
    await expect(
      useCases.documentAvailability(manager, 'SERVICE_SHEET', { id }, { acquirer: ACQUIRER, issuer }),
    ).rejects.toMatchObject({ statusCode: 404, errors: [{ code, parameters: { documentId: id } }] });
  });

  it('names MIGO in the not-found code of a material document', async () => {
    await expect(
      useCases.documentAvailability(manager, 'MATERIAL_DOCUMENT', { id: 'H1' }, { acquirer: ACQUIRER, issuer: ISSUER }),
    ).rejects.toMatchObject({ statusCode: 404, code: 'ERROR_MIGO_NOT_FOUND' });
  });

  it('answers a purchase order only to its supplier', async () => {
    const query = { acquirer: ACQUIRER, issuer: ISSUER };
    await expect(useCases.purchaseOrderAvailability(manager, { id: 'PO1' }, query)).resolves.toEqual({
      id: 'PO1',
      available: true,
    });
    await expect(
      useCases.purchaseOrderAvailability(manager, { id: 'PO1' }, { ...query, issuer: OTHER_ISSUER }),
    ).rejects.toMatchObject({ statusCode: 404, code: 'ERROR_PURCHASE_ORDER_NOT_FOUND' });
  });

  it('suggests the free sheets of the supplier in the invoice currency that add up to the amount without IGV', async () => {
    const answer = await useCases.suggestions(manager, INVOICE, { purchaseOrder: 'PO1' });

    expect(answer).toMatchObject({
      purchaseOrder: 'PO1',
      currency: 'PEN',
      target: 1000,
      candidates: 3,
      complete: true,
    });
    expect(answer.suggestions[0]).toMatchObject({ kind: 'SERVICE_SHEET', exact: true, total: 1000 });
    expect(answer.suggestions[0]!.documents.map((doc) => doc.documentId).sort()).toEqual(['S1', 'S2']);
    const offered = new Set(answer.suggestions.flatMap((s) => s.documents.map((doc) => doc.documentId)));
    expect([...offered].sort()).toEqual(['S1', 'S2', 'S6']);
    expect(answer.suggestions[0]!.documents[0]).not.toHaveProperty('claimedBy');
  });

  it("answers 404 for another supplier's order and for an invoice out of the caller's reach", async () => {
    await expect(useCases.suggestions(manager, INVOICE, { purchaseOrder: 'PO9' })).rejects.toMatchObject({
      statusCode: 404,
      code: 'ERROR_PURCHASE_ORDER_NOT_FOUND',
    });
    const elsewhere = { level: 'MANAGER', taxIds: ['20999999999'] } as unknown as Caller;
    await expect(useCases.suggestions(elsewhere, INVOICE, { purchaseOrder: 'PO1' })).rejects.toMatchObject({
      statusCode: 404,
      code: 'ERROR_INVOICE_NOT_FOUND',
    });
  });
});

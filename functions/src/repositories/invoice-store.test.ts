import { describe, expect, it } from 'vitest';
import type { Invoice } from '@portal/shared';
import { listEntryWrites } from './invoice-store.js';

const BEFORE = {
  supplierId: '20456178325',
  type: 'FACTURA',
  id: 'F001-77',
  client: '20100070970',
  supplierName: 'Ferretería',
  receivedAt: '2026-11-20T10:00:00.000Z',
  status: 'PENDING',
  certStatus: 'PENDING',
  officeId: null,
  responsible: null,
  payment: null,
} as unknown as Invoice;

type Write = { Put?: { Item: { pk: string; sk: string } }; Delete?: { Key: { pk: string; sk: string } } };
const summary = (writes: unknown[]) =>
  (writes as Write[]).map((write) =>
    write.Put ? `put ${write.Put.Item.pk} ${write.Put.Item.sk.slice(0, 4)}` : `delete ${write.Delete!.Key.pk}`,
  );

describe('the list entries a change writes', () => {
  it('writes none when the invoice moves between no lists (SUNAT answered, say)', () => {
    expect(listEntryWrites('t', BEFORE, { ...BEFORE, certStatus: 'VALID' } as Invoice)).toEqual([]);
  });

  it('moves the company and supplier status entries on a change of status, and only those', () => {
    expect(summary(listEntryWrites('t', BEFORE, { ...BEFORE, status: 'COMPLETED' } as Invoice))).toEqual([
      'delete LIST#CLIENT#20100070970#STATUS#PENDING',
      'delete LIST#SUPPLIER#20456178325#STATUS#PENDING',
      'put LIST#CLIENT#20100070970#STATUS#COMPLETED INVO',
      'put LIST#SUPPLIER#20456178325#STATUS#COMPLETED INVO',
    ]);
  });

  it('enters the office and responsible lists once they are set, and the due lists while there is something to pay', () => {
    const completed = {
      ...BEFORE,
      officeId: 'Sede Central',
      responsible: { id: 'E1001' },
      payment: { expectedPaymentDate: '2026-12-20' },
    } as unknown as Invoice;
    expect(summary(listEntryWrites('t', BEFORE, completed))).toEqual([
      'put LIST#CLIENT#20100070970#OFFICE#Sede Central INVO',
      'put LIST#CLIENT#20100070970#RESPONSIBLE#E1001 INVO',
      'put LIST#CLIENT#20100070970 DUE#',
      'put LIST#SUPPLIER#20456178325 DUE#',
    ]);
    // A rejection leaves the due lists (nothing to pay) besides moving its status entries.
    const rejected = summary(listEntryWrites('t', completed, { ...completed, status: 'REJECTED' } as Invoice));
    expect(rejected.filter((write) => write.startsWith('delete LIST#') && !write.includes('STATUS'))).toEqual([
      'delete LIST#CLIENT#20100070970',
      'delete LIST#SUPPLIER#20456178325',
    ]);
  });

  it('writes every list of a new invoice', () => {
    expect(summary(listEntryWrites('t', null, BEFORE))).toHaveLength(6);
  });
});

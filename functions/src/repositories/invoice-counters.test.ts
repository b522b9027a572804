import { describe, expect, it } from 'vitest';
import type { CountableInvoice } from '@portal/shared';
import { invoiceCounterUpdates } from './invoice-counters.js';
import { countsDelta, sapPostingCounts } from './miro-outbox.js';

const COMPLETED: CountableInvoice = {
  client: '20100070970',
  supplierId: '20456178325',
  issuedAt: '2026-11-20',
  status: 'COMPLETED',
  type: 'FACTURA',
  operationType: 'SERVICES',
};
const ACCEPTED: CountableInvoice = { ...COMPLETED, status: 'ACCEPTED' };

type Update = { Update: { Key: { pk: string; sk: string }; ExpressionAttributeNames: Record<string, string> } };
/** Each update as `pk sk: attribute=amount…`, in the order written. */
const summary = (writes: unknown[]) =>
  (writes as (Update & { Update: { ExpressionAttributeValues: Record<string, number> } })[]).map(({ Update: u }) => {
    const moved = Object.entries(u.ExpressionAttributeNames).map(
      ([alias, name]) => `${name}=${u.ExpressionAttributeValues[alias.replace('#c', ':d')]}`,
    );
    return `${u.Key.pk} ${u.Key.sk}: ${moved.join(' ')}`;
  });

describe("the counters an invoice's transaction moves", () => {
  it("ADD the approval's SAP posting count in the same update as the company's all-time counters", () => {
    const writes = invoiceCounterUpdates(
      't',
      [{ before: COMPLETED, after: ACCEPTED }],
      [sapPostingCounts(COMPLETED.client, countsDelta(null, 'PENDING'))],
    );
    expect(summary(writes)).toEqual([
      'DASHBOARD#20100070970 PERIOD#2026-11: completed=-1 accepted=1',
      'DASHBOARD#20100070970 PERIOD#ALL: completed=-1 COMPLETED#FACTURA=-1 accepted=1 ACCEPTED#FACTURA=1 sapPostingsOpen=1',
      'COUNTS#SUPPLIER#20456178325 INVOICES: 20100070970#COMPLETED#FACTURA=-1 20100070970#ACCEPTED#FACTURA=1',
    ]);
    // One update per item: DynamoDB refuses a transaction that writes an item twice.
    const keys = (writes as unknown as Update[]).map(({ Update: u }) => `${u.Key.pk}|${u.Key.sk}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('write an item of its own for counts the invoice does not move, and nothing for counts that cancel out', () => {
    const same = invoiceCounterUpdates(
      't',
      [{ before: COMPLETED, after: { ...COMPLETED } }],
      [sapPostingCounts(COMPLETED.client, { open: 1 }), sapPostingCounts('20999999999', { failed: 1 })],
    );
    expect(summary(same)).toEqual([
      'DASHBOARD#20100070970 PERIOD#ALL: sapPostingsOpen=1',
      'DASHBOARD#20999999999 PERIOD#ALL: sapPostingsFailed=1',
    ]);
    expect(
      invoiceCounterUpdates(
        't',
        [],
        [sapPostingCounts('20999999999', { open: 1 }), sapPostingCounts('20999999999', { open: -1 })],
      ),
    ).toEqual([]);
  });
});

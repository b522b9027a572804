import { describe, expect, it } from 'vitest';
import type { Invoice } from '@portal/shared';
import { SapUnavailableError, type PaymentRunItem } from '../adapters/sap.js';
import { fakeMeter } from '../http/meter.fake.js';
import type { StoredInvoice } from '../repositories/invoice-store.js';
import { makePaymentSync } from './sync-payments-job.js';

const NOW = new Date('2026-11-20T08:00:00.000Z');
const ACCEPTED = {
  id: 'F001-77',
  type: 'FACTURA',
  supplierId: '20700001011',
  supplierName: 'Proveedor',
  client: '20100070970',
  clientName: 'Sociedad',
  status: 'ACCEPTED',
  scheduledAt: null,
  paidAt: null,
  statusHistory: [],
  version: 4,
} as unknown as StoredInvoice;
const SCHEDULED_ITEM: PaymentRunItem = {
  supplierId: ACCEPTED.supplierId,
  invoiceId: ACCEPTED.id,
  invoiceType: 'FACTURA',
  scheduledAt: '2026-11-25',
  paidAt: null,
  changedAt: '2026-11-20T07:30:00.000Z',
};

/** One invoice in memory, a cursor, and SAP answering `items` (or failing). */
function world(items: () => Promise<PaymentRunItem[]>) {
  let invoice: StoredInvoice = ACCEPTED;
  let cursor: string | null = '2026-11-19T00:00:00.000Z';
  const sent: unknown[] = [];
  const { meter, counted } = fakeMeter();
  const sync = makePaymentSync({
    repository: {
      cursor: async () => cursor,
      saveCursor: async (since) => void (cursor = since),
      invoiceTypes: async () => [invoice.type],
    },
    store: {
      get: async () => invoice,
      commit: async ({ after }) => (invoice = { ...(after as Invoice), version: invoice.version + 1 }),
    },
    sap: { paymentRunItemsSince: items },
    notifications: { send: async (body) => void sent.push(body) },
    clock: () => NOW,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    meter,
  });
  return { sync, counted, sent, invoice: () => invoice, cursor: () => cursor };
}

describe('payment sync', () => {
  it('schedules the invoice SAP put in a payment run, moves the cursor and counts a run without failure', async () => {
    const w = world(async () => [SCHEDULED_ITEM]);

    const result = await w.sync.run();

    expect(result).toEqual({ read: 1, scheduled: 1, paid: 0, skipped: 0 });
    expect(w.invoice()).toMatchObject({ status: 'SCHEDULED', scheduledAt: '2026-11-25' });
    expect(w.sent).toEqual([expect.objectContaining({ event: 'PAYMENT_SCHEDULED', invoiceId: ACCEPTED.id })]);
    expect(w.cursor()).toBe(SCHEDULED_ITEM.changedAt);
    expect(w.counted).toEqual([
      { name: 'PaymentSyncRuns', value: 1 },
      { name: 'PaymentSyncFailures', value: 0 },
    ]);
  });

  it('fails the run when SAP cannot be read, keeps the cursor and counts a run and a failure', async () => {
    const w = world(async () => Promise.reject(new SapUnavailableError('SAP did not answer GET')));

    await expect(w.sync.run()).rejects.toThrow(SapUnavailableError);

    expect(w.invoice()).toBe(ACCEPTED);
    expect(w.cursor()).toBe('2026-11-19T00:00:00.000Z');
    expect(w.counted).toEqual([
      { name: 'PaymentSyncRuns', value: 1 },
      { name: 'PaymentSyncFailures', value: 1 },
    ]);
  });
});

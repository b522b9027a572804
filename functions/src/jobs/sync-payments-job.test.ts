import { describe, expect, it } from 'vitest';
import type { Invoice } from '@portal/shared';
import { SapUnavailableError, type PaymentRunItem } from '../adapters/sap.js';
import { fakeMeter } from '../observability/meter.fake.js';
import type { StoredInvoice } from '../repositories/invoice-store.js';
import { fakeOutbox } from '../repositories/outgoing.fake.js';
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

/**
 * One invoice in memory, written with the items its change puts (the outbox), a cursor, and SAP answering
 * `items` (or failing). `dies` makes the run stop right after its next invoice write, as a process that dies.
 */
function world(items: () => Promise<PaymentRunItem[]>) {
  let invoice: StoredInvoice = ACCEPTED;
  let cursor: string | null = '2026-11-19T00:00:00.000Z';
  const outbox = fakeOutbox();
  const crash = { next: false };
  const { meter, counted } = fakeMeter();
  const sync = makePaymentSync({
    repository: {
      cursor: async () => cursor,
      saveCursor: async (since) => void (cursor = since),
      invoiceTypes: async () => [invoice.type],
    },
    store: {
      get: async () => invoice,
      commit: async ({ after, alsoPut }) => {
        invoice = { ...(after as Invoice), version: invoice.version + 1 };
        outbox.put(alsoPut);
        if (crash.next) throw new Error('the run died right after the write');
        return invoice;
      },
    },
    sap: { paymentRunItemsSince: items },
    outgoing: outbox.outgoing,
    clock: () => NOW,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    meter,
  });
  const notices = () => outbox.sent.map(({ queue, body }) => ({ queue, event: body.event, detail: body.detail }));
  const dies = () => void (crash.next = true);
  const restarts = () => void (crash.next = false);
  return { sync, counted, outbox, notices, dies, restarts, invoice: () => invoice, cursor: () => cursor };
}

describe('payment sync', () => {
  it('schedules the invoice SAP put in a payment run, moves the cursor and counts a run without failure', async () => {
    const w = world(async () => [SCHEDULED_ITEM]);

    const result = await w.sync.run();

    expect(result).toEqual({ read: 1, scheduled: 1, paid: 0, skipped: 0 });
    expect(w.invoice()).toMatchObject({ status: 'SCHEDULED', scheduledAt: '2026-11-25' });
    expect(w.outbox.sent).toEqual([
      {
        queue: 'notifications',
        body: expect.objectContaining({ event: 'PAYMENT_SCHEDULED', invoiceId: ACCEPTED.id }),
      },
    ]);
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

  describe('its notices survive a crash (the outbox)', () => {
    const PAID_ITEM: PaymentRunItem = {
      ...SCHEDULED_ITEM,
      paidAt: '2026-11-26',
      changedAt: '2026-11-20T07:45:00.000Z',
    };

    it('sends PAYMENT_SCHEDULED and INVOICE_PAID exactly once each, and keeps no outgoing item once they are handled', async () => {
      const w = world(async () => [PAID_ITEM]);

      await w.sync.run();

      expect(w.invoice()).toMatchObject({ status: 'PAID', paidAt: '2026-11-26' });
      expect(w.notices()).toEqual([
        { queue: 'notifications', event: 'PAYMENT_SCHEDULED', detail: '2026-11-25' },
        { queue: 'notifications', event: 'INVOICE_PAID', detail: '2026-11-26' },
      ]);
      // Sent, so the sweeper has nothing due until the consumer acknowledges (or the visibility timeout passes).
      for (const item of w.outbox.items()) {
        await w.outbox.outgoing.acknowledge('notifications', String(item.pk).split('#')[2]!);
      }
      expect(await w.outbox.relay()).toBe(0);
      expect(w.notices()).toHaveLength(2);
    });

    it('a run that dies after scheduling the invoice and before sending: the sweeper sends PAYMENT_SCHEDULED, and the next run does not schedule it again', async () => {
      const w = world(async () => [SCHEDULED_ITEM]);
      w.dies();

      await expect(w.sync.run()).rejects.toThrow('died');
      expect(w.invoice()).toMatchObject({ status: 'SCHEDULED' });
      expect(w.notices()).toEqual([]);
      expect(w.outbox.items()).toEqual([
        expect.objectContaining({ queue: 'notifications', body: expect.stringContaining('PAYMENT_SCHEDULED') }),
      ]);

      w.restarts();
      await expect(w.sync.run()).resolves.toMatchObject({ scheduled: 0 });
      expect(w.notices()).toEqual([]);

      expect(await w.outbox.relay()).toBe(1);
      expect(w.notices()).toEqual([{ queue: 'notifications', event: 'PAYMENT_SCHEDULED', detail: '2026-11-25' }]);
      expect(w.outbox.sent[0]!.body).toMatchObject({ invoiceId: ACCEPTED.id, outgoingId: expect.any(String) });
    });

    it('a notifications queue that cannot be reached when the invoice is paid: the run goes on and the sweeper sends INVOICE_PAID', async () => {
      const w = world(async () => [PAID_ITEM]);
      w.outbox.down = true;

      await expect(w.sync.run()).resolves.toEqual({ read: 1, scheduled: 1, paid: 1, skipped: 0 });
      expect(w.cursor()).toBe(PAID_ITEM.changedAt);
      expect(w.notices()).toEqual([]);

      w.outbox.down = false;
      expect(await w.outbox.relay()).toBe(2);
      expect(w.notices()).toEqual([
        { queue: 'notifications', event: 'PAYMENT_SCHEDULED', detail: '2026-11-25' },
        { queue: 'notifications', event: 'INVOICE_PAID', detail: '2026-11-26' },
      ]);
    });
  });
});

import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { keys, type Invoice } from '@portal/shared';
import { SapRejectedError, SapUnavailableError, type SapDocument, type SapPort } from '../adapters/sap.js';
import { fakeMeter } from '../observability/meter.fake.js';
import type { StoredInvoice } from '../repositories/invoice-store.js';
import type { MiroOutbox, MiroOutboxRecord } from '../repositories/miro-outbox.js';
import { approvedInvoiceFixture } from '../use-cases/miro/approved-invoice.fake.js';
import { ONE_HES_OUTBOX, claimableAt } from '../use-cases/miro/miro-outbox.fake.js';
import { MIRO_FAILURE_MESSAGE } from '../use-cases/miro/miro-posting-deps.js';
import { makeMiroRequestsWorker } from './miro-requests-worker.js';

const SUPPLIER = '20700001011';
const INVOICE = approvedInvoiceFixture({
  id: 'F001-1',
  supplierId: SUPPLIER,
  supplierName: 'Proveedor',
  client: '20100070970',
  clientName: 'Sociedad',
});
const OUTBOX = keys.miroOutbox(SUPPLIER, 'FACTURA', 'F001-1');
const MESSAGE = { supplierId: SUPPLIER, invoiceType: 'FACTURA', invoiceId: 'F001-1', outboxKey: OUTBOX.pk };

/** An in-memory outbox and invoice with DynamoDB's conditions, and a counting SAP. */
function world(sapBehaviour: () => Promise<SapDocument>) {
  let record: MiroOutboxRecord = {
    ...OUTBOX,
    state: 'PENDING',
    idempotencyKey: OUTBOX.pk,
    supplierId: SUPPLIER,
    invoiceType: 'FACTURA',
    invoiceId: 'F001-1',
    client: INVOICE.client,
    createdAt: '2026-11-02T09:59:00.000Z',
    attempts: 0,
  };
  let invoice: StoredInvoice = INVOICE;
  let now = new Date('2026-11-02T10:00:00Z');
  const sent: unknown[] = [];
  let sapCalls = 0;
  const outbox: MiroOutbox = {
    get: async () => ({ ...record }),
    claim: async (_key, lease) => {
      const free = claimableAt(record, lease.now.toISOString());
      if (free)
        record = {
          ...record,
          state: 'POSTING',
          leaseOwner: lease.owner,
          postingUntil: lease.until.toISOString(),
          attempts: (record.attempts ?? 0) + 1,
        };
      return free;
    },
    retryLater: async (_key, owner, error, next) => {
      if (record.state !== 'POSTING' || record.leaseOwner !== owner) return false;
      record = { ...record, state: 'PENDING', lastError: error, nextAttemptAt: next.toISOString() };
      return true;
    },
    markPosted: async (_key, document) => {
      if (record.state === 'POSTED') return false;
      record = { ...record, state: 'POSTED', sapDocument: document };
      return true;
    },
    markNotified: async (_key, at) => {
      record = { ...record, notifiedAt: at };
    },
    markFailed: async (_key, error, _at, owner) => {
      if (record.state === 'POSTED' || (owner && record.leaseOwner !== owner)) return false;
      record = { ...record, state: 'FAILED', lastError: error };
      return true;
    },
    markFailureNotified: async (_key, at) => {
      record = { ...record, failureNotifiedAt: at };
    },
    due: async () => [],
    postpone: async () => true,
    retry: async () => true,
    ...ONE_HES_OUTBOX,
  };
  const sap: Pick<SapPort, 'postSupplierInvoice' | 'findSupplierInvoice'> = {
    postSupplierInvoice: async () => {
      sapCalls++;
      return sapBehaviour();
    },
    findSupplierInvoice: async () => null,
  };
  const { meter, counted } = fakeMeter();
  const handler = makeMiroRequestsWorker({
    outbox,
    store: {
      get: async () => invoice,
      commit: async ({ after }) => {
        invoice = { ...(after as Invoice), version: invoice.version + 1 };
        return invoice;
      },
    },
    sap,
    notifications: { send: async (body) => void sent.push(body) },
    clock: () => now,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    meter,
    leaseMs: 60_000,
    maxAttempts: 3,
    retryBaseMs: 30_000,
  });
  const deliver = (receiveCount: number, body: unknown = MESSAGE) => {
    // The sweeper sends the message again once the record's next attempt is due: time moves there.
    if (record.nextAttemptAt && record.nextAttemptAt > now.toISOString()) now = new Date(record.nextAttemptAt);
    return handler({
      Records: [
        {
          messageId: `m${receiveCount}`,
          body: JSON.stringify(body),
          attributes: { ApproximateReceiveCount: String(receiveCount) },
        } as unknown as SQSRecord,
      ],
    });
  };
  return {
    deliver,
    sent,
    record: () => record,
    invoice: () => invoice,
    sapCalls: () => sapCalls,
    counted,
    setRecord: (r: Partial<MiroOutboxRecord>) => (record = { ...record, ...r }),
  };
}

const DOCUMENT = { number: '5105600001', fiscalYear: '2026' };

describe('MIRO worker', () => {
  it('posts once, stores the document on the invoice and the outbox, and announces it; a redelivery does nothing', async () => {
    const w = world(async () => DOCUMENT);
    expect(await w.deliver(1)).toEqual({ batchItemFailures: [] });
    expect(await w.deliver(2)).toEqual({ batchItemFailures: [] });
    expect(w.sapCalls()).toBe(1);
    expect(w.record()).toMatchObject({ state: 'POSTED', sapDocument: DOCUMENT, notifiedAt: expect.any(String) });
    expect(w.invoice().sapDocument).toEqual(DOCUMENT);
    expect(w.sent).toEqual([
      expect.objectContaining({ event: 'INVOICE_APPROVED', detail: expect.stringContaining('5105600001') }),
    ]);
  });

  it('leaves a delivery that finds the record leased by another one for later, without calling SAP', async () => {
    const w = world(async () => DOCUMENT);
    w.setRecord({ state: 'POSTING', leaseOwner: 'other', postingUntil: '2026-11-02T10:00:30.000Z' });
    expect((await w.deliver(1)).batchItemFailures).toHaveLength(1);
    expect(w.sapCalls()).toBe(0);
    // The lease of a worker that died has run out: the next delivery takes over.
    w.setRecord({ postingUntil: '2026-11-02T09:59:00.000Z' });
    expect(await w.deliver(2)).toEqual({ batchItemFailures: [] });
    expect(w.record().state).toBe('POSTED');
  });

  it('keeps a failed attempt on the record with the next one after a doubling wait, and FAILED after the last', async () => {
    const w = world(async () => Promise.reject(new Error('SAP caído')));
    // The message is done: the record holds the retry, the sweeper sends it again when due.
    expect((await w.deliver(1)).batchItemFailures).toHaveLength(0);
    expect(w.record()).toMatchObject({
      state: 'PENDING',
      attempts: 1,
      lastError: 'Error: SAP caído',
      nextAttemptAt: '2026-11-02T10:00:30.000Z',
    });
    await w.deliver(1);
    expect(w.record()).toMatchObject({ state: 'PENDING', attempts: 2, nextAttemptAt: '2026-11-02T10:01:30.000Z' });
    expect(w.sent).toEqual([]);
    await w.deliver(1);
    expect(w.sapCalls()).toBe(3);
    expect(w.record()).toMatchObject({ state: 'FAILED', attempts: 3, lastError: 'Error: SAP caído' });
    expect(w.invoice().statusMessage).toBe(MIRO_FAILURE_MESSAGE);
    expect(w.sent).toEqual([expect.objectContaining({ event: 'MIRO_FAILED' })]);
  });

  it('reports a poison message as a batch item failure, so it ends in the DLQ', async () => {
    const w = world(async () => DOCUMENT);
    expect((await w.deliver(1, { supplierId: 'x' })).batchItemFailures).toHaveLength(1);
    expect((await w.deliver(1, { ...MESSAGE, outboxKey: 'MIRO#otro' })).batchItemFailures).toHaveLength(1);
    expect(w.sapCalls()).toBe(0);
  });

  describe('metrics', () => {
    it('counts a posting SAP accepted as a call without failure, and a redelivery as nothing', async () => {
      const w = world(async () => DOCUMENT);

      await w.deliver(1);
      await w.deliver(2);

      expect(w.counted).toEqual([
        { name: 'SapCalls', value: 1 },
        { name: 'SapFailures', value: 0 },
      ]);
    });

    it.each([
      ['SAP does not answer', new SapUnavailableError('SAP did not answer POST')],
      ['SAP refuses the document', new SapRejectedError(400, 'El período contable está cerrado')],
    ])('counts a posting as a call and a failure when %s', async (_, error) => {
      const w = world(async () => Promise.reject(error));

      await w.deliver(1);

      expect(w.counted).toEqual([
        { name: 'SapCalls', value: 1 },
        { name: 'SapFailures', value: 1 },
      ]);
    });

    it('counts nothing when another delivery holds the record and SAP is not called', async () => {
      const w = world(async () => DOCUMENT);
      w.setRecord({ state: 'POSTING', leaseOwner: 'other', postingUntil: '2026-11-02T10:00:30.000Z' });

      await w.deliver(1);

      expect(w.sapCalls()).toBe(0);
      expect(w.counted).toEqual([]);
    });
  });
});

import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { keys, type Invoice } from '@portal/shared';
import { SapRejectedError, SapUnavailableError, type SapDocument, type SapPort } from '../adapters/sap.js';
import { fakeMeter } from '../http/meter.fake.js';
import type { StoredInvoice } from '../repositories/invoice-store.js';
import type { MiroOutbox, MiroOutboxRecord } from './miro-requests-outbox.js';
import { MIRO_FAILURE_MESSAGE, makeMiroRequestsWorker } from './miro-requests-worker.js';

const SUPPLIER = '20700001011';
const INVOICE = {
  id: 'F001-1',
  type: 'FACTURA',
  supplierId: SUPPLIER,
  supplierName: 'Proveedor',
  client: '20100070970',
  clientName: 'Sociedad',
  status: 'ACCEPTED',
  statusMessage: null,
  amount: 118,
  taxAmount: 18,
  currency: 'PEN',
  issuedAt: '2026-10-15',
  serviceSheets: ['H1'],
  materialDocs: [],
  sapDocument: null,
  version: 3,
} as unknown as StoredInvoice;
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
  };
  let invoice: StoredInvoice = INVOICE;
  const sent: unknown[] = [];
  let sapCalls = 0;
  const outbox: MiroOutbox = {
    get: async () => ({ ...record }),
    claim: async (_key, lease) => {
      const free =
        record.state === 'PENDING' ||
        record.state === 'FAILED' ||
        (record.state === 'POSTING' && (record.postingUntil ?? '') < lease.now.toISOString());
      if (free)
        record = { ...record, state: 'POSTING', leaseOwner: lease.owner, postingUntil: lease.until.toISOString() };
      return free;
    },
    release: async (_key, owner, error) => {
      if (record.state === 'POSTING' && record.leaseOwner === owner)
        record = { ...record, state: 'PENDING', lastError: error };
    },
    markPosted: async (_key, document) => {
      if (record.state === 'POSTED') return false;
      record = { ...record, state: 'POSTED', sapDocument: document };
      return true;
    },
    markNotified: async (_key, at) => {
      record = { ...record, notifiedAt: at };
    },
    markFailed: async (_key, error) => {
      if (record.state === 'POSTED') return false;
      record = { ...record, state: 'FAILED', lastError: error };
      return true;
    },
    conformityLines: async () => [
      { kind: 'SERVICE_SHEET', documentId: 'H1', purchaseOrder: '4500000001', fiscalYear: '2026', amount: 100 },
    ],
  };
  const sap: Pick<SapPort, 'postSupplierInvoice'> = {
    postSupplierInvoice: async () => {
      sapCalls++;
      return sapBehaviour();
    },
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
    clock: () => new Date('2026-11-02T10:00:00Z'),
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    meter,
    maxReceiveCount: 3,
    leaseMs: 60_000,
  });
  const deliver = (receiveCount: number, body: unknown = MESSAGE) =>
    handler({
      Records: [
        {
          messageId: `m${receiveCount}`,
          body: JSON.stringify(body),
          attributes: { ApproximateReceiveCount: String(receiveCount) },
        } as unknown as SQSRecord,
      ],
    });
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

  it('retries failures and, on the last receive, leaves FAILED and the catalogue message visible', async () => {
    const w = world(async () => Promise.reject(new Error('SAP caído')));
    expect((await w.deliver(1)).batchItemFailures).toHaveLength(1);
    expect(w.record()).toMatchObject({ state: 'PENDING', lastError: 'Error: SAP caído' });
    expect((await w.deliver(3)).batchItemFailures).toHaveLength(1);
    expect(w.record().state).toBe('FAILED');
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

import type { SQSEvent, SQSRecord } from 'aws-lambda';
import type { AuditStamp } from '../repositories/invoice-audit.js';
import { describe, expect, it, vi } from 'vitest';
import { INVOICE_STATUS_LABELS, NotificationMessage, type Invoice, type SupplierCdr } from '@portal/shared';
import {
  SunatUnavailableError,
  type SunatDocument,
  type SunatValidator,
  type SunatVerdict,
} from '../adapters/sunat.js';
import { fakeMeter } from '../observability/meter.fake.js';
import { InvoiceChangedError, type StoredInvoice } from '../repositories/invoice-store.js';
import { fakeOutbox } from '../repositories/outgoing.fake.js';
import { SUNAT_FAILURE_MESSAGE } from '../use-cases/sunat/sunat-validation-deps.js';
import { makeSunatValidationWorker } from './sunat-validation-worker.js';
import { storedInvoiceFixture } from '../use-cases/invoice.fake.js';
import { VALID_VERDICT } from '../use-cases/sunat/sunat-verdict.fake.js';

const NOW = new Date('2026-10-20T15:00:00.000Z');
const MAX_RECEIVES = 5;

function invoice(overrides: Partial<StoredInvoice> = {}): StoredInvoice {
  return storedInvoiceFixture({
    id: 'F001-1234',
    numericId: '1234',
    amount: 1180,
    taxAmount: 180,
    issuedAt: '2026-10-05',
    receivedAt: '2026-10-05T14:00:00.000Z',
    statusHistory: [
      {
        status: 'PENDING',
        title: INVOICE_STATUS_LABELS.PENDING,
        additionalMessage: null,
        date: '2026-10-05T12:00:00.000Z',
        by: null,
      },
    ],
    ...overrides,
  });
}

const VALID: SunatVerdict = VALID_VERDICT;
const ANNULLED: SunatVerdict = {
  certStatus: 'INVALID',
  reason: 'El comprobante fue anulado (comunicado de baja) ante SUNAT.',
  estadoCp: '2',
  estadoRuc: 'ACTIVO',
  condDomiRuc: 'HABIDO',
  observaciones: ['- El comprobante ha sido dado de baja.'],
};

/**
 * An in-memory invoice store with the version check of the real one, writing the items a change puts with it
 * into `outbox`; `dies` makes the worker stop right after its next write, as a process that dies there.
 */
function fakeStore(initial: StoredInvoice[], outbox: ReturnType<typeof fakeOutbox>) {
  const items = new Map(initial.map((item) => [`${item.supplierId}#${item.type}#${item.id}`, item]));
  const writes: StoredInvoice[] = [];
  const crash = { next: false };
  return {
    writes,
    dies: () => void (crash.next = true),
    current: (item: StoredInvoice) => items.get(`${item.supplierId}#${item.type}#${item.id}`),
    async get(supplierId: string, type: string, invoiceId: string) {
      return items.get(`${supplierId}#${type}#${invoiceId}`) ?? null;
    },
    async setCertification(
      before: StoredInvoice,
      change: Pick<Invoice, 'certStatus' | 'statusMessage' | 'sunat'> & Partial<Pick<Invoice, 'supplierCdr'>>,
      _audit: AuditStamp,
      alsoPut: readonly Record<string, unknown>[] = [],
    ): Promise<StoredInvoice> {
      const key = `${before.supplierId}#${before.type}#${before.id}`;
      if (items.get(key)?.version !== before.version) throw new InvoiceChangedError();
      const stored = { ...before, ...change, version: before.version + 1 };
      items.set(key, stored);
      outbox.put(alsoPut);
      writes.push(stored);
      if (crash.next) {
        crash.next = false;
        throw new Error('the worker died right after the write');
      }
      return stored;
    },
  };
}

function fakeSunat(answer: (document: SunatDocument) => SunatVerdict | Error) {
  const asked: { consultingRuc: string; document: SunatDocument }[] = [];
  const sunat: SunatValidator = {
    async validate(consultingRuc, document) {
      asked.push({ consultingRuc, document });
      const result = answer(document);
      if (result instanceof Error) throw result;
      return result;
    },
  };
  return { sunat, asked };
}

function setup(invoices: StoredInvoice[], answer: (document: SunatDocument) => SunatVerdict | Error) {
  const outbox = fakeOutbox();
  const store = fakeStore(invoices, outbox);
  const { sunat, asked } = fakeSunat(answer);
  const sent = outbox.bodies;
  const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const { meter, counted } = fakeMeter();
  const handler = makeSunatValidationWorker({
    store,
    sunat,
    outgoing: outbox.outgoing,
    clock: () => NOW,
    log,
    meter,
    maxReceiveCount: MAX_RECEIVES,
  });
  return { handler, store, asked, sent, outbox, log, counted };
}

function record(body: unknown, options: { id?: string; receiveCount?: number } = {}): SQSRecord {
  return {
    messageId: options.id ?? 'm-1',
    receiptHandle: 'receipt',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    attributes: {
      ApproximateReceiveCount: String(options.receiveCount ?? 1),
      SentTimestamp: '0',
      SenderId: '000000000000',
      ApproximateFirstReceiveTimestamp: '0',
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:sunat',
    awsRegion: 'us-east-1',
  };
}

const messageOf = (item: Invoice) => ({ supplierId: item.supplierId, invoiceType: item.type, invoiceId: item.id });
const event = (...records: SQSRecord[]): SQSEvent => ({ Records: records });

describe('SUNAT validation worker', () => {
  it('marks a valid document VALID with SUNAT answer and notifies SUNAT_VALID', async () => {
    // Prepare
    const pending = invoice();
    const { handler, store, asked, sent } = setup([pending], () => VALID);

    // Act
    const response = await handler(event(record(messageOf(pending))));

    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    expect(asked).toEqual([
      {
        consultingRuc: pending.client,
        document: {
          issuerRuc: pending.supplierId,
          type: 'FACTURA',
          series: 'F001',
          number: '1234',
          issuedAt: '2026-10-05',
          amount: 1180,
        },
      },
    ]);
    expect(store.current(pending)).toEqual({
      ...pending,
      certStatus: 'VALID',
      sunat: {
        estadoCp: '1',
        estadoRuc: 'ACTIVO',
        condDomiRuc: 'HABIDO',
        observaciones: [],
        checkedAt: NOW.toISOString(),
      },
      version: 2,
    });
    expect(sent).toEqual([
      {
        event: 'SUNAT_VALID',
        supplierId: pending.supplierId,
        supplierName: pending.supplierName,
        client: pending.client,
        clientName: pending.clientName,
        invoiceType: 'FACTURA',
        invoiceId: pending.id,
        detail: null,
        occurredAt: NOW.toISOString(),
        outgoingId: expect.any(String),
      },
    ]);
    expect(NotificationMessage.safeParse(sent[0]).success).toBe(true);
  });

  it("marks an annulled document INVALID with SUNAT's reason, keeps status and history, and notifies SUNAT_INVALID", async () => {
    const pending = invoice();
    const { handler, store, sent } = setup([pending], () => ANNULLED);

    const response = await handler(event(record(messageOf(pending))));

    expect(response.batchItemFailures).toEqual([]);
    const stored = store.current(pending)!;
    expect(stored).toMatchObject({
      certStatus: 'INVALID',
      statusMessage: ANNULLED.reason,
      status: 'PENDING',
      statusHistory: pending.statusHistory,
      sunat: { estadoCp: '2', observaciones: ANNULLED.observaciones },
    });
    expect(sent).toEqual([expect.objectContaining({ event: 'SUNAT_INVALID', detail: ANNULLED.reason })]);
  });

  it.each(['ZIP', 'EMAIL'] as const)(
    'passes on the channel of a document that came in a %s with its confirmation, not with a refusal',
    async (channel) => {
      const [valid, annulled] = [invoice(), invoice({ id: 'F001-1235', numericId: '1235' })];
      const { handler, sent } = setup([valid, annulled], (document) => (document.number === '1235' ? ANNULLED : VALID));

      await handler(
        event(
          record({ ...messageOf(valid), channel }, { id: 'm-1' }),
          record({ ...messageOf(annulled), channel }, { id: 'm-2' }),
        ),
      );

      // The group's one summary tells the confirmation; a refusal, which the supplier must act on, is told on its own.
      expect(sent).toHaveLength(2);
      expect(sent).toContainEqual(expect.objectContaining({ event: 'SUNAT_VALID', invoiceId: valid.id, channel }));
      expect(sent).toContainEqual(expect.objectContaining({ event: 'SUNAT_INVALID', invoiceId: annulled.id }));
      expect(sent.find((body) => (body as { event: string }).event === 'SUNAT_INVALID')).not.toHaveProperty('channel');
      expect(sent.every((body) => NotificationMessage.safeParse(body).success)).toBe(true);
    },
  );

  it('skips a redelivered message whose invoice is no longer PENDING in SUNAT', async () => {
    const decided = invoice({ certStatus: 'VALID', version: 3 });
    const { handler, store, asked, sent } = setup([decided], () => VALID);

    const response = await handler(event(record(messageOf(decided))));

    expect(response.batchItemFailures).toEqual([]);
    expect(asked).toEqual([]);
    expect(store.writes).toEqual([]);
    expect(sent).toEqual([]);
  });

  it('a worker that dies after writing the verdict on the last receive: the sweeper sends SUNAT_VALID, once, and a redelivery sends nothing more', async () => {
    const pending = invoice();
    const { handler, store, sent, outbox } = setup([pending], () => VALID);
    store.dies();

    // The last receive: the message goes to the DLQ after this, so no redelivery would ever announce the verdict.
    const response = await handler(event(record(messageOf(pending), { receiveCount: MAX_RECEIVES })));

    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm-1' }]);
    expect(store.current(pending)).toMatchObject({ certStatus: 'VALID' });
    expect(sent).toEqual([]);
    expect(outbox.items()).toEqual([expect.objectContaining({ queue: 'notifications' })]);

    expect(await outbox.relay()).toBe(1);
    expect(sent).toEqual([
      expect.objectContaining({ event: 'SUNAT_VALID', invoiceId: pending.id, occurredAt: NOW.toISOString() }),
    ]);

    // Redriven from the DLQ: the verdict is there, and so is its notice; nothing is sent twice.
    await handler(event(record(messageOf(pending), { receiveCount: 1 })));
    expect(sent).toHaveLength(1);
  });

  it('a notifications queue that cannot be reached: the verdict and its notice are kept, the message is done, and the sweeper sends SUNAT_INVALID', async () => {
    const pending = invoice();
    const { handler, store, sent, outbox } = setup([pending], () => ANNULLED);
    outbox.down = true;

    const response = await handler(event(record(messageOf(pending))));

    expect(response.batchItemFailures).toEqual([]);
    expect(store.current(pending)).toMatchObject({ certStatus: 'INVALID', statusMessage: ANNULLED.reason });
    expect(sent).toEqual([]);

    outbox.down = false;
    expect(await outbox.relay()).toBe(1);
    expect(sent).toEqual([expect.objectContaining({ event: 'SUNAT_INVALID', detail: ANNULLED.reason })]);
  });

  it('reports a malformed message as a batch item failure, logs it and handles the rest of the batch', async () => {
    // Prepare
    const pending = invoice();
    const { handler, store, log } = setup([pending], () => VALID);

    // Act
    const response = await handler(
      event(
        record('not json', { id: 'poison-1' }),
        record({ supplierId: '123', invoiceType: 'FACTURA' }, { id: 'poison-2' }),
        record(messageOf(pending), { id: 'good' }),
      ),
    );

    // Assess
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'poison-1' }, { itemIdentifier: 'poison-2' }]);
    expect(log.error).toHaveBeenCalledWith(
      expect.stringContaining('poison message'),
      expect.objectContaining({ messageId: 'poison-1' }),
    );
    expect(store.current(pending)?.certStatus).toBe('VALID');
  });

  it('leaves a message for redelivery when SUNAT cannot be asked, without touching the invoice', async () => {
    const pending = invoice();
    const { handler, store, sent } = setup([pending], () => new SunatUnavailableError('HTTP 500 (3 tries)'));

    const response = await handler(event(record(messageOf(pending), { receiveCount: MAX_RECEIVES - 1 })));

    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm-1' }]);
    expect(store.writes).toEqual([]);
    expect(sent).toEqual([]);
  });

  it('on the last receive, records the SUNAT failure on the invoice before the message goes to the DLQ', async () => {
    const pending = invoice();
    const { handler, store, sent } = setup([pending], () => new SunatUnavailableError('HTTP 500 (3 tries)'));

    const response = await handler(event(record(messageOf(pending), { receiveCount: MAX_RECEIVES })));

    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm-1' }]);
    expect(store.current(pending)).toMatchObject({
      certStatus: 'PENDING',
      statusMessage: SUNAT_FAILURE_MESSAGE,
      status: 'PENDING',
    });
    expect(SUNAT_FAILURE_MESSAGE).toBe(
      'Ocurrió un error inesperado al verificar el comprobante con SUNAT. Inténtelo nuevamente más tarde.',
    );
    expect(sent).toEqual([]);
  });

  it('clears a recorded SUNAT failure once SUNAT answers (a message redriven from the DLQ)', async () => {
    const failed = invoice({ statusMessage: SUNAT_FAILURE_MESSAGE });
    const { handler, store } = setup([failed], () => VALID);

    await handler(event(record(messageOf(failed))));

    expect(store.current(failed)).toMatchObject({ certStatus: 'VALID', statusMessage: null });
  });

  it('reports a message about an invoice that does not exist as failed', async () => {
    const { handler, asked } = setup([], () => VALID);

    const response = await handler(event(record(messageOf(invoice()))));

    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm-1' }]);
    expect(asked).toEqual([]);
  });

  it('writes on the fresh invoice when another writer moved it after it was read, asking SUNAT once', async () => {
    // Prepare: the first write finds a newer version (a concurrent edit of the notes).
    const pending = invoice();
    const { handler, store, asked, sent } = setup([pending], () => VALID);
    const realSet = store.setCertification.bind(store);
    let first = true;
    store.setCertification = async (before, change, audit, alsoPut) => {
      if (first) {
        first = false;
        await realSet(before, { certStatus: 'PENDING', statusMessage: null, sunat: null }, audit);
        throw new InvoiceChangedError();
      }
      return realSet(before, change, audit, alsoPut);
    };

    // Act
    const response = await handler(event(record(messageOf(pending))));

    // Assess
    expect(response.batchItemFailures).toEqual([]);
    expect(asked).toHaveLength(1);
    expect(store.current(pending)).toMatchObject({ certStatus: 'VALID', version: 3 });
    expect(sent).toEqual([expect.objectContaining({ event: 'SUNAT_VALID' })]);
  });

  describe('metrics', () => {
    it('counts a question SUNAT answered as a call without failure, whatever the verdict', async () => {
      const valid = invoice();
      const annulled = invoice({ id: 'F001-1235', numericId: '1235' });
      const { handler, counted } = setup([valid, annulled], (document) =>
        document.number === '1235' ? ANNULLED : VALID,
      );

      await handler(event(record(messageOf(valid), { id: 'a' }), record(messageOf(annulled), { id: 'b' })));

      expect(counted).toEqual([
        { name: 'SunatCalls', value: 1 },
        { name: 'SunatFailures', value: 0 },
        { name: 'SunatCalls', value: 1 },
        { name: 'SunatFailures', value: 0 },
      ]);
    });

    it('counts a question SUNAT could not answer as a call and a failure', async () => {
      const pending = invoice();
      const { handler, counted } = setup([pending], () => new SunatUnavailableError('HTTP 503 (3 tries)'));

      await handler(event(record(messageOf(pending))));

      expect(counted).toEqual([
        { name: 'SunatCalls', value: 1 },
        { name: 'SunatFailures', value: 1 },
      ]);
    });

    it('counts nothing when SUNAT is not asked (a redelivery or a poison message)', async () => {
      const decided = invoice({ certStatus: 'VALID', version: 3 });
      const { handler, counted } = setup([decided], () => VALID);

      await handler(event(record(messageOf(decided)), record('not json', { id: 'poison' })));

      expect(counted).toEqual([]);
    });
  });

  describe('the CDR the supplier sent, judged beside SUNAT’s answer', () => {
    const cdr = (change: Partial<SupplierCdr> = {}): SupplierCdr => ({
      responseCode: '0',
      description: 'La Factura numero F001-00000042, ha sido aceptada',
      verdict: 'ACCEPTED',
      documentId: 'F001-00000042',
      senderTaxId: '20131312955',
      responseDate: '2026-10-19',
      notes: [],
      fileKey: 'uploads/x/2026/10/cdr.xml',
      receivedAt: '2026-10-19T15:00:00.000Z',
      contradiction: null,
      ...change,
    });

    it('flags an accepted CDR of a document SUNAT says is annulled, and tells staff with the verdict', async () => {
      const pending = invoice({ supplierCdr: cdr() });
      const { handler, store, sent } = setup([pending], () => ANNULLED);

      await handler(event(record(messageOf(pending))));

      const stored = store.current(pending)!;
      expect(stored.certStatus).toBe('INVALID');
      expect(stored.supplierCdr?.contradiction).toEqual({
        reasons: [
          expect.objectContaining({ kind: 'ACCEPTED_BUT_NOT_VALID', message: expect.stringContaining('ANULADO') }),
        ],
        flaggedAt: NOW.toISOString(),
      });
      expect(sent).toEqual([
        expect.objectContaining({ event: 'SUNAT_INVALID' }),
        expect.objectContaining({ event: 'CDR_CONTRADICTION', detail: expect.stringContaining('«Aceptado»') }),
      ]);
    });

    it('leaves a CDR that agrees with SUNAT unflagged, and keeps a flag of identity raised at intake', async () => {
      const agreeing = invoice({ supplierCdr: cdr() });
      const other = invoice({
        id: 'F001-00000043',
        numericId: '00000043',
        supplierCdr: cdr({
          contradiction: {
            reasons: [{ kind: 'OTHER_CUSTOMER', message: 'otra sociedad' }],
            flaggedAt: '2026-10-19T15:00:00.000Z',
          },
        }),
      });
      const { handler, store, sent } = setup([agreeing, other], () => VALID);

      await handler(event(record(messageOf(agreeing)), record(messageOf(other), { id: 'm2' })));

      expect(store.current(agreeing)!.supplierCdr?.contradiction).toBeNull();
      expect(store.current(other)!.supplierCdr?.contradiction).toEqual(other.supplierCdr!.contradiction);
      expect(sent.map((body) => (body as { event: string }).event)).toEqual(['SUNAT_VALID', 'SUNAT_VALID']);
    });
  });
});

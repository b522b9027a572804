import type { SQSEvent } from 'aws-lambda';
import type { AuditStamp } from '../repositories/invoice-audit.js';
import { describe, expect, it, vi } from 'vitest';
import {
  INVOICE_STATUS_LABELS,
  QUEUES,
  SUNAT_CHECK,
  sunatCheckView,
  sunatRecheckSeconds,
  type Invoice,
} from '@portal/shared';
import { SunatUnavailableError, type SunatVerdict } from '../adapters/sunat.js';
import { InvoiceChangedError, type StoredInvoice } from '../repositories/invoice-store.js';
import { fakeOutbox } from '../repositories/outgoing.fake.js';
import { MAX_RELAYS, outgoingIdOf, outgoingItem } from '../repositories/outgoing.js';
import {
  openSunatCheckItem,
  sunatCheckKeyOf,
  type SunatCheckRecord,
  type SunatChecks,
} from '../repositories/sunat-checks.js';
import { acknowledgingOutgoing } from '../workers/acknowledge.js';
import { makeSunatValidationWorker } from '../workers/sunat-validation-worker.js';
import { makeSunatRecheck } from './sunat-recheck.js';
import { storedInvoiceFixture } from '../use-cases/invoice.fake.js';
import { VALID_VERDICT } from '../use-cases/sunat/sunat-verdict.fake.js';

const RECEIVED_AT = new Date('2026-11-20T15:00:00.000Z');
const BASE_SECONDS = SUNAT_CHECK.staleAfterSeconds;
const VALID: SunatVerdict = VALID_VERDICT;

const INVOICE: StoredInvoice = storedInvoiceFixture({
  id: 'F001-4321',
  numericId: '4321',
  amount: 1180,
  taxAmount: 180,
  issuedAt: '2026-11-20',
  receivedAt: '2026-11-20T14:00:00.000Z',
  statusHistory: [
    {
      status: 'PENDING',
      title: INVOICE_STATUS_LABELS.PENDING,
      additionalMessage: null,
      date: RECEIVED_AT.toISOString(),
      by: null,
    },
  ],
});

/** SUNAT checks kept as DynamoDB would: the due index's sort key, and every change conditioned on the check as read. */
function fakeChecks(outbox: ReturnType<typeof fakeOutbox>) {
  const items = new Map<string, SunatCheckRecord>();
  const asRead = (record: SunatCheckRecord) => {
    const current = items.get(record.pk);
    return current && current.state === 'OPEN' && current.gsi1sk === record.gsi1sk ? current : null;
  };
  const sk = (pk: string, at: string) => `${at}#${pk}`;
  const checks: Pick<SunatChecks, 'get' | 'due' | 'postpone' | 'close' | 'redrive' | 'recordFailure'> = {
    async get(key) {
      const item = items.get(key.pk);
      return item ? { ...item } : null;
    },
    async due(now, limit) {
      return [...items.values()]
        .filter((item) => item.state === 'OPEN' && String(item.gsi1sk) < now.toISOString())
        .sort((a, b) => String(a.gsi1sk).localeCompare(String(b.gsi1sk)))
        .slice(0, limit)
        .map((item) => ({ ...item }));
    },
    async postpone(record, until) {
      const current = asRead(record);
      if (!current) return false;
      items.set(record.pk, { ...current, dueAt: until.toISOString(), gsi1sk: sk(record.pk, until.toISOString()) });
      return true;
    },
    async close(record) {
      const current = asRead(record);
      if (!current) return false;
      items.set(record.pk, { ...current, state: 'DONE', gsi1sk: null });
      return true;
    },
    async redrive(record, message, nextLook) {
      const current = asRead(record);
      if (!current) return false;
      items.set(record.pk, {
        ...current,
        outgoingId: message.id,
        redrives: current.redrives + 1,
        dueAt: nextLook.toISOString(),
        gsi1sk: sk(record.pk, nextLook.toISOString()),
      });
      outbox.put([outgoingItem(message)]);
      return true;
    },
    async recordFailure(key, reason, at) {
      const current = items.get(key.pk);
      if (current?.state === 'OPEN')
        items.set(key.pk, { ...current, lastFailureAt: at.toISOString(), lastError: reason });
    },
  };
  return {
    checks,
    items,
    /** The items a change writes with itself (a verdict's closed check, an intake's open one). */
    put(extra: readonly Record<string, unknown>[]) {
      for (const item of extra) if (String(item.pk).startsWith('SUNAT#')) items.set(String(item.pk), item as never);
    },
  };
}

/**
 * One invoice waiting for SUNAT, with the real SUNAT worker (acknowledging its messages as the workers' wrapper
 * does) and the real SUNAT step of the sweeper around in-memory checks, outbox and invoice; SQS is `deliver`, which
 * hands the worker what was sent since, each message received `receives` times; SUNAT answers `sunat()`.
 */
function world(options: { outgoingId?: 'none' | 'lost' } = {}) {
  let now = new Date(RECEIVED_AT.getTime() + 1000);
  let invoice: StoredInvoice = INVOICE;
  let sunatDown = false;
  const asked: string[] = [];
  const outbox = fakeOutbox();
  const { checks, items, put } = fakeChecks(outbox);
  const store = {
    async get() {
      return invoice;
    },
    async setCertification(
      before: StoredInvoice,
      change: Pick<Invoice, 'certStatus' | 'statusMessage' | 'sunat'>,
      _audit: AuditStamp,
      alsoPut: readonly Record<string, unknown>[] = [],
    ) {
      if (before.version !== invoice.version) throw new InvoiceChangedError();
      invoice = { ...before, ...change, version: before.version + 1 };
      outbox.put(alsoPut);
      put(alsoPut);
      return invoice;
    },
  };
  const worker = acknowledgingOutgoing(
    'sunatValidation',
    outbox.outgoing,
    makeSunatValidationWorker({
      store,
      sunat: {
        async validate(_, document) {
          asked.push(`${document.series}-${document.number}`);
          if (sunatDown) throw new SunatUnavailableError('HTTP 503 (3 tries)');
          return VALID;
        },
      },
      outgoing: outbox.outgoing,
      clock: () => now,
      log: { info: vi.fn(), warn: vi.fn(), error: vi.fn() },
      maxReceiveCount: QUEUES.sunatValidation.maxReceiveCount,
      checks,
    }),
  );
  const log = { info: vi.fn(), error: vi.fn() };
  const recheck = makeSunatRecheck({
    checks,
    invoices: store,
    outgoing: outbox.outgoing,
    clock: () => now,
    log,
    baseSeconds: BASE_SECONDS,
  });

  // The intake committed the invoice with its check (and, unless the seed wrote it, its SUNAT message).
  const check = openSunatCheckItem(INVOICE, {
    pendingSince: RECEIVED_AT,
    dueAt: new Date(RECEIVED_AT.getTime() + BASE_SECONDS * 1000),
    outgoingId: options.outgoingId === 'none' ? null : 'intake-message',
  });
  items.set(check.pk, check);
  if (options.outgoingId !== 'none') {
    outbox.put([
      outgoingItem({
        queue: 'sunatValidation',
        id: 'intake-message',
        body: { supplierId: INVOICE.supplierId, invoiceType: INVOICE.type, invoiceId: INVOICE.id },
        createdAt: RECEIVED_AT.toISOString(),
        trace: { traceparent: null, tracestate: null },
      }),
    ]);
  }

  let delivered = 0;
  const w = {
    outbox,
    asked,
    log,
    invoice: () => invoice,
    setInvoice(change: Partial<StoredInvoice>) {
      invoice = { ...invoice, ...change, version: invoice.version + 1 };
    },
    /** SQS lost every message sent so far: the worker never gets them. */
    lose() {
      delivered = outbox.sent.length;
    },
    check: () => items.get(sunatCheckKeyOf(INVOICE).pk)!,
    set sunatDown(value: boolean) {
      sunatDown = value;
    },
    /** The clock moves on. */
    later(seconds: number) {
      now = new Date(now.getTime() + seconds * 1000);
      return now;
    },
    sweep: () => recheck.sweep(),
    /** SQS hands the worker each SUNAT message sent since the last delivery, `receives` times (then its DLQ). */
    async deliver(receives = 1) {
      const fresh = outbox.sent.slice(delivered).filter((sent) => sent.queue === 'sunatValidation');
      delivered = outbox.sent.length;
      for (const [i, sent] of fresh.entries()) {
        for (let receive = 1; receive <= receives; receive++) {
          const body = JSON.stringify(sent.body);
          const answer = await worker({
            Records: [
              {
                messageId: `m-${delivered}-${i}`,
                body,
                attributes: { ApproximateReceiveCount: String(receive) },
              },
            ],
          } as unknown as SQSEvent);
          if (answer.batchItemFailures.length === 0) break;
        }
      }
      return fresh.length;
    },
    sunatMessagesSent: () => outbox.sent.filter((sent) => sent.queue === 'sunatValidation').length,
  };
  return w;
}

describe('the sweeper asks SUNAT again about invoices waiting with nothing coming', () => {
  it('an invoice stored without its SUNAT message (the seed) is asked about once it is due, and ends VALID with its check closed', async () => {
    const w = world({ outgoingId: 'none' });

    // Not due yet: nothing happens before the wait is over.
    expect(await w.sweep()).toEqual({ resent: 0, waiting: 0, closed: 0 });
    expect(w.sunatMessagesSent()).toBe(0);

    w.later(BASE_SECONDS);
    expect(await w.sweep()).toEqual({ resent: 1, waiting: 0, closed: 0 });
    expect(w.outbox.sent.map((sent) => sent.body)).toEqual([
      expect.objectContaining({ supplierId: INVOICE.supplierId, invoiceType: 'FACTURA', invoiceId: INVOICE.id }),
    ]);
    expect(await w.deliver()).toBe(1);

    expect(w.invoice()).toMatchObject({ certStatus: 'VALID' });
    expect(w.check()).toMatchObject({ state: 'DONE' });
    // The message was handled: nothing left for the relay, and nothing more for the sweeper.
    expect(w.outbox.items().filter((item) => item.queue === 'sunatValidation')).toEqual([]);
    w.later(24 * 3600);
    expect(await w.sweep()).toEqual({ resent: 0, waiting: 0, closed: 0 });
    expect(w.asked).toEqual(['F001-4321']);
  });

  it('leaves alone a check whose message is still on its way, and looks again after the same wait', async () => {
    const w = world();
    const due = w.later(BASE_SECONDS);

    expect(await w.sweep()).toEqual({ resent: 0, waiting: 1, closed: 0 });

    expect(w.sunatMessagesSent()).toBe(0);
    expect(w.check()).toMatchObject({
      redrives: 0,
      outgoingId: 'intake-message',
      dueAt: new Date(due.getTime() + BASE_SECONDS * 1000).toISOString(),
    });
  });

  it('sends again a message the queue lost after it was handed over (the SQS stand-in restarted), once the relay gave up on it', async () => {
    const w = world();
    // The queue loses the intake's message and every copy the relay sends, until the relay gives up.
    for (let relay = 0; relay <= MAX_RELAYS + 1; relay++) await w.outbox.relay();
    w.lose();
    expect(w.outbox.items()).toEqual([expect.objectContaining({ abandonedAt: expect.any(String) })]);

    w.later(BASE_SECONDS);
    expect(await w.sweep()).toMatchObject({ resent: 1 });
    await w.deliver(1);
    expect(w.invoice().certStatus).toBe('VALID');
  });

  it('closes the check of an invoice SUNAT answered meanwhile, without asking again', async () => {
    const w = world({ outgoingId: 'none' });
    w.later(BASE_SECONDS);
    // A verdict written by a worker that did not close the check (one deployed before checks existed).
    w.setInvoice({ certStatus: 'VALID' });

    expect(await w.sweep()).toEqual({ resent: 0, waiting: 0, closed: 1 });
    expect(w.check().state).toBe('DONE');
    expect(w.sunatMessagesSent()).toBe(0);
  });

  it('SUNAT down for hours: every receive fails, the relay gives up, the sweeper sends it again with doubling waits, and the invoice ends VALID once SUNAT is back', async () => {
    const w = world();
    w.sunatDown = true;
    await w.outbox.outgoing.deliver([
      {
        queue: 'sunatValidation',
        id: 'intake-message',
        body: { supplierId: INVOICE.supplierId, invoiceType: INVOICE.type, invoiceId: INVOICE.id },
        createdAt: RECEIVED_AT.toISOString(),
        trace: { traceparent: null, tracestate: null },
      },
    ]);
    // Every receive fails: the message ends in the DLQ, unacknowledged; the relay's copies fare the same.
    await w.deliver(QUEUES.sunatValidation.maxReceiveCount);
    for (let relay = 0; relay <= MAX_RELAYS + 1; relay++) {
      await w.outbox.relay();
      await w.deliver(QUEUES.sunatValidation.maxReceiveCount);
    }
    expect(w.invoice().certStatus).toBe('PENDING');
    // The detail says since when it waits, that SUNAT failed, and when the portal looks again.
    expect(sunatCheckView(w.check())).toMatchObject({
      pendingSince: RECEIVED_AT.toISOString(),
      lastFailureAt: expect.any(String),
    });

    const sentBefore = w.sunatMessagesSent();
    const waits: number[] = [];
    for (let round = 0; round < 4; round++) {
      const at = w.later(sunatRecheckSeconds(round, BASE_SECONDS) + 1);
      expect(await w.sweep()).toMatchObject({ resent: 1 });
      waits.push((Date.parse(w.check().dueAt!) - at.getTime()) / 1000);
      await w.deliver(QUEUES.sunatValidation.maxReceiveCount);
      // Its relay gives up too: the next round is the sweeper's again.
      for (let relay = 0; relay <= MAX_RELAYS + 1; relay++) await w.outbox.relay();
    }
    expect(w.sunatMessagesSent() - sentBefore).toBeGreaterThanOrEqual(4);
    expect(waits).toEqual([2, 4, 8, 16].map((factor) => factor * BASE_SECONDS));

    w.sunatDown = false;
    w.later(sunatRecheckSeconds(4, BASE_SECONDS) + 1);
    expect(await w.sweep()).toMatchObject({ resent: 1 });
    await w.deliver(1);
    expect(w.invoice()).toMatchObject({ certStatus: 'VALID', statusMessage: null });
    expect(w.check().state).toBe('DONE');
  });

  it('two sweeper runs at once send one message', async () => {
    const w = world({ outgoingId: 'none' });
    w.later(BASE_SECONDS);

    const [first, second] = await Promise.all([w.sweep(), w.sweep()]);

    expect(first.resent + second.resent).toBe(1);
    expect(w.sunatMessagesSent()).toBe(1);
    expect(outgoingIdOf(JSON.stringify(w.outbox.sent[0]!.body))).toBe(w.check().outgoingId);
  });

  it('waits twice as long after each message sent again, up to six hours', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map((n) => sunatRecheckSeconds(n))).toEqual([
      600, 1200, 2400, 4800, 9600, 19200, 21600, 21600,
    ]);
    // The local stage's short wait doubles the same way.
    expect([0, 1, 2].map((n) => sunatRecheckSeconds(n, 5))).toEqual([5, 10, 20]);
  });
});

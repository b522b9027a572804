import type { SQSRecord } from 'aws-lambda';
import { context, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { keys, miroBackoffSeconds, type Invoice, type MiroRequestMessage } from '@portal/shared';
import type { SapDocument, SupplierInvoicePosting, SupplierInvoiceReference } from '../adapters/sap.js';
import { TRACEPARENT, injectIntoMessageAttributes, telemetry, traceContextNow } from '../observability/telemetry.js';
import type { StoredInvoice } from '../repositories/invoice-store.js';
import type { MiroOutbox, MiroOutboxRecord } from '../repositories/miro-outbox.js';
import { approvedInvoiceFixture } from '../use-cases/miro/approved-invoice.fake.js';
import { ONE_HES_OUTBOX, claimableAt } from '../use-cases/miro/miro-outbox.fake.js';
import { MIRO_NO_ANSWER } from '../use-cases/miro/miro-posting-deps.js';
import { makeMiroRequestsWorker } from '../workers/miro-requests-worker.js';
import { makeOutboxSweeper } from './outbox-sweeper.js';

const SUPPLIER = '20700001011';
const CLIENT = '20100070970';
const KEY = keys.miroOutbox(SUPPLIER, 'FACTURA', 'F001-7');
const APPROVED_AT = new Date('2026-11-02T10:00:00Z');
const LEASE_MS = 60_000;
const GRACE_MS = 60_000;
const DOCUMENT: SapDocument = { number: '5105600042', fiscalYear: '2026' };

const INVOICE = approvedInvoiceFixture({ id: 'F001-7', supplierId: SUPPLIER, client: CLIENT });

/**
 * One MIRO record kept as DynamoDB would (conditions and the due index's sort key), the real worker
 * and sweeper around it, a SAP that counts postings by idempotency key, and a clock the test moves.
 */
function world(approval: { traceparent?: string } = {}) {
  let now = APPROVED_AT;
  let record: MiroOutboxRecord = {
    ...KEY,
    state: 'PENDING',
    idempotencyKey: KEY.pk,
    supplierId: SUPPLIER,
    invoiceType: 'FACTURA',
    invoiceId: 'F001-7',
    client: CLIENT,
    createdAt: APPROVED_AT.toISOString(),
    attempts: 0,
    gsi1sk: `${new Date(APPROVED_AT.getTime() + GRACE_MS).toISOString()}#${KEY.pk}`,
    ...approval,
  };
  let invoice = INVOICE;
  let dropNotices = false;
  const due = (at: string) => `${at}#${KEY.pk}`;
  const open = () => record.state === 'PENDING' || record.state === 'POSTING';
  const outbox: MiroOutbox = {
    get: async () => ({ ...record }),
    claim: async (_key, lease) => {
      const free = claimableAt(record, lease.now.toISOString());
      if (free) {
        const until = lease.until.toISOString();
        record = {
          ...record,
          state: 'POSTING',
          leaseOwner: lease.owner,
          postingUntil: until,
          attempts: (record.attempts ?? 0) + 1,
          gsi1sk: due(until),
        };
      }
      return free;
    },
    retryLater: async (_key, owner, error, next) => {
      if (record.state !== 'POSTING' || record.leaseOwner !== owner) return false;
      const at = next.toISOString();
      record = { ...record, state: 'PENDING', lastError: error, nextAttemptAt: at, leaseOwner: null, gsi1sk: due(at) };
      return true;
    },
    markPosted: async (_key, document, at, notifyBy) => {
      if (record.state === 'POSTED') return false;
      record = {
        ...record,
        state: 'POSTED',
        sapDocument: document,
        postedAt: at,
        gsi1sk: due(notifyBy!.toISOString()),
      };
      return true;
    },
    markNotified: async (_key, at) => {
      if (dropNotices) throw new Error('worker killed before it told anyone');
      record = { ...record, notifiedAt: at, gsi1sk: null };
    },
    markFailed: async (_key, error, at, owner) => {
      if (owner ? record.state !== 'POSTING' || record.leaseOwner !== owner : !open()) return false;
      const notifyBy = new Date(Date.parse(at) + 60_000).toISOString();
      record = { ...record, state: 'FAILED', lastError: error, failedAt: at, gsi1sk: due(notifyBy) };
      return true;
    },
    markFailureNotified: async (_key, at) => {
      if (dropNotices) throw new Error('worker killed before it told anyone');
      record = { ...record, failureNotifiedAt: at, gsi1sk: null };
    },
    due: async (at) => (record.gsi1sk && record.gsi1sk < at.toISOString() ? [{ ...record }] : []),
    postpone: async (seen, until) => {
      if (record.gsi1sk !== seen.gsi1sk || record.state !== seen.state) return false;
      record = { ...record, gsi1sk: due(until.toISOString()) };
      return true;
    },
    retry: async () => false,
    ...ONE_HES_OUTBOX,
  };

  // SAP: Repeatability-Request-ID honoured. `answer` decides each POST: post it; fail; or the worker is
  // killed during the call (its promise never settles), before SAP got it or after SAP posted.
  const posted = new Map<string, SapDocument>();
  const sapRequests: string[] = [];
  let answer: 'post' | 'fail' | 'killed-before' | 'killed-after' = 'post';
  const never = new Promise<never>(() => undefined);
  const sap = {
    postSupplierInvoice: async (posting: SupplierInvoicePosting) => {
      sapRequests.push(posting.idempotencyKey);
      if (answer === 'fail') throw new Error('SAP no disponible');
      if (answer === 'killed-before') return never;
      const document = posted.get(posting.idempotencyKey) ?? DOCUMENT;
      posted.set(posting.idempotencyKey, document);
      if (answer === 'killed-after') return never;
      return document;
    },
    findSupplierInvoice: async (reference: SupplierInvoiceReference) => {
      lookups.push(reference);
      return posted.size > 0 && reference.supplierInvoiceId === 'F001-7' ? DOCUMENT : null;
    },
  };
  const lookups: SupplierInvoiceReference[] = [];
  const queued: MiroRequestMessage[] = [];
  const notified: unknown[] = [];
  const deps = {
    outbox,
    store: {
      get: async () => invoice,
      commit: async ({ after }: { after: Invoice }) => {
        invoice = { ...(after as Invoice), version: invoice.version + 1 } as StoredInvoice;
        return invoice;
      },
    },
    sap,
    notifications: { send: async (body: unknown) => void notified.push(body) },
    clock: () => now,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    leaseMs: LEASE_MS,
    maxAttempts: 3,
    retryBaseMs: 30_000,
  };
  const worker = makeMiroRequestsWorker(deps);
  let relayed = 0;
  const sentTraceparents: (string | undefined)[] = [];
  const sweeper = makeOutboxSweeper({
    outgoing: { relay: async () => relayed },
    miro: outbox,
    posting: deps,
    sap,
    miroQueue: {
      send: async (body) => {
        queued.push(body as MiroRequestMessage);
        // What the SQS client's instrumentation would put in the message's attributes now.
        sentTraceparents.push(injectIntoMessageAttributes(undefined)?.[TRACEPARENT]?.StringValue);
      },
    },
    clock: () => now,
    log: deps.log,
    graceMs: GRACE_MS,
  });
  const deliver = (message: MiroRequestMessage) =>
    worker({
      Records: [
        { messageId: 'm', body: JSON.stringify(message), attributes: { ApproximateReceiveCount: '1' } } as SQSRecord,
      ],
    });
  return {
    sweep: () => sweeper.sweep(),
    deliver,
    /** Delivers what the sweeper queued, as the MIRO queue would. */
    deliverQueued: async () => {
      for (const message of queued.splice(0)) await deliver(message);
    },
    at: (iso: string) => (now = new Date(iso)),
    record: () => record,
    invoice: () => invoice,
    setAnswer: (value: typeof answer) => (answer = value),
    setRelayed: (n: number) => (relayed = n),
    killBeforeNotice: (value: boolean) => (dropNotices = value),
    queued,
    sentTraceparents,
    notified,
    lookups,
    sapRequests,
    postings: () => posted.size,
    message: { supplierId: SUPPLIER, invoiceType: 'FACTURA', invoiceId: 'F001-7', outboxKey: KEY.pk } as const,
  };
}

/** A sweep at that moment, and the delivery of what it queued; what the sweep answered. */
async function sweepAndDeliver(w: ReturnType<typeof world>, at: string) {
  w.at(at);
  const swept = await w.sweep();
  await w.deliverQueued();
  return swept;
}

/**
 * The sweep told the company again with the same notice (the notifications worker keeps one feed item and one
 * e-mail), and then there is nothing left to tell; SAP got `sapRequests` requests in all.
 */
async function expectNoticeRepeatedThenDone(w: ReturnType<typeof world>, event: string, sapRequests: number) {
  const notices = w.notified.filter((n) => (n as { event: string }).event === event);
  expect(notices).toHaveLength(2);
  expect(notices[1]).toEqual(notices[0]);
  expect(await w.sweep()).toMatchObject({ notified: 0 });
  expect(w.sapRequests).toHaveLength(sapRequests);
}

describe('outbox sweeper', () => {
  it('sends again a request whose message was lost, only once its grace has passed, and it posts', async () => {
    const w = world();
    w.at('2026-11-02T10:00:59Z');
    expect(await w.sweep()).toMatchObject({ resent: 0 });
    w.at('2026-11-02T10:01:01Z');
    expect(await w.sweep()).toMatchObject({ resent: 1 });
    expect(w.queued).toEqual([w.message]);
    // The next run, while the worker has not taken it yet, does not send it twice.
    expect(await w.sweep()).toMatchObject({ resent: 0 });
    expect(w.lookups).toEqual([]); // no attempt was made: nothing to look for at SAP
    await w.deliverQueued();
    expect(w.record()).toMatchObject({ state: 'POSTED', sapDocument: DOCUMENT });
    expect(w.invoice().sapDocument).toEqual(DOCUMENT);
  });

  it("sends a lost request again in the approval's trace, not in a new one of the sweeper's", async () => {
    const approval = telemetry.tracer.startSpan(
      'POST /suppliers/{supplierId}/invoices/{invoiceType}/{invoiceId}/review',
    );
    const stored = traceContextNow(trace.setSpan(context.active(), approval));
    approval.end();
    const w = world(stored);
    w.at('2026-11-02T10:01:01Z');
    // The scheduled run, in its own invocation span (another trace).
    const run = telemetry.invocation(async (_event: unknown) => w.sweep());
    expect(
      await run({ 'detail-type': 'Scheduled Event', resources: ['arn:aws:events:x:1:rule/sweeper'] }),
    ).toMatchObject({ resent: 1 });
    expect(w.sentTraceparents).toHaveLength(1);
    expect(w.sentTraceparents[0]?.split('-')[1]).toBe(approval.spanContext().traceId);
  });

  it('relays the messages of every queue committed and not sent', async () => {
    const w = world();
    w.setRelayed(4);
    expect(await w.sweep()).toMatchObject({ relayed: 4 });
  });

  it('reads back what SAP posted for a worker killed during the call, once its lease is over: POSTED, not posted again', async () => {
    const w = world();
    w.setAnswer('killed-after');
    void w.deliver(w.message);
    await until(() => w.postings() === 1);
    expect(w.record()).toMatchObject({ state: 'POSTING', attempts: 1 });

    w.at('2026-11-02T10:00:59Z'); // the lease (60 s) still runs: the worker may be alive
    expect(await w.sweep()).toMatchObject({ resent: 0, recovered: 0 });
    expect(w.lookups).toEqual([]);

    w.at('2026-11-02T10:01:01Z');
    expect(await w.sweep()).toMatchObject({ resent: 0, recovered: 1 });
    expect(w.lookups).toEqual([
      { client: CLIENT, supplierId: SUPPLIER, supplierInvoiceId: 'F001-7', creditMemo: false, adjustment: false },
    ]);
    expect(w.record()).toMatchObject({ state: 'POSTED', sapDocument: DOCUMENT });
    expect(w.invoice().sapDocument).toEqual(DOCUMENT);
    expect(w.notified).toEqual([expect.objectContaining({ event: 'INVOICE_APPROVED' })]);
    expect(w.sapRequests).toHaveLength(1);
    expect(w.queued).toEqual([]);
  });

  it('tells the people concerned when the worker died between POSTED and its notice', async () => {
    const w = world();
    w.killBeforeNotice(true);
    await w.deliver(w.message);
    expect(w.record()).toMatchObject({ state: 'POSTED' });
    expect(w.record().notifiedAt).toBeUndefined();
    w.killBeforeNotice(false);
    w.at('2026-11-02T10:00:59Z');
    expect(await w.sweep()).toMatchObject({ notified: 0 });
    w.at('2026-11-02T10:01:01Z');
    expect(await w.sweep()).toMatchObject({ notified: 1, resent: 0 });
    // The same notice again (same moment: the notifications worker keeps one feed item and one e-mail).
    expect(w.record()).toMatchObject({ notifiedAt: expect.any(String) });
    await expectNoticeRepeatedThenDone(w, 'INVOICE_APPROVED', 1);
  });

  it('finishes a FAILED posting whose worker died before the company was told', async () => {
    const w = world();
    w.setAnswer('fail');
    await w.deliver(w.message);
    await sweepAndDeliver(w, '2026-11-02T10:00:31Z');
    w.killBeforeNotice(true);
    await sweepAndDeliver(w, '2026-11-02T10:01:32Z');
    expect(w.record()).toMatchObject({ state: 'FAILED' });
    expect(w.record().failureNotifiedAt).toBeUndefined();
    w.killBeforeNotice(false);
    w.at('2026-11-02T10:02:33Z');
    expect(await w.sweep()).toMatchObject({ notified: 1, resent: 0 });
    expect(w.record()).toMatchObject({ state: 'FAILED', failureNotifiedAt: expect.any(String) });
    expect(w.invoice().statusMessage).toMatch(/MIRO/);
    await expectNoticeRepeatedThenDone(w, 'MIRO_FAILED', 3);
  });

  it('sends again, with the same idempotency key, what SAP does not hold after a worker was killed', async () => {
    const w = world();
    w.setAnswer('killed-before');
    void w.deliver(w.message);
    await until(() => w.sapRequests.length === 1);
    w.at('2026-11-02T10:01:01Z');
    expect(await w.sweep()).toMatchObject({ resent: 1, recovered: 0 });
    expect(w.lookups).toHaveLength(1);
    w.setAnswer('post');
    await w.deliverQueued();
    expect(w.sapRequests).toEqual([KEY.pk, KEY.pk]);
    expect(w.postings()).toBe(1);
    expect(w.record()).toMatchObject({ state: 'POSTED', attempts: 2, sapDocument: DOCUMENT });
  });

  it('retries a failed attempt when its backoff is over, not before, and it posts', async () => {
    const w = world();
    w.setAnswer('fail');
    await w.deliver(w.message);
    expect(w.record()).toMatchObject({ state: 'PENDING', attempts: 1, nextAttemptAt: '2026-11-02T10:00:30.000Z' });
    w.at('2026-11-02T10:00:29Z');
    expect(await w.sweep()).toMatchObject({ resent: 0 });
    w.at('2026-11-02T10:00:31Z');
    expect(await w.sweep()).toMatchObject({ resent: 1 });
    w.setAnswer('post');
    await w.deliverQueued();
    expect(w.record()).toMatchObject({ state: 'POSTED', attempts: 2 });
    expect(w.postings()).toBe(1);
  });

  it('gives up after the last attempt: FAILED with the reason, on the invoice too, and the company told', async () => {
    const w = world();
    w.setAnswer('fail');
    await w.deliver(w.message);
    for (const at of ['2026-11-02T10:00:31Z', '2026-11-02T10:01:32Z']) {
      expect(await sweepAndDeliver(w, at)).toMatchObject({ resent: 1 });
    }
    expect(w.sapRequests).toHaveLength(3);
    expect(w.record()).toMatchObject({ state: 'FAILED', attempts: 3, lastError: 'Error: SAP no disponible' });
    expect(w.invoice().statusMessage).toMatch(/MIRO/);
    expect(w.notified).toEqual([expect.objectContaining({ event: 'MIRO_FAILED' })]);
    w.at('2026-11-02T11:00:00Z');
    expect(await w.sweep()).toMatchObject({ resent: 0, recovered: 0, failed: 0 });
  });

  it('fails a posting whose last attempt died without an answer and that SAP does not hold', async () => {
    const w = world();
    w.setAnswer('fail');
    await w.deliver(w.message);
    await sweepAndDeliver(w, '2026-11-02T10:00:31Z');
    w.setAnswer('killed-before');
    w.at('2026-11-02T10:01:32Z');
    await w.sweep();
    void w.deliverQueued();
    await until(() => w.sapRequests.length === 3);
    expect(w.record()).toMatchObject({ state: 'POSTING', attempts: 3 });
    w.at('2026-11-02T10:02:33Z');
    expect(await w.sweep()).toMatchObject({ failed: 1, resent: 0 });
    expect(w.record()).toMatchObject({ state: 'FAILED', lastError: MIRO_NO_ANSWER });
  });
});

/** Lets the worker run until it reaches the state the test waits for (no timers: microtasks only). */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !condition(); i++) await Promise.resolve();
  expect(condition()).toBe(true);
}

describe('MIRO backoff', () => {
  it('doubles from the base: 30 s, 60 s, 120 s, 240 s', () => {
    expect([1, 2, 3, 4].map((attempt) => miroBackoffSeconds(attempt))).toEqual([30, 60, 120, 240]);
    expect(miroBackoffSeconds(3, 2)).toBe(8);
  });
  it('names the reason of a posting given up without an answer', () => {
    expect(MIRO_NO_ANSWER).toMatch(/SAP/);
  });
});

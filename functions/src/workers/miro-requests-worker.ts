import { randomUUID } from 'node:crypto';
import { systemStamp } from '../use-cases/audit-stamp.js';
import {
  INVOICE_ERROR_MESSAGES,
  METRICS,
  MIRO_POSTING,
  MiroRequestMessage,
  QUEUES,
  miroBackoffSeconds,
  notificationAbout,
  keys,
  isNoteType,
  type Invoice,
  type NotificationEvent,
} from '@portal/shared';
import type { SapDocument, SapPort, SupplierInvoicePosting, SupplierInvoiceWithholding } from '../adapters/sap.js';
import type { Queue } from '../adapters/sqs.js';
import type { Logger } from '../observability/logger.js';
import { UNCOUNTED, metered, type Meter } from '../observability/meter.js';
import { InvoiceChangedError, type InvoiceStore, type StoredInvoice } from '../repositories/invoice-store.js';
import type { MiroOutbox, MiroOutboxRecord } from '../repositories/miro-outbox.js';
import { sqsBatchHandler } from './sqs-batch.js';

export interface MiroRequestsDeps {
  readonly outbox: MiroOutbox;
  readonly store: Pick<InvoiceStore, 'get' | 'commit'>;
  readonly sap: Pick<SapPort, 'postSupplierInvoice' | 'findSupplierInvoice'>;
  readonly notifications: Queue;
  readonly clock: () => Date;
  readonly log: Pick<Logger, 'info' | 'warn' | 'error'>;
  /**
   * Counts each posting sent to SAP and whether it failed (METRICS.sapCalls, sapFailures).
   * @default UNCOUNTED
   */
  readonly meter?: Meter;
  /** How long one delivery may hold the record while it calls SAP; shorter than the visibility timeout. */
  readonly leaseMs: number;
  /**
   * Attempts before the posting is FAILED, and the wait after the first failed one (doubling after each).
   * @default MIRO_POSTING.maxAttempts, MIRO_POSTING.retryBaseSeconds
   */
  readonly maxAttempts?: number;
  readonly retryBaseMs?: number;
}

/** Shown on the invoice when the MIRO could not be posted on the message's last receive. */
export const MIRO_FAILURE_MESSAGE =
  INVOICE_ERROR_MESSAGES.ERROR_UNEXPECTED_EXCEPTION_DURING_MIRO_CREATION_REQUEST_SUBMIT;

/** How long a delivery holds a record: twice the worker's timeout, so a dead worker's lease ends well before SQS redelivers. */
export const miroLeaseMs = () => QUEUES.miroRequests.consumerTimeoutSeconds * 2 * 1000;

/** The first backoff: MIRO_POSTING.retryBaseSeconds, or the stage's MIRO_RETRY_BASE_SECONDS (the local stage's tests). */
export function miroRetryBaseMs(env: NodeJS.ProcessEnv = process.env): number {
  const seconds = Number(env[MIRO_POSTING.timeScaleEnv]);
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : MIRO_POSTING.retryBaseSeconds) * 1000;
}

/** Why a posting with no answer from SAP after its last attempt failed (the sweeper found nothing posted). */
export const MIRO_NO_ANSWER = 'SAP no respondió al último intento y no registra el documento.';

/** Another delivery of the same request holds the lease: this one is retried later. */
export class MiroPostingInProgressError extends Error {
  override readonly name = 'MiroPostingInProgressError';
}

const SAP_CALLS = { calls: METRICS.sapCalls, failures: METRICS.sapFailures };
const WRITE_ATTEMPTS = 5;
/** Every HES or MIGO is one line of the order's first item, as the review entered them. */
const PURCHASE_ORDER_ITEM = '10';

/**
 * Consumer of the MIRO queue: posts each approved invoice to SAP exactly once. For each message:
 * 1. load the outbox record; POSTED means a redelivery: finish what is left (notification) and stop;
 * 2. take it PENDING (once due) | FAILED → POSTING with a lease, so two deliveries never call SAP together;
 * 3. post the MIRO with the outbox key as Repeatability-Request-ID: a delivery that follows a worker
 *    killed after SAP answered gets the same document back, not a second posting;
 * 4. store the document on the invoice, then POSTED on the outbox (in that order, so POSTED always
 *    means the invoice has it), and send INVOICE_APPROVED with the SAP number;
 * 5. a failed attempt is kept on the record, PENDING with the time of the next attempt (backoff): the
 *    outbox sweeper sends the message again then. The message itself is done. After the last attempt
 *    the record is FAILED, the invoice shows the catalogue's message and the company is told.
 * What dies half-way is found by the sweeper (functions/src/jobs/sweep-outbox.ts) from the record.
 */
export function makeMiroPosting(deps: MiroRequestsDeps) {
  const { outbox, store, sap, notifications, clock, log, meter = UNCOUNTED } = deps;
  const maxAttempts = deps.maxAttempts ?? MIRO_POSTING.maxAttempts;
  const retryBaseMs = deps.retryBaseMs ?? MIRO_POSTING.retryBaseSeconds * 1000;

  async function loadInvoice(record: MiroOutboxRecord): Promise<StoredInvoice> {
    const invoice = await store.get(record.supplierId, record.invoiceType, record.invoiceId);
    if (!invoice) throw new Error(`invoice of outbox record ${record.pk} not found`);
    return invoice;
  }

  /** Writes a change of the invoice, reloading when another writer moved it first. */
  async function changeInvoice(
    record: MiroOutboxRecord,
    change: (invoice: StoredInvoice) => Invoice | null,
    action: 'SAP_POSTED' | 'SAP_POSTING_FAILED',
  ): Promise<StoredInvoice> {
    for (let attempt = 1; ; attempt++) {
      const before = await loadInvoice(record);
      const after = change(before);
      if (!after) return before;
      try {
        return await store.commit({
          before,
          after,
          whileStatusIn: [before.status],
          audit: systemStamp('miroPosting', action),
        });
      } catch (error) {
        if (!(error instanceof InvoiceChangedError) || attempt >= WRITE_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 20));
      }
    }
  }

  const sameDocument = (a: SapDocument | null | undefined, b: SapDocument) =>
    a?.number === b.number && a.fiscalYear === b.fiscalYear;

  function storeDocument(record: MiroOutboxRecord, document: SapDocument): Promise<StoredInvoice> {
    return changeInvoice(
      record,
      (invoice) =>
        sameDocument(invoice.sapDocument, document) && invoice.statusMessage !== MIRO_FAILURE_MESSAGE
          ? null
          : {
              ...invoice,
              sapDocument: document,
              statusMessage: invoice.statusMessage === MIRO_FAILURE_MESSAGE ? null : invoice.statusMessage,
            },
      'SAP_POSTED',
    );
  }

  async function announce(
    event: NotificationEvent,
    invoice: Invoice,
    detail: string | null,
    at: Date = clock(),
  ): Promise<void> {
    await notifications.send(notificationAbout(event, invoice, detail, at));
  }

  /** What is left after POSTED: the invoice carries the document, the people concerned are told. */
  async function finish(record: MiroOutboxRecord, document: SapDocument): Promise<void> {
    if (record.notifiedAt) return;
    const at = record.postedAt ? new Date(record.postedAt) : clock();
    await announceApproved(record, await storeDocument(record, document), document, at);
  }

  /**
   * INVOICE_APPROVED with SAP's number, at the moment it was POSTED: a notice sent again (the worker died
   * before markNotified) is the same notice, one feed item and one e-mail.
   */
  async function announceApproved(
    record: MiroOutboxRecord,
    invoice: Invoice,
    document: SapDocument,
    at: Date,
  ): Promise<void> {
    const detail = `Registrada en SAP con el documento ${document.number} (ejercicio ${document.fiscalYear}).`;
    await announce('INVOICE_APPROVED', invoice, detail, at);
    await outbox.markNotified(record, clock().toISOString());
  }

  /**
   * A note (issue 21) adjusts its original's SAP document: the portal's record of it, else SAP's own (an original
   * that never passed through the portal). Its net amount goes on its purchase orders — the original's — in the
   * proportion the original's HES/MIGO gave them, else in equal parts; a note without orders has no lines.
   */
  async function notePostingOf(
    record: MiroOutboxRecord,
    note: Invoice,
    reference: NonNullable<Invoice['billingReference']>,
  ): Promise<SupplierInvoicePosting> {
    const original = await store.get(note.supplierId, reference.type, reference.id);
    const inPortal = original && original.client === note.client ? original : null;
    const adjusts =
      inPortal?.sapDocument ??
      (await sap.findSupplierInvoice({
        client: note.client,
        supplierId: note.supplierId,
        supplierInvoiceId: reference.id,
        creditMemo: false,
        adjustment: false,
      }));
    if (!adjusts) throw new Error(`SAP no registra el comprobante original ${reference.id} de la nota ${note.id}.`);
    const lines = inPortal
      ? await outbox.conformityLines(inPortal.client, [
          ...inPortal.serviceSheets.map((documentId) => ({ kind: 'SERVICE_SHEET' as const, documentId })),
          ...inPortal.materialDocs.map((documentId) => ({ kind: 'MATERIAL_DOCUMENT' as const, documentId })),
        ])
      : [];
    const orders = [...new Set(note.purchaseOrders)];
    const weights = orders.map((order) =>
      lines.filter((line) => line.purchaseOrder === order).reduce((sum, line) => sum + line.amount, 0),
    );
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    const netCents = Math.round((note.amount - note.taxAmount) * 100);
    let left = netCents;
    const items = orders.map((purchaseOrder, i) => {
      const share =
        i === orders.length - 1
          ? left
          : Math.round((netCents * (total > 0 ? weights[i]! : 1)) / (total > 0 ? total : orders.length));
      left -= share;
      return { purchaseOrder, purchaseOrderItem: PURCHASE_ORDER_ITEM, amount: share / 100 };
    });
    return {
      idempotencyKey: record.idempotencyKey,
      client: note.client,
      supplierId: note.supplierId,
      supplierInvoiceId: note.id,
      documentDate: note.issuedAt,
      postingDate: clock().toISOString().slice(0, 10),
      currency: note.currency,
      grossAmount: note.amount,
      taxAmount: note.taxAmount,
      creditMemo: note.type === 'NOTA_DE_CREDITO',
      adjusts,
      items,
    };
  }

  async function postingOf(record: MiroOutboxRecord, invoice: Invoice): Promise<SupplierInvoicePosting> {
    if (isNoteType(invoice.type) && invoice.billingReference)
      return notePostingOf(record, invoice, invoice.billingReference);
    const refs = [
      ...invoice.serviceSheets.map((documentId) => ({ kind: 'SERVICE_SHEET' as const, documentId })),
      ...invoice.materialDocs.map((documentId) => ({ kind: 'MATERIAL_DOCUMENT' as const, documentId })),
    ];
    const lines = await outbox.conformityLines(invoice.client, refs);
    const missing = refs.filter((ref) => !lines.some((line) => line.documentId === ref.documentId));
    if (missing.length > 0) throw new Error(`conformity documents not found: ${missing.map((m) => m.documentId)}`);
    return {
      idempotencyKey: record.idempotencyKey,
      client: invoice.client,
      supplierId: invoice.supplierId,
      supplierInvoiceId: invoice.id,
      documentDate: invoice.issuedAt,
      postingDate: clock().toISOString().slice(0, 10),
      currency: invoice.currency,
      grossAmount: invoice.amount,
      taxAmount: invoice.taxAmount,
      creditMemo: invoice.type === 'NOTA_DE_CREDITO',
      withholdings: withholdingsOf(invoice),
      items: lines.map((line) => ({
        purchaseOrder: line.purchaseOrder,
        purchaseOrderItem: PURCHASE_ORDER_ITEM,
        amount: line.amount,
        ...(line.kind === 'SERVICE_SHEET'
          ? { serviceEntrySheet: line.documentId }
          : { referenceDocument: line.documentId, referenceDocumentFiscalYear: line.fiscalYear }),
      })),
    };
  }

  /** The last attempt failed: visible on the outbox and the invoice, and the company is told. */
  async function giveUp(record: MiroOutboxRecord, cause: string, owner?: string): Promise<void> {
    const at = clock().toISOString();
    if (!(await outbox.markFailed(record, cause, at, owner))) return;
    // What is left is the sweeper's if this fails: the record stays due until it is done.
    await finishFailure({ ...record, failedAt: at }).catch((error: unknown) =>
      log.error('MIRO failure not shown or not announced yet; left for the sweeper', error as Error),
    );
  }

  /** FAILED: the invoice shows the catalogue's message and the company hears of it (MIRO_FAILED), once. */
  async function finishFailure(record: MiroOutboxRecord): Promise<void> {
    const invoice = await changeInvoice(
      record,
      (current) =>
        current.sapDocument || current.statusMessage === MIRO_FAILURE_MESSAGE
          ? null
          : { ...current, statusMessage: MIRO_FAILURE_MESSAGE },
      'SAP_POSTING_FAILED',
    );
    // At the moment it failed: a notice sent again is the same notice.
    await announce('MIRO_FAILED', invoice, MIRO_FAILURE_MESSAGE, record.failedAt ? new Date(record.failedAt) : clock());
    await outbox.markFailureNotified(record, clock().toISOString());
  }

  async function post(message: MiroRequestMessage): Promise<void> {
    const expected = keys.miroOutbox(message.supplierId, message.invoiceType, message.invoiceId);
    if (expected.pk !== message.outboxKey) throw new Error(`outboxKey ${message.outboxKey} is not the invoice's`);
    const record = await outbox.get(expected);
    if (!record) throw new Error(`outbox record ${expected.pk} not found`);
    if (record.state === 'POSTED' && record.sapDocument) return finish(record, record.sapDocument);
    const owner = randomUUID();
    const now = clock();
    if (!(await outbox.claim(record, { owner, now, until: new Date(now.getTime() + deps.leaseMs) }))) {
      const current = await outbox.get(expected);
      if (current?.state === 'POSTED' && current.sapDocument) return finish(current, current.sapDocument);
      // Waiting for its next attempt: the sweeper sends the message again when it is due.
      if (current?.state === 'PENDING') return;
      throw new MiroPostingInProgressError(`outbox record ${expected.pk} is being posted by another delivery`);
    }
    const attempt = (record.state === 'POSTING' || record.state === 'PENDING' ? (record.attempts ?? 0) : 0) + 1;
    // Held now: what follows moves it from POSTING (the counts move by that, miro-outbox.ts).
    const held: MiroOutboxRecord = { ...record, state: 'POSTING' };
    let document: SapDocument;
    try {
      const posting = await postingOf(held, await loadInvoice(held));
      // A transport failure and SAP refusing the document are both failures of the posting.
      document = await metered(meter, SAP_CALLS, () => sap.postSupplierInvoice(posting));
    } catch (error) {
      const cause = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      log.warn('MIRO attempt failed', { outbox: expected.pk, attempt, cause });
      if (attempt >= maxAttempts) await giveUp(held, cause, owner);
      else await outbox.retryLater(held, owner, cause, new Date(clock().getTime() + backoffMs(attempt)));
      return;
    }
    log.info('MIRO posted', { outbox: expected.pk, document: document.number, fiscalYear: document.fiscalYear });
    await complete(held, document);
  }

  /** Wait after failed attempt `attempt`: base, 2·base, 4·base, … */
  const backoffMs = (attempt: number) => miroBackoffSeconds(attempt, retryBaseMs / 1000) * 1000;

  /** SAP holds `document` for the record: the invoice gets it, then POSTED, then the people concerned are told. */
  async function complete(record: MiroOutboxRecord, document: SapDocument): Promise<void> {
    const invoice = await storeDocument(record, document);
    const now = clock();
    const posted = await outbox.markPosted(record, document, now.toISOString(), new Date(now.getTime() + deps.leaseMs));
    // Posted by another delivery a moment ago: its moment names the notice.
    const postedAt = posted ? now.toISOString() : ((await outbox.get(record))?.postedAt ?? now.toISOString());
    await announceApproved(record, invoice, document, new Date(postedAt));
  }

  return {
    post,
    complete,
    /** POSTED, and the people concerned may not have been told (the worker died in between): tell them. */
    finish: (record: MiroOutboxRecord) => (record.sapDocument ? finish(record, record.sapDocument) : Promise.resolve()),
    /** FAILED, and the worker died before the invoice showed it or the company was told: finish that. */
    finishFailure,
    /** The record's last attempt found no answer and SAP holds nothing: FAILED with that reason. */
    giveUp: (record: MiroOutboxRecord, cause: string) => giveUp(record, cause),
    backoffMs,
    maxAttempts,
  };
}

export type MiroPosting = ReturnType<typeof makeMiroPosting>;

export function makeMiroRequestsWorker(deps: MiroRequestsDeps) {
  const posting = makeMiroPosting(deps);
  return sqsBatchHandler(MiroRequestMessage, async (message) => {
    await posting.post(message);
  });
}

/**
 * The withholdings the MIRO carries (docs/ap-payment.md): the detracción the document states and the retención
 * del IGV the company applies, each on the invoice's total, in its currency, as computed at intake.
 */
export function withholdingsOf(invoice: Invoice): SupplierInvoiceWithholding[] {
  const payment = invoice.payment;
  if (!payment) return [];
  const withholdings: SupplierInvoiceWithholding[] = [];
  if (payment.detraction) {
    withholdings.push({
      kind: 'DETRACTION',
      baseAmount: invoice.amount,
      amount: payment.detraction.amountInDocumentCurrency,
    });
  }
  if (payment.igvRetention?.applies) {
    withholdings.push({ kind: 'IGV_RETENTION', baseAmount: invoice.amount, amount: payment.igvRetention.amount });
  }
  return withholdings;
}

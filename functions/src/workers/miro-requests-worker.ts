import { randomUUID } from 'node:crypto';
import {
  INVOICE_ERROR_MESSAGES,
  METRICS,
  MiroRequestMessage,
  notificationAbout,
  keys,
  type Invoice,
  type NotificationEvent,
} from '@portal/shared';
import type { SapDocument, SapPort, SupplierInvoicePosting } from '../adapters/sap.js';
import type { Queue } from '../adapters/sqs.js';
import type { Logger } from '../http/logger.js';
import { UNCOUNTED, metered, type Meter } from '../http/meter.js';
import { InvoiceChangedError, type InvoiceStore, type StoredInvoice } from '../repositories/invoice-store.js';
import type { MiroOutbox, MiroOutboxRecord } from './miro-requests-outbox.js';
import { sqsBatchHandler } from './sqs-batch.js';

export interface MiroRequestsDeps {
  readonly outbox: MiroOutbox;
  readonly store: Pick<InvoiceStore, 'get' | 'commit'>;
  readonly sap: Pick<SapPort, 'postSupplierInvoice'>;
  readonly notifications: Queue;
  readonly clock: () => Date;
  readonly log: Pick<Logger, 'info' | 'warn' | 'error'>;
  /**
   * Counts each posting sent to SAP and whether it failed (METRICS.sapCalls, sapFailures).
   * @default UNCOUNTED
   */
  readonly meter?: Meter;
  /** The queue's maxReceiveCount: the receive after which a failed message goes to the DLQ. */
  readonly maxReceiveCount: number;
  /** How long one delivery may hold the record while it calls SAP; shorter than the visibility timeout. */
  readonly leaseMs: number;
}

/** Shown on the invoice when the MIRO could not be posted on the message's last receive. */
export const MIRO_FAILURE_MESSAGE =
  INVOICE_ERROR_MESSAGES.ERROR_UNEXPECTED_EXCEPTION_DURING_MIRO_CREATION_REQUEST_SUBMIT;

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
 * 2. take it PENDING|FAILED → POSTING with a lease, so that two deliveries never call SAP together;
 * 3. post the MIRO with the outbox key as Repeatability-Request-ID: a delivery that follows a worker
 *    killed after SAP answered gets the same document back, not a second posting;
 * 4. store the document on the invoice, then POSTED on the outbox (in that order, so POSTED always
 *    means the invoice has it), and send INVOICE_APPROVED with the SAP number;
 * 5. a failure is a batch item failure (retried after the visibility timeout); on the last receive
 *    the outbox is FAILED and the invoice shows the catalogue's message, then the DLQ keeps it.
 */
export function makeMiroRequestsWorker(deps: MiroRequestsDeps) {
  const { outbox, store, sap, notifications, clock, log, meter = UNCOUNTED } = deps;

  async function loadInvoice(record: MiroOutboxRecord): Promise<StoredInvoice> {
    const invoice = await store.get(record.supplierId, record.invoiceType, record.invoiceId);
    if (!invoice) throw new Error(`invoice of outbox record ${record.pk} not found`);
    return invoice;
  }

  /** Writes a change of the invoice, reloading when another writer moved it first. */
  async function changeInvoice(
    record: MiroOutboxRecord,
    change: (invoice: StoredInvoice) => Invoice | null,
  ): Promise<StoredInvoice> {
    for (let attempt = 1; ; attempt++) {
      const before = await loadInvoice(record);
      const after = change(before);
      if (!after) return before;
      try {
        return await store.commit({ before, after, whileStatusIn: [before.status] });
      } catch (error) {
        if (!(error instanceof InvoiceChangedError) || attempt >= WRITE_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 20));
      }
    }
  }

  const sameDocument = (a: SapDocument | null | undefined, b: SapDocument) =>
    a?.number === b.number && a.fiscalYear === b.fiscalYear;

  function storeDocument(record: MiroOutboxRecord, document: SapDocument): Promise<StoredInvoice> {
    return changeInvoice(record, (invoice) =>
      sameDocument(invoice.sapDocument, document) && invoice.statusMessage !== MIRO_FAILURE_MESSAGE
        ? null
        : {
            ...invoice,
            sapDocument: document,
            statusMessage: invoice.statusMessage === MIRO_FAILURE_MESSAGE ? null : invoice.statusMessage,
          },
    );
  }

  async function announce(event: NotificationEvent, invoice: Invoice, detail: string | null): Promise<void> {
    await notifications.send(notificationAbout(event, invoice, detail, clock()));
  }

  /** What is left after POSTED: the invoice carries the document, the people concerned are told. */
  async function finish(record: MiroOutboxRecord, document: SapDocument): Promise<void> {
    if (record.notifiedAt) return;
    await announceApproved(record, await storeDocument(record, document), document);
  }

  async function announceApproved(record: MiroOutboxRecord, invoice: Invoice, document: SapDocument): Promise<void> {
    const detail = `Registrada en SAP con el documento ${document.number} (ejercicio ${document.fiscalYear}).`;
    await announce('INVOICE_APPROVED', invoice, detail);
    await outbox.markNotified(record, clock().toISOString());
  }

  async function postingOf(record: MiroOutboxRecord, invoice: Invoice): Promise<SupplierInvoicePosting> {
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

  /** The last receive failed: visible on the outbox and the invoice, and the company is told. */
  async function giveUp(record: MiroOutboxRecord, cause: string): Promise<void> {
    if (!(await outbox.markFailed(record, cause, clock().toISOString()))) return;
    const invoice = await changeInvoice(record, (current) =>
      current.sapDocument ? null : { ...current, statusMessage: MIRO_FAILURE_MESSAGE },
    );
    await announce('MIRO_FAILED', invoice, MIRO_FAILURE_MESSAGE).catch((error: unknown) =>
      log.error('MIRO_FAILED notification not queued', error as Error),
    );
  }

  async function post(message: MiroRequestMessage, receiveCount: number): Promise<void> {
    const expected = keys.miroOutbox(message.supplierId, message.invoiceType, message.invoiceId);
    if (expected.pk !== message.outboxKey) throw new Error(`outboxKey ${message.outboxKey} is not the invoice's`);
    const record = await outbox.get(expected);
    if (!record) throw new Error(`outbox record ${expected.pk} not found`);
    if (record.state === 'POSTED' && record.sapDocument) return finish(record, record.sapDocument);

    const owner = randomUUID();
    const now = clock();
    if (!(await outbox.claim(expected, { owner, now, until: new Date(now.getTime() + deps.leaseMs) }))) {
      const current = await outbox.get(expected);
      if (current?.state === 'POSTED' && current.sapDocument) return finish(current, current.sapDocument);
      throw new MiroPostingInProgressError(`outbox record ${expected.pk} is being posted by another delivery`);
    }

    let document: SapDocument;
    try {
      const posting = await postingOf(record, await loadInvoice(record));
      // A transport failure and SAP refusing the document are both failures of the posting.
      document = await metered(meter, SAP_CALLS, () => sap.postSupplierInvoice(posting));
    } catch (error) {
      const cause = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      if (receiveCount >= deps.maxReceiveCount) await giveUp(record, cause);
      else await outbox.release(expected, owner, cause);
      throw error;
    }
    log.info('MIRO posted', { outbox: expected.pk, document: document.number, fiscalYear: document.fiscalYear });
    const invoice = await storeDocument(record, document);
    await outbox.markPosted(expected, document, clock().toISOString());
    await announceApproved(record, invoice, document);
  }

  return sqsBatchHandler(MiroRequestMessage, async (message, record) => {
    await post(message, Number(record.attributes.ApproximateReceiveCount) || 1);
  });
}

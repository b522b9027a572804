import { notificationAbout, type Invoice, type NotificationEvent } from '@portal/shared';
import type { SapDocument } from '../../adapters/sap.js';
import { InvoiceChangedError, type StoredInvoice } from '../../repositories/invoice-store.js';
import type { MiroOutboxRecord } from '../../repositories/miro-outbox.js';
import { systemStamp } from '../audit-stamp.js';
import { MIRO_FAILURE_MESSAGE, type MiroPostingDeps } from './miro-posting-deps.js';

/**
 * How a MIRO posting ends, for the worker that posted it and for the sweeper that finds what a dead worker left:
 * POSTED (the invoice gets SAP's document, the people concerned are told) or FAILED (the invoice shows the
 * catalogue's message, the company is told). Each step is idempotent: done again, it changes nothing more.
 */
export type OutcomeDeps = Pick<MiroPostingDeps, 'outbox' | 'store' | 'notifications' | 'clock' | 'log' | 'leaseMs'>;

const WRITE_ATTEMPTS = 5;

/** The invoice the record posts (a missing one is a fault: the approval wrote both). */
export async function invoiceOfRecord(
  deps: Pick<OutcomeDeps, 'store'>,
  record: MiroOutboxRecord,
): Promise<StoredInvoice> {
  const invoice = await deps.store.get(record.supplierId, record.invoiceType, record.invoiceId);
  if (!invoice) throw new Error(`invoice of outbox record ${record.pk} not found`);
  return invoice;
}

/** Writes a change of the invoice, reloading when another writer moved it first. */
async function changeInvoice(
  deps: Pick<OutcomeDeps, 'store'>,
  record: MiroOutboxRecord,
  change: (invoice: StoredInvoice) => Invoice | null,
  action: 'SAP_POSTED' | 'SAP_POSTING_FAILED',
): Promise<StoredInvoice> {
  for (let attempt = 1; ; attempt++) {
    const before = await invoiceOfRecord(deps, record);
    const after = change(before);
    if (!after) return before;
    try {
      return await deps.store.commit({
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

function storeDocument(
  deps: Pick<OutcomeDeps, 'store'>,
  record: MiroOutboxRecord,
  document: SapDocument,
): Promise<StoredInvoice> {
  return changeInvoice(
    deps,
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
  deps: Pick<OutcomeDeps, 'notifications'>,
  event: NotificationEvent,
  invoice: Invoice,
  detail: string | null,
  at: Date,
): Promise<void> {
  await deps.notifications.send(notificationAbout(event, invoice, detail, at));
}

/**
 * INVOICE_APPROVED with SAP's number, at the moment it was POSTED: a notice sent again (the worker died
 * before markNotified) is the same notice, one feed item and one e-mail.
 */
async function announceApproved(
  deps: OutcomeDeps,
  record: MiroOutboxRecord,
  invoice: Invoice,
  document: SapDocument,
  at: Date,
): Promise<void> {
  const detail = `Registrada en SAP con el documento ${document.number} (ejercicio ${document.fiscalYear}).`;
  await announce(deps, 'INVOICE_APPROVED', invoice, detail, at);
  await deps.outbox.markNotified(record, deps.clock().toISOString());
}

/** What is left after POSTED: the invoice carries the document, the people concerned are told. */
export async function finishPosted(deps: OutcomeDeps, record: MiroOutboxRecord, document: SapDocument): Promise<void> {
  if (record.notifiedAt) return;
  const at = record.postedAt ? new Date(record.postedAt) : deps.clock();
  await announceApproved(deps, record, await storeDocument(deps, record, document), document, at);
}

/** POSTED, and the people concerned may not have been told (the worker died in between): tell them. */
export function finishMiroPosting(deps: OutcomeDeps, record: MiroOutboxRecord): Promise<void> {
  return record.sapDocument ? finishPosted(deps, record, record.sapDocument) : Promise.resolve();
}

/** SAP holds `document` for the record: the invoice gets it, then POSTED, then the people concerned are told. */
export async function completeMiroPosting(
  deps: OutcomeDeps,
  record: MiroOutboxRecord,
  document: SapDocument,
): Promise<void> {
  const invoice = await storeDocument(deps, record, document);
  const now = deps.clock();
  const posted = await deps.outbox.markPosted(
    record,
    document,
    now.toISOString(),
    new Date(now.getTime() + deps.leaseMs),
  );
  // Posted by another delivery a moment ago: its moment names the notice.
  const postedAt = posted ? now.toISOString() : ((await deps.outbox.get(record))?.postedAt ?? now.toISOString());
  await announceApproved(deps, record, invoice, document, new Date(postedAt));
}

/** The last attempt failed (or found no answer and SAP holds nothing): FAILED with `cause`, shown and announced. */
export async function giveUpMiroPosting(
  deps: OutcomeDeps,
  record: MiroOutboxRecord,
  cause: string,
  owner?: string,
): Promise<void> {
  const at = deps.clock().toISOString();
  if (!(await deps.outbox.markFailed(record, cause, at, owner))) return;
  // What is left is the sweeper's if this fails: the record stays due until it is done.
  await finishMiroFailure(deps, { ...record, failedAt: at }).catch((error: unknown) =>
    deps.log.error('MIRO failure not shown or not announced yet; left for the sweeper', error as Error),
  );
}

/** FAILED: the invoice shows the catalogue's message and the company hears of it (MIRO_FAILED), once. */
export async function finishMiroFailure(deps: OutcomeDeps, record: MiroOutboxRecord): Promise<void> {
  const invoice = await changeInvoice(
    deps,
    record,
    (current) =>
      current.sapDocument || current.statusMessage === MIRO_FAILURE_MESSAGE
        ? null
        : { ...current, statusMessage: MIRO_FAILURE_MESSAGE },
    'SAP_POSTING_FAILED',
  );
  // At the moment it failed: a notice sent again is the same notice.
  const at = record.failedAt ? new Date(record.failedAt) : deps.clock();
  await announce(deps, 'MIRO_FAILED', invoice, MIRO_FAILURE_MESSAGE, at);
  await deps.outbox.markFailureNotified(record, deps.clock().toISOString());
}

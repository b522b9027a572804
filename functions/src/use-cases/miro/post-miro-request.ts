import { randomUUID } from 'node:crypto';
import { METRICS, keys, type MiroRequestMessage } from '@portal/shared';
import type { SapDocument } from '../../adapters/sap.js';
import { UNCOUNTED, metered } from '../../observability/meter.js';
import type { MiroOutboxRecord } from '../../repositories/miro-outbox.js';
import type { MiroPostingDeps } from './miro-posting-deps.js';
import { completeMiroPosting, finishPosted, giveUpMiroPosting, invoiceOfRecord } from './miro-posting-outcomes.js';
import { MIRO_TIMING } from './miro-timing.js';
import { supplierInvoicePostingOf } from './supplier-invoice-posting.js';

/** Another delivery of the same request holds the lease: this one is retried later. */
export class MiroPostingInProgressError extends Error {
  override readonly name = 'MiroPostingInProgressError';
}

const SAP_CALLS = { calls: METRICS.sapCalls, failures: METRICS.sapFailures };

/**
 * One MIRO request (the MIRO queue's message): posts the approved invoice to SAP exactly once.
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
export async function postMiroRequest(deps: MiroPostingDeps, message: MiroRequestMessage): Promise<void> {
  const { outbox, clock } = deps;
  const expected = keys.miroOutbox(message.supplierId, message.invoiceType, message.invoiceId);
  if (expected.pk !== message.outboxKey) throw new Error(`outboxKey ${message.outboxKey} is not the invoice's`);
  const record = await outbox.get(expected);
  if (!record) throw new Error(`outbox record ${expected.pk} not found`);
  if (record.state === 'POSTED' && record.sapDocument) return finishPosted(deps, record, record.sapDocument);
  const owner = randomUUID();
  const now = clock();
  if (!(await outbox.claim(record, { owner, now, until: new Date(now.getTime() + deps.leaseMs) }))) {
    const current = await outbox.get(expected);
    if (current?.state === 'POSTED' && current.sapDocument) return finishPosted(deps, current, current.sapDocument);
    // Waiting for its next attempt: the sweeper sends the message again when it is due.
    if (current?.state === 'PENDING') return;
    throw new MiroPostingInProgressError(`outbox record ${expected.pk} is being posted by another delivery`);
  }
  const attempt = (record.state === 'POSTING' || record.state === 'PENDING' ? (record.attempts ?? 0) : 0) + 1;
  // Held now: what follows moves it from POSTING (the counts move by that, miro-outbox.ts).
  const held: MiroOutboxRecord = { ...record, state: 'POSTING' };
  const document = await attemptPosting(deps, held, attempt, owner);
  if (!document) return;
  deps.log.info('MIRO posted', { outbox: expected.pk, document: document.number, fiscalYear: document.fiscalYear });
  await completeMiroPosting(deps, held, document);
}

/** One call to SAP: its document, or null when it failed and the record was left for a next attempt or FAILED. */
async function attemptPosting(
  deps: MiroPostingDeps,
  held: MiroOutboxRecord,
  attempt: number,
  owner: string,
): Promise<SapDocument | null> {
  const { sap, clock, meter = UNCOUNTED } = deps;
  try {
    const posting = await supplierInvoicePostingOf(deps, held, await invoiceOfRecord(deps, held));
    // A transport failure and SAP refusing the document are both failures of the posting.
    return await metered(meter, SAP_CALLS, () => sap.postSupplierInvoice(posting));
  } catch (error) {
    const cause = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    deps.log.warn('MIRO attempt failed', { outbox: held.pk, attempt, cause });
    const maxAttempts = deps.maxAttempts ?? MIRO_TIMING.defaultMaxAttempts;
    const retryBaseMs = deps.retryBaseMs ?? MIRO_TIMING.defaultRetryBaseMs;
    if (attempt >= maxAttempts) await giveUpMiroPosting(deps, held, cause, owner);
    else {
      const next = new Date(clock().getTime() + MIRO_TIMING.backoffMs(attempt, retryBaseMs));
      await deps.outbox.retryLater(held, owner, cause, next);
    }
    return null;
  }
}

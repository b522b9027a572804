import { randomUUID } from 'node:crypto';
import { systemStamp } from '../use-cases/audit-stamp.js';
import {
  INVOICE_STATUS_LABELS,
  METRICS,
  notificationAbout,
  type Invoice,
  type InvoiceStatus,
  type NotificationEvent,
} from '@portal/shared';
import type { PaymentRunItem, SapPort } from '../adapters/sap.js';
import type { Logger } from '../observability/logger.js';
import { UNCOUNTED, metered, type Meter } from '../observability/meter.js';
import { InvoiceChangedError, type InvoiceStore, type StoredInvoice } from '../repositories/invoice-store.js';
import { outgoingItem, outgoingMessage, type Outgoing } from '../repositories/outgoing.js';
import type { PaymentSyncRepository } from '../repositories/payment-sync.js';

export interface PaymentSyncDeps {
  readonly repository: PaymentSyncRepository;
  readonly store: Pick<InvoiceStore, 'get' | 'commit'>;
  readonly sap: Pick<SapPort, 'paymentRunItemsSince'>;
  /** Sends the notices the steps committed (`notifications` queue); what it cannot send stays for the relay. */
  readonly outgoing: Pick<Outgoing, 'deliver'>;
  readonly clock: () => Date;
  readonly log: Pick<Logger, 'info' | 'warn' | 'error'>;
  /**
   * Counts each run and whether it failed (METRICS.paymentSyncRuns, paymentSyncFailures).
   * @default UNCOUNTED
   */
  readonly meter?: Meter;
}

export interface PaymentSyncResult {
  readonly read: number;
  readonly scheduled: number;
  readonly paid: number;
  readonly skipped: number;
}

const PAYMENT_SYNC_RUNS = { calls: METRICS.paymentSyncRuns, failures: METRICS.paymentSyncFailures };
const WRITE_ATTEMPTS = 5;

/**
 * The payment sync (spec flow 6), run on a schedule:
 * 1. read the payment-run items SAP changed since the cursor (`ge`: an item read twice is a no-op);
 * 2. per item, ACCEPTED → SCHEDULED (scheduledAt) and, once paid, SCHEDULED → PAID (paidAt and the
 *    remittance: SAP's payment document and method), each a version-conditioned write with its history entry,
 *    index attributes and dashboard counters;
 * 3. PAYMENT_SCHEDULED / INVOICE_PAID to the notifications queue, committed as an outgoing item in the
 *    step's own transaction and sent right after: a run that dies in between leaves it to the outbox sweeper
 *    (the next run finds the invoice moved and would not announce it again);
 * 4. move the cursor to the last item handled. An item that fails stops the run there: the next run
 *    starts from it again.
 */
export function makePaymentSync(deps: PaymentSyncDeps) {
  const { repository, store, sap, outgoing, clock, log, meter = UNCOUNTED } = deps;

  async function find(item: PaymentRunItem): Promise<StoredInvoice | null> {
    const types = item.invoiceType
      ? [item.invoiceType]
      : await repository.invoiceTypes(item.supplierId, item.invoiceId);
    if (types.length !== 1) return null;
    return store.get(item.supplierId, types[0]!, item.invoiceId);
  }

  /** One step of the payment, if the invoice is where the step starts; false when there is nothing to do. */
  async function step(
    item: PaymentRunItem,
    from: InvoiceStatus,
    to: 'SCHEDULED' | 'PAID',
    txId: string,
  ): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      const before = await find(item);
      if (!before || before.status !== from) return false;
      const after: Invoice = {
        ...before,
        status: to,
        scheduledAt: to === 'SCHEDULED' ? item.scheduledAt : (before.scheduledAt ?? item.scheduledAt),
        paidAt: to === 'PAID' ? item.paidAt : before.paidAt,
        // The remittance the supplier reads: SAP's payment document, date and method.
        ...(to === 'PAID' && item.payment && item.paidAt
          ? { remittance: { ...item.payment, paidAt: item.paidAt } }
          : {}),
        statusHistory: [
          ...before.statusHistory,
          {
            status: to,
            title: INVOICE_STATUS_LABELS[to],
            additionalMessage:
              to === 'PAID' && item.payment
                ? `Documento de pago ${item.payment.document} (${item.payment.methodName})`
                : null,
            date: clock().toISOString(),
            by: 'SAP',
          },
        ],
      };
      const event: NotificationEvent = to === 'SCHEDULED' ? 'PAYMENT_SCHEDULED' : 'INVOICE_PAID';
      const notice = outgoingMessage(
        'notifications',
        notificationAbout(event, after, to === 'SCHEDULED' ? item.scheduledAt : item.paidAt!, clock()),
        clock(),
      );
      try {
        await store.commit({
          before,
          after,
          whileStatusIn: [from],
          alsoPut: [outgoingItem(notice)],
          audit: systemStamp('paymentSync', 'PAYMENT_SYNCED', txId),
        });
      } catch (error) {
        if (!(error instanceof InvoiceChangedError) || attempt >= WRITE_ATTEMPTS) throw error;
        continue;
      }
      await outgoing.deliver([notice]);
      return true;
    }
  }

  async function run(txId: string = randomUUID()): Promise<PaymentSyncResult> {
    const since = await repository.cursor();
    const items = await sap.paymentRunItemsSince(since);
    let scheduled = 0;
    let paid = 0;
    let skipped = 0;
    let reached = since;
    try {
      for (const item of items) {
        const didSchedule = await step(item, 'ACCEPTED', 'SCHEDULED', txId);
        const didPay = item.paidAt ? await step(item, 'SCHEDULED', 'PAID', txId) : false;
        if (didSchedule) scheduled++;
        if (didPay) paid++;
        if (!didSchedule && !didPay) skipped++;
        reached = item.changedAt;
      }
    } finally {
      if (reached && reached !== since) await repository.saveCursor(reached, clock().toISOString());
    }
    log.info('payment runs synchronised', { since, read: items.length, scheduled, paid, skipped });
    return { read: items.length, scheduled, paid, skipped };
  }

  return {
    /** One run; any failure (SAP, an invoice write, the cursor) fails the run and is counted. */
    run: (txId?: string) => metered(meter, PAYMENT_SYNC_RUNS, () => run(txId)),
  };
}

import { METRICS, type SunatValidationMessage } from '@portal/shared';
import type { SunatVerdict } from '../../adapters/sunat.js';
import { UNCOUNTED, metered } from '../../observability/meter.js';
import { InvoiceChangedError, type StoredInvoice } from '../../repositories/invoice-store.js';
import { outgoingItem } from '../../repositories/outgoing.js';
import { closedSunatCheckItem, sunatCheckKeyOf } from '../../repositories/sunat-checks.js';
import { systemStamp } from '../audit-stamp.js';
import { SUNAT_FAILURE_MESSAGE, describe, type SunatValidationDeps } from './sunat-validation-deps.js';
import { cdrBesideVerdict, certificationOf, verdictNoticeOf } from './sunat-verdict.js';

const SUNAT_CALLS = { calls: METRICS.sunatCalls, failures: METRICS.sunatFailures };

/** Attempts at writing the verdict when another writer moved the invoice in between. */
const WRITE_ATTEMPTS = 3;

/**
 * One SUNAT message (the SUNAT queue's):
 * 1. load the invoice; if its certStatus is no longer PENDING the message is a redelivery: done (the
 *    notice was committed with the verdict; the outbox sweeper sends it if the first receive could not);
 * 2. ask SUNAT on behalf of the company; if SUNAT cannot be asked, the message fails
 *    (visibility timeout, then DLQ) and, on its last receive, the failure is left on the invoice;
 * 3. write certStatus, statusMessage and SUNAT's answer, conditioned on the version read, and in the same
 *    transaction SUNAT_VALID or SUNAT_INVALID as an outgoing item of the notifications queue and the invoice's
 *    SUNAT check closed (the outbox sweeper stops looking at it);
 * 4. send that notice. A worker that dies in between, even on the message's last receive, leaves it to
 *    the outbox sweeper.
 */
export async function recordSunatVerdict(
  deps: SunatValidationDeps,
  message: SunatValidationMessage,
  delivery: { readonly messageId: string; readonly receiveCount: number },
): Promise<void> {
  const { store, clock, log } = deps;
  const context = { messageId: delivery.messageId, receiveCount: delivery.receiveCount, ...message };
  let verdict: SunatVerdict | undefined;
  for (let attempt = 1; ; attempt++) {
    const invoice = await store.get(message.supplierId, message.invoiceType, message.invoiceId);
    if (!invoice)
      throw new Error(`invoice ${message.supplierId}/${message.invoiceType}/${message.invoiceId} not found`);
    if (invoice.certStatus !== 'PENDING') {
      // A redelivery: the verdict is written, and its notice with it (sent, or kept for the relay).
      log.info('certification already recorded; message skipped', { ...context, certStatus: invoice.certStatus });
      return;
    }
    verdict ??= await askSunat(deps, invoice, context, delivery.receiveCount >= deps.maxReceiveCount);
    const checkedAt = clock().toISOString();
    const certified = certificationOf(invoice, verdict, checkedAt);
    const cdr = cdrBesideVerdict({ ...invoice, ...certified }, checkedAt, clock());
    const change = { ...certified, ...cdr.change };
    const notices = [verdictNoticeOf({ ...invoice, ...change }, checkedAt, message.channel, clock()), ...cdr.notices];
    try {
      // The verdict ends the invoice's wait: its SUNAT check leaves the sweeper's due list in the same write.
      const stored = await store.setCertification(invoice, change, systemStamp('sunatValidation', 'SUNAT_CHECKED'), [
        ...notices.map(outgoingItem),
        closedSunatCheckItem(invoice, clock()),
      ]);
      await deps.outgoing.deliver(notices);
      log.info('SUNAT certification recorded', { ...context, certStatus: stored.certStatus });
      return;
    } catch (error) {
      if (error instanceof InvoiceChangedError && attempt < WRITE_ATTEMPTS) continue;
      throw error;
    }
  }
}

/** SUNAT's verdict; a question SUNAT could not answer is recorded on the check (and, on the last receive, the invoice). */
async function askSunat(
  deps: SunatValidationDeps,
  invoice: StoredInvoice,
  context: Record<string, unknown>,
  lastReceive: boolean,
): Promise<SunatVerdict> {
  const { clock, log, meter = UNCOUNTED } = deps;
  try {
    // A verdict, VALID or INVALID, is SUNAT answering; only a question SUNAT could not answer is a failure.
    return await metered(meter, SUNAT_CALLS, () =>
      deps.sunat.validate(invoice.client, {
        issuerRuc: invoice.supplierId,
        type: invoice.type,
        series: invoice.prefixId,
        number: invoice.numericId,
        issuedAt: invoice.issuedAt,
        amount: invoice.amount,
      }),
    );
  } catch (error) {
    log.warn('SUNAT could not be asked', { ...context, lastReceive, detail: describe(error) });
    await deps.checks
      ?.recordFailure(sunatCheckKeyOf(invoice), describe(error), clock())
      .catch((cause: unknown) =>
        log.error('could not record the SUNAT failure on its check', { ...context, detail: describe(cause) }),
      );
    if (lastReceive) await recordFailure(deps, invoice, context);
    throw error;
  }
}

/** The message goes to the DLQ: the invoice says so, for the people who look at it. */
async function recordFailure(
  deps: Pick<SunatValidationDeps, 'store' | 'log'>,
  invoice: StoredInvoice,
  context: Record<string, unknown>,
): Promise<void> {
  try {
    await deps.store.setCertification(
      invoice,
      { certStatus: 'PENDING', statusMessage: SUNAT_FAILURE_MESSAGE, sunat: invoice.sunat ?? null },
      systemStamp('sunatValidation', 'SUNAT_CHECKED'),
    );
  } catch (error) {
    deps.log.error('could not record the SUNAT failure on the invoice', { ...context, detail: describe(error) });
  }
}

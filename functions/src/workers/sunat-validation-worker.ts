import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { systemStamp } from '../use-cases/audit-stamp.js';
import {
  INVOICE_ERROR_MESSAGES,
  METRICS,
  SunatValidationMessage,
  notificationAbout,
  CDR_VERDICT_CONTRADICTIONS,
  cdrVerdictReasons,
  type Invoice,
} from '@portal/shared';
import type { SunatValidator, SunatVerdict } from '../adapters/sunat.js';
import type { Logger } from '../observability/logger.js';
import { UNCOUNTED, metered, type Meter } from '../observability/meter.js';
import { InvoiceChangedError, type InvoiceStore, type StoredInvoice } from '../repositories/invoice-store.js';
import { outgoingItem, outgoingMessage, type Outgoing, type OutgoingMessage } from '../repositories/outgoing.js';
import { closedSunatCheckItem, sunatCheckKeyOf, type SunatChecks } from '../repositories/sunat-checks.js';

/** What the worker logs through (the Powertools logger in Lambda). */
export type WorkerLog = Pick<Logger, 'info' | 'warn' | 'error'>;

export interface SunatValidationDeps {
  readonly store: Pick<InvoiceStore, 'get' | 'setCertification'>;
  readonly sunat: SunatValidator;
  /** Sends the notice committed with the verdict (`notifications` queue); what it cannot send stays for the relay. */
  readonly outgoing: Pick<Outgoing, 'deliver'>;
  readonly clock: () => Date;
  readonly log: WorkerLog;
  /**
   * Counts each question to SUNAT and whether SUNAT could not be asked (METRICS.sunatCalls, sunatFailures).
   * @default UNCOUNTED
   */
  readonly meter?: Meter;
  /** The queue's maxReceiveCount: the receive after which a failed message goes to the DLQ. */
  readonly maxReceiveCount: number;
  /**
   * The invoice's SUNAT check (sunat-checks.ts): each time SUNAT cannot be asked, the detail says since when.
   * Without it the failure is only logged (the verdict still closes the check, in its own transaction).
   */
  readonly checks?: Pick<SunatChecks, 'recordFailure'>;
}

/** Shown on the invoice when SUNAT could not be asked on the message's last receive. */
export const SUNAT_FAILURE_MESSAGE = INVOICE_ERROR_MESSAGES.ERROR_UNEXPECTED_RESPONSE_FROM_SUNAT_VERIFICATION_SERVICE;

const SUNAT_CALLS = { calls: METRICS.sunatCalls, failures: METRICS.sunatFailures };

/** Attempts at writing the verdict when another writer moved the invoice in between. */
const WRITE_ATTEMPTS = 3;

/**
 * Consumer of the SUNAT queue. For each message:
 * 1. parse it (a malformed one is a poison message: reported as failed, it ends in the DLQ);
 * 2. load the invoice; if its certStatus is no longer PENDING the message is a redelivery: done (the
 *    notice was committed with the verdict; the outbox sweeper sends it if the first receive could not);
 * 3. ask SUNAT on behalf of the company; if SUNAT cannot be asked, report the message as failed
 *    (visibility timeout, then DLQ) and, on its last receive, leave the failure on the invoice;
 * 4. write certStatus, statusMessage and SUNAT's answer, conditioned on the version read, and in the same
 *    transaction SUNAT_VALID or SUNAT_INVALID as an outgoing item of the notifications queue and the invoice's
 *    SUNAT check closed (the outbox sweeper stops looking at it);
 * 5. send that notice. A worker that dies in between, even on the message's last receive, leaves it to
 *    the outbox sweeper.
 * Records are handled concurrently, so one slow SUNAT answer does not hold back the batch.
 */
export function makeSunatValidationWorker(deps: SunatValidationDeps) {
  const { store, sunat, outgoing, clock, log, maxReceiveCount, meter = UNCOUNTED } = deps;

  /** The notice of a verdict, to commit with it. */
  function noticeOf(invoice: Invoice, checkedAt: string, channel: SunatValidationMessage['channel']): OutgoingMessage {
    // The moment SUNAT answered makes a notice sent again the same notice (one feed item, one e-mail).
    const valid = invoice.certStatus === 'VALID';
    const body = notificationAbout(
      valid ? 'SUNAT_VALID' : 'SUNAT_INVALID',
      invoice,
      valid ? null : invoice.statusMessage,
      new Date(checkedAt),
    );
    // A confirmation of a document that came in a group is the group's (one notice per group); a refusal is told on
    // its own, since the supplier must act on it.
    return outgoingMessage('notifications', valid && channel ? { ...body, channel } : body, clock());
  }

  async function ask(invoice: StoredInvoice, context: Record<string, unknown>, lastReceive: boolean) {
    try {
      // A verdict, VALID or INVALID, is SUNAT answering; only a question SUNAT could not answer is a failure.
      return await metered(meter, SUNAT_CALLS, () =>
        sunat.validate(invoice.client, {
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
      if (lastReceive) await recordFailure(invoice, context);
      throw error;
    }
  }

  /** The message goes to the DLQ: the invoice says so, for the people who look at it. */
  async function recordFailure(invoice: StoredInvoice, context: Record<string, unknown>): Promise<void> {
    try {
      await store.setCertification(
        invoice,
        { certStatus: 'PENDING', statusMessage: SUNAT_FAILURE_MESSAGE, sunat: invoice.sunat ?? null },
        systemStamp('sunatValidation', 'SUNAT_CHECKED'),
      );
    } catch (error) {
      log.error('could not record the SUNAT failure on the invoice', { ...context, detail: describe(error) });
    }
  }

  function certification(invoice: StoredInvoice, verdict: SunatVerdict, checkedAt: string) {
    return {
      certStatus: verdict.certStatus,
      statusMessage:
        verdict.certStatus === 'INVALID'
          ? verdict.reason
          : invoice.statusMessage === SUNAT_FAILURE_MESSAGE
            ? null
            : invoice.statusMessage,
      sunat: {
        estadoCp: verdict.estadoCp,
        estadoRuc: verdict.estadoRuc,
        condDomiRuc: verdict.condDomiRuc,
        observaciones: verdict.observaciones,
        checkedAt,
      },
    } satisfies Pick<Invoice, 'certStatus' | 'statusMessage' | 'sunat'>;
  }

  /**
   * The supplier's CDR judged beside SUNAT's answer (issue 24, rules/cdr.ts): a verdict SUNAT's check contradicts
   * is flagged on the invoice and told to staff in the same write; the CDR never changes certStatus.
   */
  function cdrBeside(
    invoice: Invoice,
    checkedAt: string,
  ): { change: Pick<Invoice, 'supplierCdr'> | Record<string, never>; notices: OutgoingMessage[] } {
    const kept = invoice.supplierCdr;
    if (!kept) return { change: {}, notices: [] };
    const identity = (kept.contradiction?.reasons ?? []).filter(
      (reason) => !CDR_VERDICT_CONTRADICTIONS.includes(reason.kind),
    );
    const verdict = cdrVerdictReasons(kept, invoice);
    const reasons = [...verdict, ...identity];
    const contradiction =
      reasons.length > 0 ? { reasons, flaggedAt: kept.contradiction?.flaggedAt ?? checkedAt } : null;
    const notices =
      verdict.length > 0
        ? [
            outgoingMessage(
              'notifications',
              notificationAbout(
                'CDR_CONTRADICTION',
                invoice,
                verdict.map((reason) => reason.message).join(' '),
                new Date(checkedAt),
              ),
              clock(),
            ),
          ]
        : [];
    return { change: { supplierCdr: { ...kept, contradiction } }, notices };
  }

  async function handle(message: SunatValidationMessage, record: SQSRecord): Promise<void> {
    const receiveCount = Number(record.attributes.ApproximateReceiveCount) || 1;
    const context = { messageId: record.messageId, receiveCount, ...message };
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
      verdict ??= await ask(invoice, context, receiveCount >= maxReceiveCount);
      const checkedAt = clock().toISOString();
      const certified = certification(invoice, verdict, checkedAt);
      const cdr = cdrBeside({ ...invoice, ...certified }, checkedAt);
      const change = { ...certified, ...cdr.change };
      const notices = [noticeOf({ ...invoice, ...change }, checkedAt, message.channel), ...cdr.notices];
      try {
        // The verdict ends the invoice's wait: its SUNAT check leaves the sweeper's due list in the same write.
        const stored = await store.setCertification(invoice, change, systemStamp('sunatValidation', 'SUNAT_CHECKED'), [
          ...notices.map(outgoingItem),
          closedSunatCheckItem(invoice, clock()),
        ]);
        await outgoing.deliver(notices);
        log.info('SUNAT certification recorded', { ...context, certStatus: stored.certStatus });
        return;
      } catch (error) {
        if (error instanceof InvoiceChangedError && attempt < WRITE_ATTEMPTS) continue;
        throw error;
      }
    }
  }

  async function handleRecord(record: SQSRecord): Promise<void> {
    let message: SunatValidationMessage;
    try {
      message = SunatValidationMessage.parse(JSON.parse(record.body));
    } catch (error) {
      log.error('poison message: not a SunatValidationMessage; it will end in the DLQ', {
        messageId: record.messageId,
        receiveCount: record.attributes.ApproximateReceiveCount,
        body: record.body.slice(0, 1000),
        detail: describe(error),
      });
      throw error;
    }
    try {
      await handle(message, record);
    } catch (error) {
      log.error('message failed; left for redelivery', {
        messageId: record.messageId,
        receiveCount: record.attributes.ApproximateReceiveCount,
        ...message,
        detail: describe(error),
      });
      throw error;
    }
  }

  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const results = await Promise.allSettled(event.Records.map(handleRecord));
    return {
      batchItemFailures: event.Records.filter((_, i) => results[i]?.status === 'rejected').map((record) => ({
        itemIdentifier: record.messageId,
      })),
    };
  };
}

function describe(error: unknown): string {
  if (error && typeof error === 'object' && 'detail' in error && typeof error.detail === 'string') return error.detail;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

import type { InvoiceType } from '@portal/shared';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { SapPort } from '../adapters/sap.js';
import type { Queue } from '../adapters/sqs.js';
import { telemetry } from '../observability/telemetry.js';
import type { Outgoing } from '../repositories/outgoing.js';
import type { MiroOutbox, MiroOutboxRecord } from '../repositories/miro-outbox.js';
import { miroRequestOf } from '../use-cases/miro/miro-request.js';
import { MIRO_NO_ANSWER, type MiroPostingDeps } from '../use-cases/miro/miro-posting-deps.js';
import {
  completeMiroPosting,
  finishMiroFailure,
  finishMiroPosting,
  giveUpMiroPosting,
  type OutcomeDeps,
} from '../use-cases/miro/miro-posting-outcomes.js';
import { MIRO_TIMING } from '../use-cases/miro/miro-timing.js';
import type { JobLeaseSweeper } from './job-leases.js';
import type { SunatRecheck } from './sunat-recheck.js';

export interface OutboxSweeperDeps {
  /** The generic outbox of every queue: messages committed with a change and not sent. */
  readonly outgoing: Pick<Outgoing, 'relay'>;
  readonly miro: Pick<MiroOutbox, 'due' | 'get' | 'postpone'>;
  /** What the MIRO worker is given: the sweeper ends a posting as the worker would have (miro-posting-outcomes.ts). */
  readonly posting: OutcomeDeps & Pick<MiroPostingDeps, 'maxAttempts'>;
  readonly sap: Pick<SapPort, 'findSupplierInvoice'>;
  readonly miroQueue: Queue;
  readonly clock: () => Date;
  readonly log: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** A message younger than this may still be on its way: not sent again before. */
  readonly graceMs: number;
  /** Records looked at per run (the next run takes the rest). @default 100 */
  readonly batch?: number;
  /** Invoices waiting for SUNAT with nothing coming: their SUNAT message is sent again (sunat-recheck.ts). */
  readonly sunat?: Pick<SunatRecheck, 'sweep'>;
  /** Long jobs whose worker stopped renewing their lease: handed to a worker again (job-leases.ts). */
  readonly jobs?: Pick<JobLeaseSweeper, 'sweep'>;
}

export interface SweepResult {
  /** Queue messages committed but not sent, sent now. */
  readonly relayed: number;
  /** MIRO requests sent again (nothing posted at SAP yet). */
  readonly resent: number;
  /** MIRO postings SAP made whose answer was lost, recorded now. */
  readonly recovered: number;
  /** MIRO postings given up (last attempt without an answer, nothing at SAP). */
  readonly failed: number;
  /** POSTED (FAILED) postings whose INVOICE_APPROVED (MIRO_FAILED) notice the worker did not get to send, sent now. */
  readonly notified: number;
  /** SUNAT messages sent again for invoices still waiting for SUNAT with none on its way. */
  readonly sunatResent: number;
  /** Long jobs whose lease lapsed, handed to a worker again (resumed) or ended FAILED (their runs used). */
  readonly jobsResumed: number;
  readonly jobsFailed: number;
}

/**
 * The outbox sweeper (the OutboxSweeper schedule): whatever a change committed to send reaches its end,
 * whatever died when.
 * 1. Every queue: a message committed with its change and still there after the grace period (its send
 *    failed or its sender died) is sent (Outgoing.relay; consumers are idempotent).
 * 2. MIRO postings due: PENDING past their next attempt (the message was lost, or a backoff ran out) or
 *    POSTING past their lease (the worker died during the SAP call). If an attempt was made, SAP is
 *    asked first for the document (by company, supplier and invoice reference): found, it is recorded
 *    as the worker would have (invoice, POSTED, notification) and nothing is sent to SAP again. Not
 *    found: the request goes back to the MIRO queue; the worker posts with the same idempotency key,
 *    so even a posting SAP made after our look-up answers its first document. A POSTING record whose
 *    last allowed attempt died is FAILED; a POSTED one whose worker died before telling the people
 *    concerned (INVOICE_APPROVED) is announced now, and a FAILED one whose worker died before the
 *    invoice showed the failure (and MIRO_FAILED was sent) is finished. Each record is postponed by the grace period before its
 *    message is sent, so the next run does not send it twice while the worker is at it. Whatever is sent again
 *    continues the trace of the request that committed it (its stored traceparent), linked to the sweeper's span.
 * 3. Invoices waiting for SUNAT (certStatus PENDING) whose check is due: the SUNAT message is sent again when none
 *    is on its way any more (sunat-recheck.ts).
 * 4. Long jobs (a zip's batch) whose lease lapsed: their message is sent again, and the run that takes it resumes
 *    the job (job-leases.ts).
 * A record that could not be handled (SAP or DynamoDB failing) is left for the next run, and the run
 * fails at the end, so the job's error alarm fires while the problem lasts.
 */
export function makeOutboxSweeper(deps: OutboxSweeperDeps) {
  const { miro, posting, sap, log } = deps;

  async function sweepOne(
    seen: MiroOutboxRecord,
    now: Date,
  ): Promise<keyof Omit<SweepResult, 'relayed' | 'sunatResent' | 'jobsResumed' | 'jobsFailed'> | null> {
    const record = await miro.get(seen);
    // Moved since the index was read (posted, failed, taken by a worker): nothing to do now.
    if (!record || record.gsi1sk !== seen.gsi1sk) return null;
    if (record.state === 'POSTED') {
      if (record.notifiedAt) return null;
      await finishMiroPosting(posting, record);
      return 'notified';
    }
    if (record.state === 'FAILED') {
      if (record.failureNotifiedAt) return null;
      await finishMiroFailure(posting, record);
      return 'notified';
    }
    if (record.state !== 'PENDING' && record.state !== 'POSTING') return null;
    if ((record.attempts ?? 0) > 0) {
      const document = await sap.findSupplierInvoice({
        client: record.client,
        supplierId: record.supplierId,
        supplierInvoiceId: record.invoiceId,
        creditMemo: record.invoiceType === 'NOTA_DE_CREDITO',
        adjustment: record.invoiceType === 'NOTA_DE_DEBITO',
      });
      if (document) {
        log.info('MIRO found at SAP, recorded', { outbox: record.pk, document: document.number });
        await completeMiroPosting(posting, record, document);
        return 'recovered';
      }
      if (
        record.state === 'POSTING' &&
        (record.attempts ?? 0) >= (posting.maxAttempts ?? MIRO_TIMING.defaultMaxAttempts)
      ) {
        await giveUpMiroPosting(posting, record, MIRO_NO_ANSWER);
        return 'failed';
      }
    }
    if (!(await miro.postpone(record, new Date(now.getTime() + deps.graceMs)))) return null;
    const message = miroRequestOf({
      supplierId: record.supplierId,
      type: record.invoiceType as InvoiceType,
      id: record.invoiceId,
    });
    // In the trace of the request that asked for the posting, linked to this run's span: API → queue → worker stay
    // one trace after a re-send.
    await telemetry.continueTrace(record, 'resend miroRequests', () => deps.miroQueue.send(message));
    return 'resent';
  }

  return {
    async sweep(): Promise<SweepResult> {
      const now = deps.clock();
      const counts = {
        relayed: 0,
        resent: 0,
        recovered: 0,
        failed: 0,
        notified: 0,
        sunatResent: 0,
        jobsResumed: 0,
        jobsFailed: 0,
      };
      const problems: Error[] = [];
      try {
        counts.relayed = await deps.outgoing.relay(new Date(now.getTime() - deps.graceMs));
      } catch (error) {
        problems.push(error as Error);
        log.error('outgoing messages not relayed', error as Error);
      }
      for (const record of await miro.due(now, deps.batch ?? 100)) {
        try {
          const outcome = await sweepOne(record, now);
          if (outcome) counts[outcome] += 1;
        } catch (error) {
          problems.push(error as Error);
          log.error('MIRO record left for the next run', { outbox: record.pk, error: (error as Error).message });
        }
      }
      if (deps.sunat) {
        try {
          counts.sunatResent = (await deps.sunat.sweep()).resent;
        } catch (error) {
          problems.push(error as Error);
          log.error('SUNAT checks not all handled', error as Error);
        }
      }
      if (deps.jobs) {
        try {
          const jobs = await deps.jobs.sweep();
          counts.jobsResumed = jobs.resumed;
          counts.jobsFailed = jobs.failed;
        } catch (error) {
          problems.push(error as Error);
          log.error('lapsed jobs not all handed over', error as Error);
        }
      }
      log.info('outbox swept', counts);
      if (problems.length > 0)
        throw new AggregateError(problems, `${problems.length} outbox item(s) left for the next run`);
      return counts;
    },
  };
}

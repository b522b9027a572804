import type { Logger } from '@aws-lambda-powertools/logger';
import { formatErrorMessage } from '@portal/shared';
import type { Queue } from '../adapters/sqs.js';
import type { ExportJobRepository } from '../repositories/export-jobs.js';
import type { IntakeBatchRepository } from '../repositories/intake-batches.js';
import type { InboundMailRepository } from '../repositories/inbound-mail.js';
import type { MailRecord } from '../mail/mail-job.js';

/** How long a run's hold on its job lasts unless renewed; the run renews it three times as often. */
export const JOB_LEASE_MS = 15_000;

export interface JobLeaseSweeperDeps {
  readonly batches: Pick<IntakeBatchRepository, 'lapsed' | 'postpone' | 'end'>;
  readonly intakeBatchesQueue: Queue;
  readonly exports?: Pick<ExportJobRepository, 'lapsed' | 'postpone' | 'fail'>;
  readonly exportsQueue?: Queue;
  /** Received e-mails: `fail` ends one whose runs kept stopping (endMailFailed), its answer left for its worker. */
  readonly mail?: Pick<InboundMailRepository['processed'], 'lapsed' | 'postpone'> & {
    fail(record: MailRecord, now: Date): Promise<boolean>;
  };
  readonly inboundMailQueue?: Queue;
  readonly clock: () => Date;
  readonly log: Pick<Logger, 'info' | 'warn'>;
  /** Runs a job may start before a lapse ends it FAILED (a zip or a list that stops its worker each time). */
  readonly maxAttempts: number;
  /** How long the message sent for a lapsed batch is given to reach a worker before it is sent again. */
  readonly resendAfterMs: number;
  /** Batches looked at per run (the next run takes the rest). @default 50 */
  readonly batch?: number;
}

/**
 * Long jobs whose worker stopped (docs/intake-channels.md#lease-and-resume, docs/adr/0032-list-exports.md): a zip's
 * batch, an export and a received e-mail hold a lease their run renews every few seconds; one whose lease lapsed (the
 * worker crashed, its instance was stopped, the stage restarted) is handed to a worker again now, not when its queue
 * message comes back after the queue's visibility timeout: its message is sent again, and the run that takes it
 * resumes it (a zip or an e-mail where its results say it was, an export from its first row), saying so. A job that
 * has already used its runs is ended FAILED instead (a zip's or an e-mail's message is still sent, so that its worker
 * deletes the zip or the raw e-mail and tells its sender).
 */
export function makeJobLeaseSweeper(deps: JobLeaseSweeperDeps) {
  return {
    async sweep(): Promise<{ resumed: number; failed: number }> {
      const now = deps.clock();
      const counts = { resumed: 0, failed: 0 };
      const until = new Date(now.getTime() + deps.resendAfterMs).toISOString();
      if (deps.exports && deps.exportsQueue) {
        for (const job of await deps.exports.lapsed(now.toISOString(), deps.batch ?? 50)) {
          if (job.attempts >= deps.maxAttempts) {
            await deps.exports.fail(job, 'its runs kept stopping', now.toISOString());
            counts.failed++;
            deps.log.warn('export ended FAILED: its runs kept stopping', { exportId: job.id, attempts: job.attempts });
            continue;
          }
          if (!(await deps.exports.postpone(job, until))) continue;
          counts.resumed++;
          deps.log.info('export handed to a worker again: its lease lapsed', { exportId: job.id });
          await deps.exportsQueue.send({ userId: job.userId, exportId: job.id });
        }
      }
      if (deps.mail && deps.inboundMailQueue) {
        for (const record of await deps.mail.lapsed(now.toISOString(), deps.batch ?? 50)) {
          if (!record.message) continue;
          if (record.attempts >= deps.maxAttempts) {
            if (!(await deps.mail.fail(record, now))) continue;
            counts.failed++;
            deps.log.warn('inbound e-mail ended FAILED: its runs kept stopping', {
              messageId: record.messageId,
              attempts: record.attempts,
            });
          } else {
            if (!(await deps.mail.postpone(record.messageId, record.leaseUntil ?? '', until))) continue;
            counts.resumed++;
            deps.log.info('inbound e-mail handed to a worker again: its lease lapsed', {
              messageId: record.messageId,
            });
          }
          await deps.inboundMailQueue.send(record.message);
        }
      }
      for (const batch of await deps.batches.lapsed(now.toISOString(), deps.batch ?? 50)) {
        if (batch.attempts >= deps.maxAttempts) {
          const reason = {
            code: 'ERROR_INTAKE_BATCH_FAILED',
            message: formatErrorMessage('ERROR_INTAKE_BATCH_FAILED'),
          };
          if (!(await deps.batches.end(batch.id, 'FAILED', reason, now.toISOString()))) continue;
          counts.failed++;
          deps.log.warn('intake batch ended FAILED: its runs kept stopping', {
            batchId: batch.id,
            attempts: batch.attempts,
          });
        } else {
          if (!(await deps.batches.postpone(batch.id, batch.leaseUntil ?? '', until))) continue;
          counts.resumed++;
          deps.log.info('intake batch handed to a worker again: its lease lapsed', {
            batchId: batch.id,
            leaseUntil: batch.leaseUntil,
          });
        }
        await deps.intakeBatchesQueue.send({ batchId: batch.id });
      }
      return counts;
    },
  };
}

export type JobLeaseSweeper = ReturnType<typeof makeJobLeaseSweeper>;

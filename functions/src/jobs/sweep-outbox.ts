import { QUEUES, RUNTIME_ENV } from '@portal/shared';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { sapFromEnv } from '../adapters/sap.js';
import { queueFromEnv } from '../adapters/sqs.js';
import { logger } from '../observability/logger.js';
import { observed } from '../observability/observed.js';
import { makeInvoiceStore } from '../repositories/invoice-store.js';
import { makeSunatChecks, sunatRecheckBaseSeconds } from '../repositories/sunat-checks.js';
import { outgoing } from '../use-cases/outgoing.factory.js';
import { makeMiroOutbox } from '../repositories/miro-outbox.js';
import { MIRO_TIMING } from '../use-cases/miro/miro-timing.js';
import { makeOutboxSweeper } from './outbox-sweeper.js';
import { makeSunatRecheck } from './sunat-recheck.js';
import { JOB_LEASE_MS, makeJobLeaseSweeper } from './job-leases.js';
import { makeExportJobRepository } from '../repositories/export-jobs.js';
import { makeIntakeBatchRepository } from '../repositories/intake-batches.js';
import { clock } from '../adapters/clock.js';
import { makeInboundMailRepository } from '../repositories/inbound-mail.js';
import { makeNotificationRepository } from '../repositories/notifications.js';
import { endMailFailed } from '../mail/mail-job.js';

const miro = makeMiroOutbox(documentClient, tableName());
const sap = sapFromEnv();
const store = makeInvoiceStore(documentClient, tableName());
const mail = makeInboundMailRepository(documentClient, tableName()).processed;
const feed = makeNotificationRepository(documentClient, tableName());
const portalUrl = process.env[RUNTIME_ENV.webOrigin]?.split(',')[0]?.trim() || null;

/** The OutboxSweeper schedule (SCHEDULES.outboxSweeper): EventBridge in AWS, a timer on the local stage. */
export const handler = observed(
  makeOutboxSweeper({
    outgoing,
    miro,
    posting: {
      outbox: miro,
      store,
      notifications: queueFromEnv(QUEUES.notifications.env),
      clock,
      log: logger,
      leaseMs: MIRO_TIMING.leaseMs(),
    },
    sap,
    miroQueue: queueFromEnv(QUEUES.miroRequests.env),
    clock,
    log: logger,
    graceMs: MIRO_TIMING.graceMs(),
    sunat: makeSunatRecheck({
      checks: makeSunatChecks(documentClient, tableName()),
      invoices: store,
      outgoing,
      clock,
      log: logger,
      baseSeconds: sunatRecheckBaseSeconds(),
    }),
    jobs: makeJobLeaseSweeper({
      batches: makeIntakeBatchRepository(documentClient, tableName()),
      intakeBatchesQueue: queueFromEnv(QUEUES.intakeBatches.env),
      exports: makeExportJobRepository(documentClient, tableName()),
      exportsQueue: queueFromEnv(QUEUES.exports.env),
      mail: {
        lapsed: mail.lapsed,
        postpone: mail.postpone,
        fail: (record, now) =>
          endMailFailed({ processed: mail, feed, portalUrl }, record, { leaseUntil: record.leaseUntil }, now),
      },
      inboundMailQueue: queueFromEnv(QUEUES.inboundMail.env),
      clock,
      log: logger,
      maxAttempts: Math.min(
        QUEUES.intakeBatches.maxReceiveCount,
        QUEUES.exports.maxReceiveCount,
        QUEUES.inboundMail.maxReceiveCount,
      ),
      // The message is taken within seconds; a lease's length is the time it is given before it is sent again.
      resendAfterMs: JOB_LEASE_MS * 2,
    }),
  }).sweep,
);

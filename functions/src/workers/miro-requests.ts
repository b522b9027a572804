import { QUEUES } from '@portal/shared';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { sapFromEnv } from '../adapters/sap.js';
import { queueFromEnv } from '../adapters/sqs.js';
import { logger } from '../observability/logger.js';
import { meter } from '../observability/metrics.js';
import { observed } from '../observability/observed.js';
import { makeInvoiceStore } from '../repositories/invoice-store.js';
import { makeMiroOutbox } from '../repositories/miro-outbox.js';
import { MIRO_TIMING } from '../use-cases/miro/miro-timing.js';
import { outgoing } from '../use-cases/outgoing.factory.js';
import { acknowledgingOutgoing } from './acknowledge.js';
import { makeMiroRequestsWorker } from './miro-requests-worker.js';
import { clock } from '../adapters/clock.js';

/** Consumer of the MIRO queue, wired to the real adapters once per cold start. */
export const handler = observed(
  acknowledgingOutgoing(
    'miroRequests',
    outgoing,
    makeMiroRequestsWorker({
      outbox: makeMiroOutbox(documentClient, tableName()),
      store: makeInvoiceStore(documentClient, tableName()),
      sap: sapFromEnv(),
      notifications: queueFromEnv(QUEUES.notifications.env),
      clock,
      log: logger,
      meter,
      leaseMs: MIRO_TIMING.leaseMs(),
      retryBaseMs: MIRO_TIMING.retryBaseMs(),
    }),
  ),
);

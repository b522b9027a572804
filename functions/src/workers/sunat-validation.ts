import { QUEUES } from '@portal/shared';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { sunatFromEnv } from '../adapters/sunat.js';
import { logger } from '../observability/logger.js';
import { meter } from '../observability/metrics.js';
import { observed } from '../observability/observed.js';
import { makeInvoiceStore } from '../repositories/invoice-store.js';
import { makeSunatChecks } from '../repositories/sunat-checks.js';
import { outgoing } from '../use-cases/outgoing.factory.js';
import { acknowledgingOutgoing } from './acknowledge.js';
import { makeSunatValidationWorker } from './sunat-validation-worker.js';
import { clock } from '../adapters/clock.js';

/** Consumer of the SUNAT queue, wired to the real adapters once per cold start. */
export const handler = observed(
  acknowledgingOutgoing(
    'sunatValidation',
    outgoing,
    makeSunatValidationWorker({
      store: makeInvoiceStore(documentClient, tableName()),
      sunat: sunatFromEnv(),
      outgoing,
      clock,
      log: logger,
      meter,
      maxReceiveCount: QUEUES.sunatValidation.maxReceiveCount,
      checks: makeSunatChecks(documentClient, tableName()),
    }),
  ),
);

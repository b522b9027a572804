import { documentClient, tableName } from '../adapters/dynamodb.js';
import { sapFromEnv } from '../adapters/sap.js';
import { logger } from '../observability/logger.js';
import { meter } from '../observability/metrics.js';
import { observed } from '../observability/observed.js';
import { makeInvoiceStore } from '../repositories/invoice-store.js';
import { outgoing } from '../use-cases/outgoing.factory.js';
import { makePaymentSyncRepository } from '../repositories/payment-sync.js';
import { makePaymentSync, type PaymentSyncResult } from './sync-payments-job.js';
import { clock } from '../adapters/clock.js';

const sync = makePaymentSync({
  repository: makePaymentSyncRepository(documentClient, tableName()),
  store: makeInvoiceStore(documentClient, tableName()),
  sap: sapFromEnv(),
  outgoing,
  clock,
  log: logger,
  meter,
});

/** The PaymentSync schedule (SCHEDULES.paymentSync): EventBridge in AWS, a timer on the local stage. */
export const handler = observed(async (_event, context): Promise<PaymentSyncResult> =>
  sync.run(context.awsRequestId || undefined),
);

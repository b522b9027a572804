import { QUEUES } from '@portal/shared';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { queueFromEnv } from '../adapters/sqs.js';
import { logger } from '../http/logger.js';
import { makeInvoiceStore } from '../repositories/invoice-store.js';
import { outgoing } from './outgoing.factory.js';
import { makeInvoiceReview } from './review-invoice.js';
import { uploads } from './uploads.factory.js';

/**
 * The review wired as review-invoice.factory.ts wires it, plus the attachment checks of the completion
 * (PUT): for the update handler only, so that the other review handlers do not carry the bucket adapter.
 */
export const invoiceCompletion = makeInvoiceReview({
  store: makeInvoiceStore(documentClient, tableName()),
  outgoing,
  notificationsQueue: queueFromEnv(QUEUES.notifications.env),
  clock: () => new Date(),
  log: logger,
  verifyAttachment: (key, tenants, position) => uploads.verifyAttachment(key, tenants, position),
});

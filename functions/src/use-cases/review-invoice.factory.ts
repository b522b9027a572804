import { MIRO_POSTING, QUEUES } from '@portal/shared';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { queueFromEnv } from '../adapters/sqs.js';
import { logger } from '../observability/logger.js';
import { makeInvoiceStore } from '../repositories/invoice-store.js';
import { makeNoteLinks } from '../repositories/note-links.js';
import { makeSunatChecks, sunatRecheckBaseSeconds } from '../repositories/sunat-checks.js';
import { makeMiroOutbox } from '../repositories/miro-outbox.js';
import { miroRetryBaseMs } from '../workers/miro-requests-worker.js';
import { outgoing } from './outgoing.factory.js';
import { makeInvoiceReview, type ReviewDeps } from './review-invoice.js';
import { clock } from '../adapters/clock.js';

/** The review's real adapters, built once per cold start (invoice-completion.factory.ts adds the attachment check). */
export const reviewDeps: ReviewDeps = {
  store: makeInvoiceStore(documentClient, tableName()),
  outgoing,
  notificationsQueue: queueFromEnv(QUEUES.notifications.env),
  clock,
  log: logger,
  miro: makeMiroOutbox(documentClient, tableName()),
  miroGraceMs: Math.min(MIRO_POSTING.graceSeconds * 1000, 2 * miroRetryBaseMs()),
  sunat: {
    checks: makeSunatChecks(documentClient, tableName()),
    messages: outgoing,
    staleAfterSeconds: sunatRecheckBaseSeconds(),
  },
  noteLinks: makeNoteLinks(documentClient, tableName()),
};

/** The review use cases wired to the real adapters, built once per cold start by the handlers. */
export const invoiceReview = makeInvoiceReview(reviewDeps);

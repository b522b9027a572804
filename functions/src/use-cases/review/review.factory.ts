import { clock } from '../../adapters/clock.js';
import { documentClient, tableName } from '../../adapters/dynamodb.js';
import { logger } from '../../observability/logger.js';
import { makeInvoiceStore } from '../../repositories/invoice-store.js';
import { makeMiroOutbox } from '../../repositories/miro-outbox.js';
import { makeNoteLinks } from '../../repositories/note-links.js';
import { makeSunatChecks, sunatRecheckBaseSeconds } from '../../repositories/sunat-checks.js';
import { MIRO_TIMING } from '../miro/miro-timing.js';
import { outgoing } from '../outgoing.factory.js';
import type { ReviewDeps } from './review-deps.js';

/**
 * The review's real adapters, built once per cold start; each review handler passes them to its use case
 * (completion.factory.ts adds the attachment check for the update).
 */
export const reviewDeps: ReviewDeps = {
  store: makeInvoiceStore(documentClient, tableName()),
  outgoing,
  clock,
  log: logger,
  miro: makeMiroOutbox(documentClient, tableName()),
  miroGraceMs: MIRO_TIMING.graceMs(),
  sunat: {
    checks: makeSunatChecks(documentClient, tableName()),
    messages: outgoing,
    staleAfterSeconds: sunatRecheckBaseSeconds(),
  },
  noteLinks: makeNoteLinks(documentClient, tableName()),
};

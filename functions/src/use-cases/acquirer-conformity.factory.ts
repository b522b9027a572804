import { clock } from '../adapters/clock.js';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { makeConformityClocks } from '../repositories/acquirer-conformity-clocks.js';
import type { AcquirerConformityDeps } from './acquirer-conformity.js';
import { outgoing } from './outgoing.factory.js';
import { getInvoice } from './review/get-invoice.js';
import { reviewDeps } from './review/review.factory.js';

/** The Ley 29623 conformity registration's real adapters, built once per cold start. */
export const acquirerConformityDeps: AcquirerConformityDeps = {
  store: reviewDeps.store,
  clocks: makeConformityClocks(documentClient, tableName()),
  outgoing,
  clock,
  detail: (caller, path) => getInvoice(reviewDeps, caller, path),
};

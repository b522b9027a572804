import { clock } from '../adapters/clock.js';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { logger } from '../observability/logger.js';
import { observed } from '../observability/observed.js';
import { makeConformityClocks } from '../repositories/acquirer-conformity-clocks.js';
import { makeInvoiceStore } from '../repositories/invoice-store.js';
import { outgoing } from '../use-cases/outgoing.factory.js';
import {
  runAcquirerConformityClock,
  type AcquirerConformityClockDeps,
  type AcquirerConformityClockResult,
} from './acquirer-conformity-clock.js';

const deps: AcquirerConformityClockDeps = {
  clocks: makeConformityClocks(documentClient, tableName()),
  store: makeInvoiceStore(documentClient, tableName()),
  outgoing,
  clock,
  log: logger,
};

/** The AcquirerConformityClock schedule (SCHEDULES.acquirerConformity): EventBridge in AWS, a timer on the local stage. */
export const handler = observed(async (_event, context): Promise<AcquirerConformityClockResult> =>
  runAcquirerConformityClock(deps, context.awsRequestId || undefined),
);

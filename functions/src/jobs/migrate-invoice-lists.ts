import { clock } from '../adapters/clock.js';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { logger } from '../observability/logger.js';
import { observed } from '../observability/observed.js';
import { makeInvoiceListMigrationRepository } from '../repositories/invoice-list-migration.js';
import { makeInvoiceListMigration, type InvoiceListMigrationResult } from './invoice-list-migration.js';

const repository = makeInvoiceListMigrationRepository(documentClient, tableName());

/** Where no Lambda context says how long is left (the local stage, which runs it at start until it ends). */
const LOCAL_RUN_MS = 15 * 60_000;

/**
 * The InvoiceListMigration schedule (SCHEDULES.invoiceListMigration, ADR 0042): every 15 minutes in AWS until its pass
 * over the table has ended, then a read of its state per run; the local stage runs it at start, before it serves.
 */
export const handler = observed(async (_event, context): Promise<InvoiceListMigrationResult> => {
  const started = Date.now();
  const timeLeftMs =
    typeof context.getRemainingTimeInMillis === 'function'
      ? () => context.getRemainingTimeInMillis()
      : () => LOCAL_RUN_MS - (Date.now() - started);
  return makeInvoiceListMigration({ repository, clock, log: logger, timeLeftMs }).run();
});

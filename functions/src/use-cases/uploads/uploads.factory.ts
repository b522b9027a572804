import { randomUUID } from 'node:crypto';
import { systemClock } from '../../adapters/clock.js';
import { documentClient, tableName } from '../../adapters/dynamodb.js';
import { documentsBucketFromEnv, makeDocumentFiles } from '../../adapters/s3.js';
import { logger } from '../../observability/logger.js';
import { makeInvoiceStore } from '../../repositories/invoice-store.js';
import { makeUploadUses } from '../../repositories/upload-uses.js';
import type { UploadsDeps } from './uploads-deps.js';

/** The documents bucket's real adapters, built once per cold start; handlers and use cases pass them on. */
export const uploadsDeps: UploadsDeps = {
  files: makeDocumentFiles(documentsBucketFromEnv()),
  invoices: makeInvoiceStore(documentClient, tableName()),
  uses: makeUploadUses(documentClient, tableName()),
  // Real time, not the stage's clock: what it times are S3 links and POST policies, which S3 checks with real time.
  clock: systemClock,
  newId: randomUUID,
  log: logger,
};

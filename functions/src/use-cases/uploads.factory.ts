import { randomUUID } from 'node:crypto';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { documentsBucketFromEnv, makeDocumentFiles } from '../adapters/s3.js';
import { logger } from '../http/logger.js';
import { makeInvoiceStore } from '../repositories/invoice-store.js';
import { makeUploadUses } from '../repositories/upload-uses.js';
import { makeUploads } from './uploads.js';

/** The documents use cases wired to the real adapters, built once per cold start by the handlers. */
export const uploads = makeUploads({
  files: makeDocumentFiles(documentsBucketFromEnv()),
  invoices: makeInvoiceStore(documentClient, tableName()),
  uses: makeUploadUses(documentClient, tableName()),
  clock: () => new Date(),
  newId: randomUUID,
  log: logger,
});

import { randomUUID } from 'node:crypto';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { documentsBucket, makeDocumentFiles, s3Client } from '../adapters/s3.js';
import { logger } from '../http/logger.js';
import { makeInvoiceStore } from '../repositories/invoice-store.js';
import { makeUploads } from './uploads.js';

/** The documents use cases wired to the real adapters, built once per cold start by the handlers. */
export const uploads = makeUploads({
  files: makeDocumentFiles(s3Client, documentsBucket()),
  invoices: makeInvoiceStore(documentClient, tableName()),
  clock: () => new Date(),
  newId: randomUUID,
  log: logger,
});

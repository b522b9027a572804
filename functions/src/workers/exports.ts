import { ExportMessage, QUEUES } from '@portal/shared';
import { clock } from '../adapters/clock.js';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { documentsBucketFromEnv } from '../adapters/s3.js';
import { makeStreamUploads } from '../adapters/s3-uploads.js';
import { observed } from '../observability/observed.js';
import { makeExportJobRepository } from '../repositories/export-jobs.js';
import { makeInvoiceRepository } from '../repositories/invoices.js';
import { makeNotificationRepository } from '../repositories/notifications.js';
import { conformityDeps } from '../use-cases/conformity/conformity.factory.js';
import { listConformityDocuments } from '../use-cases/conformity/list-conformity-documents.js';
import { supplierAccountsDeps } from '../use-cases/export-sources.factory.js';
import { listExternalUsers } from '../use-cases/user-admin/list-external-users.js';
import { makeExportRunner } from '../use-cases/export-runner.js';
import { makeListInvoices } from '../use-cases/list-invoices.js';
import { outgoing } from '../use-cases/outgoing.factory.js';
import { acknowledgingOutgoing } from './acknowledge.js';
import { sqsBatchHandler } from './sqs-batch.js';

const uploads = makeStreamUploads(documentsBucketFromEnv());
const listInvoices = makeListInvoices({ invoices: makeInvoiceRepository(documentClient, tableName()), clock });

const runner = makeExportRunner({
  jobs: makeExportJobRepository(documentClient, tableName()),
  sources: {
    listInvoices,
    listConformity: (caller, kind, query) => listConformityDocuments(conformityDeps, caller, kind, query),
    listSuppliers: (query) => listExternalUsers(supplierAccountsDeps, query),
  },
  upload: (key, contentType) => uploads.upload(key, contentType),
  feed: makeNotificationRepository(documentClient, tableName()),
  clock,
});

/**
 * Consumer of the exports queue: makes the file of one job per message (docs/adr/0032-list-exports.md). A failure is
 * left for redelivery, which writes the file again from its first row; on the last delivery the job is FAILED.
 */
export const handler = observed(
  acknowledgingOutgoing(
    'exports',
    outgoing,
    sqsBatchHandler(ExportMessage, (message, record) =>
      runner.run(message, Number(record.attributes.ApproximateReceiveCount) >= QUEUES.exports.maxReceiveCount),
    ),
  ),
);

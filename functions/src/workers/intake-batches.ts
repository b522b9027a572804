import { IntakeBatchMessage, QUEUES, RUNTIME_ENV } from '@portal/shared';
import { clock } from '../adapters/clock.js';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { sesMailer } from '../adapters/email.js';
import { documentsBucketFromEnv, makeDocumentFiles } from '../adapters/s3.js';
import { makeObjectDownloads } from '../adapters/s3-downloads.js';
import { observed } from '../observability/observed.js';
import { makeIntakeBatchRepository } from '../repositories/intake-batches.js';
import { makeNotificationRepository } from '../repositories/notifications.js';
import { parseSunatDocument } from '../ubl/index.js';
import { concurrencyOf, type IntakeBatchRunnerDeps } from '../use-cases/intake-batch-runner-deps.js';
import { runIntakeBatch } from '../use-cases/intake-batch-runner.js';
import { intakeDeps } from '../use-cases/intake/intake.factory.js';
import { batchIntakeDeps, registerFromFiles } from '../use-cases/intake/register-files.js';
import { deliverPersonalNotice, type PersonalNoticeDeps } from '../use-cases/notifications/deliver-personal-notice.js';
import { outgoing } from '../use-cases/outgoing.factory.js';
import { UPLOAD_LIMITS } from '../use-cases/uploads/upload-kinds.js';
import { acknowledgingOutgoing } from './acknowledge.js';
import { sqsBatchHandler } from './sqs-batch.js';

const bucket = documentsBucketFromEnv();
const files = makeDocumentFiles(bucket);
const downloads = makeObjectDownloads(bucket);
const notices: PersonalNoticeDeps = {
  repository: makeNotificationRepository(documentClient, tableName()),
  mailer: sesMailer,
  clock,
  portalUrl: process.env[RUNTIME_ENV.webOrigin]?.split(',')[0]?.trim() || null,
};

const runnerDeps: IntakeBatchRunnerDeps = {
  batches: makeIntakeBatchRepository(documentClient, tableName()),
  fetchZip: async (key) => {
    const file = await downloads.toFile(key, UPLOAD_LIMITS.INVOICE_ZIP.maxBytes);
    return file && { source: { path: file.path }, dispose: file.dispose };
  },
  deleteZip: (key) => files.delete(key),
  intakeOfBatch: () => {
    const batch = batchIntakeDeps(intakeDeps);
    return (caller, incoming) => registerFromFiles(batch, caller, incoming);
  },
  documentOf: (xml) => {
    try {
      const parsed = parseSunatDocument(xml);
      return { supplierId: parsed.supplier.taxId, type: parsed.type };
    } catch {
      return null;
    }
  },
  notify: async ({ batch, id, text, subject }) => {
    await deliverPersonalNotice(
      notices,
      { userId: batch.userId, taxId: batch.company },
      {
        id,
        registeredAt: batch.finishedAt ?? clock().toISOString(),
        text,
        subject,
        path: `/invoices?zip=${batch.id}`,
        kind: 'ZIP_PROCESSED',
      },
    );
  },
  clock,
  concurrency: concurrencyOf(process.env[RUNTIME_ENV.intakeBatchConcurrency]),
};

/**
 * Consumer of the intake-batches queue: one zip of documents per message (docs/intake-channels.md#zip). A failure is
 * left for redelivery, which skips the documents already recorded; on the last delivery the batch is FAILED.
 */
export const handler = observed(
  acknowledgingOutgoing(
    'intakeBatches',
    outgoing,
    sqsBatchHandler(IntakeBatchMessage, (message, record) =>
      runIntakeBatch(
        runnerDeps,
        message,
        Number(record.attributes.ApproximateReceiveCount) >= QUEUES.intakeBatches.maxReceiveCount,
      ),
    ),
  ),
);

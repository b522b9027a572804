import { exportRoutes } from '@portal/shared';
import { clock } from '../../adapters/clock.js';
import { documentClient, tableName } from '../../adapters/dynamodb.js';
import { documentsBucketFromEnv, makeDocumentFiles } from '../../adapters/s3.js';
import { httpHandler } from '../../http/wrapper.js';
import { makeExportJobRepository } from '../../repositories/export-jobs.js';
import { makeReadExport } from '../../use-cases/exports.js';

const files = makeDocumentFiles(documentsBucketFromEnv(), clock);
const readExport = makeReadExport({
  jobs: makeExportJobRepository(documentClient, tableName()),
  presignGet: (link) => files.presignGet(link),
});

export const handler = httpHandler(exportRoutes.getExport, ({ caller, path }) => readExport(caller, path.exportId));

import { intakeBatchRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { intakeBatchReadDeps } from '../../use-cases/intake-batch-reader.factory.js';
import { getIntakeBatch } from '../../use-cases/intake-batches.js';

export const handler = httpHandler(intakeBatchRoutes.getIntakeBatch, ({ caller, path, query }) =>
  getIntakeBatch(intakeBatchReadDeps, caller, path.batchId, query),
);

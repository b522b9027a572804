import { intakeBatchRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { intakeBatchReadDeps } from '../../use-cases/intake-batch-reader.factory.js';
import { listIntakeBatches } from '../../use-cases/intake-batches.js';

export const handler = httpHandler(intakeBatchRoutes.listIntakeBatches, ({ caller }) =>
  listIntakeBatches(intakeBatchReadDeps, caller),
);

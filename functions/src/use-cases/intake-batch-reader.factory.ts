import { documentClient, tableName } from '../adapters/dynamodb.js';
import { makeIntakeBatchRepository } from '../repositories/intake-batches.js';
import { makeReadIntakeBatches } from './intake-batches.js';

/** GET /intake-batches/{batchId} and GET /intake-batches: the table only (no bucket). */
export const intakeBatchReader = makeReadIntakeBatches({
  batches: makeIntakeBatchRepository(documentClient, tableName()),
});

import { documentClient, tableName } from '../adapters/dynamodb.js';
import { makeIntakeBatchRepository } from '../repositories/intake-batches.js';
import type { IntakeBatchReadDeps } from './intake-batches.js';

/** GET /intake-batches/{batchId} and GET /intake-batches: the table only (no bucket). */
export const intakeBatchReadDeps: IntakeBatchReadDeps = {
  batches: makeIntakeBatchRepository(documentClient, tableName()),
};

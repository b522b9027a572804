import { randomUUID } from 'node:crypto';
import { clock } from '../adapters/clock.js';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { makeIntakeBatchRepository } from '../repositories/intake-batches.js';
import { makeRequestIntakeBatch } from './intake-batches.js';
import { outgoing } from './outgoing.factory.js';
import { uploadsDeps } from './uploads/uploads.factory.js';
import { verifyUpload } from './uploads/verify-upload.js';

const batches = makeIntakeBatchRepository(documentClient, tableName());

/** POST /intake-batches wired to S3 (the upload's checks), the table and the intake-batches queue. */
export const requestIntakeBatch = makeRequestIntakeBatch({
  batches,
  verifyUpload: (key, purpose, caller) => verifyUpload(uploadsDeps, key, purpose, caller),
  outgoing,
  clock,
  newId: randomUUID,
});

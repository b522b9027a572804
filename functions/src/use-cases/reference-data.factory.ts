import { documentClient, tableName } from '../adapters/dynamodb.js';
import { makeClientRepository } from '../repositories/clients.js';
import { makeReferenceDataRepository } from '../repositories/reference-data.js';
import type { ReferenceDataDeps } from './reference-data.js';

/** The employee and office lists' real table, built once per cold start; their handlers pass it on. */
export const referenceDataDeps: ReferenceDataDeps = {
  referenceData: makeReferenceDataRepository(documentClient, tableName()),
  clients: makeClientRepository(documentClient, tableName()),
};

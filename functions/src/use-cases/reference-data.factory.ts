import { documentClient, tableName } from '../adapters/dynamodb.js';
import { makeClientRepository } from '../repositories/clients.js';
import { makeReferenceDataRepository } from '../repositories/reference-data.js';
import { makeReferenceData } from './reference-data.js';

/** The employee and office lists wired to the real table, built once per cold start by their handlers. */
export const referenceData = makeReferenceData({
  referenceData: makeReferenceDataRepository(documentClient, tableName()),
  clients: makeClientRepository(documentClient, tableName()),
});

import { randomUUID } from 'node:crypto';
import { RUNTIME_ENV } from '@portal/shared';
import { authorizerAudienceFromEnv } from '../adapters/api-authorizer.js';
import { cognitoAppClientsFromEnv } from '../adapters/cognito.js';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { makeApiClientRepository } from '../repositories/api-clients.js';
import { makeSupplierProfileRepository } from '../repositories/supplier-profiles.js';
import { makeApiClients } from './api-clients.js';

const profiles = makeSupplierProfileRepository(documentClient, tableName());

/** The API clients' administration wired to Cognito, API Gateway and DynamoDB, built once per cold start. */
export const apiClients = makeApiClients({
  repository: makeApiClientRepository(documentClient, tableName()),
  appClients: cognitoAppClientsFromEnv(),
  audience: authorizerAudienceFromEnv(),
  async supplierNames(rucs) {
    const found = await profiles.getMany(rucs);
    return new Map([...found].map(([ruc, profile]) => [ruc, profile.name]));
  },
  tokenUrl: process.env[RUNTIME_ENV.apiTokenUrl] ?? '',
  clock: () => new Date(),
  newId: randomUUID,
});

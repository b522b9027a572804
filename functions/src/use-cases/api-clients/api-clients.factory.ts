import { randomUUID } from 'node:crypto';
import { RUNTIME_ENV } from '@portal/shared';
import { authorizerAudienceFromEnv } from '../../adapters/api-authorizer.js';
import { cognitoAppClientsFromEnv } from '../../adapters/cognito.js';
import { documentClient, tableName } from '../../adapters/dynamodb.js';
import { makeApiClientRepository } from '../../repositories/api-clients.js';
import { makeSupplierProfileRepository } from '../../repositories/supplier-profiles.js';
import type { ApiClientsDeps } from './api-client-steps.js';

const profiles = makeSupplierProfileRepository(documentClient, tableName());

/** The API clients' adapters (Cognito, API Gateway and DynamoDB), built once per cold start. */
export const apiClientsDeps: ApiClientsDeps = {
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
};

import type { CreateApiClientBody } from '@portal/shared';
import type { AdminContext } from '../user-admin-accounts.js';
import type { ApiClientsDeps } from './api-client-steps.js';
import { createApiClient } from './create-api-client.js';
import { listApiClients } from './list-api-clients.js';
import { revokeApiClient } from './revoke-api-client.js';

/** The API clients' use cases bound to one set of ports, as the tests call them (the handlers import each one). */
export function apiClientCalls(deps: ApiClientsDeps) {
  return {
    list: () => listApiClients(deps),
    create: (context: AdminContext, body: CreateApiClientBody) => createApiClient(deps, context, body),
    revoke: (context: AdminContext, clientId: string) => revokeApiClient(deps, context, clientId),
  };
}

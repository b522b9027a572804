import { apiClientRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { apiClientsDeps } from '../../use-cases/api-clients/api-clients.factory.js';
import { revokeApiClient } from '../../use-cases/api-clients/revoke-api-client.js';
import { adminContextOf } from '../../use-cases/user-admin-accounts.js';

export const handler = httpHandler(apiClientRoutes.revokeApiClient, ({ caller, txId, path }) =>
  revokeApiClient(apiClientsDeps, adminContextOf(caller, txId), path.clientId),
);

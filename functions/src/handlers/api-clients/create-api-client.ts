import { apiClientRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { apiClientsDeps } from '../../use-cases/api-clients/api-clients.factory.js';
import { createApiClient } from '../../use-cases/api-clients/create-api-client.js';
import { adminContextOf } from '../../use-cases/user-admin-accounts.js';

export const handler = httpHandler(apiClientRoutes.createApiClient, ({ caller, txId, body }) =>
  createApiClient(apiClientsDeps, adminContextOf(caller, txId), body),
);

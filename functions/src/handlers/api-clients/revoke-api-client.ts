import { apiClientRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { apiClients } from '../../use-cases/api-clients.factory.js';
import { adminContextOf } from '../../use-cases/user-admin-accounts.js';

export const handler = httpHandler(apiClientRoutes.revokeApiClient, ({ caller, txId, path }) =>
  apiClients.revoke(adminContextOf(caller, txId), path.clientId),
);

import { apiClientRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { apiClientsDeps } from '../../use-cases/api-clients/api-clients.factory.js';
import { listApiClients } from '../../use-cases/api-clients/list-api-clients.js';

export const handler = httpHandler(apiClientRoutes.listApiClients, () => listApiClients(apiClientsDeps));

import { apiClientRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';
import { apiClients } from '../../use-cases/api-clients.factory.js';

export const handler = httpHandler(apiClientRoutes.listApiClients, () => apiClients.list());

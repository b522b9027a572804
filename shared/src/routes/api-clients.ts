import { listOf } from '../schemas/common.js';
import { ApiClient, ApiClientPath, CreateApiClientBody, CreatedApiClient } from '../schemas/api-clients.js';
import type { FunctionUses } from '../access.js';
import { route, ADMINISTRATION, type RouteDef } from './route.js';

/**
 * Creating and revoking one changes the user pool's app clients, the JWT authorizer's audience (the API
 * Gateway keeps the active clients' ids, docs/adr/0034-api-clients.md) and the table (the client, the list of
 * refused accounts, the audit log). A creation deletes its app client again when the table refuses the client.
 */
const CREATES_API_CLIENTS = {
  table: 'write',
  userPool: ['CreateUserPoolClient', 'DeleteUserPoolClient'],
  apiAuthorizer: true,
} as const satisfies FunctionUses;
const REVOKES_API_CLIENTS = {
  table: 'write',
  userPool: ['DeleteUserPoolClient'],
  apiAuthorizer: true,
} as const satisfies FunctionUses;

/** Suppliers' API clients (administrators only): OAuth2 client credentials bound to one RUC. */
export const apiClientRoutes = {
  listApiClients: route({
    id: 'listApiClients',
    method: 'GET',
    path: '/api-clients',
    summary: 'Clientes de API de los proveedores (sin su secreto)',
    ...ADMINISTRATION,
    request: {},
    response: listOf(ApiClient),
    uses: { table: 'read' },
    handler: 'api-clients/list-api-clients',
  }),
  createApiClient: route({
    id: 'createApiClient',
    method: 'POST',
    path: '/api-clients',
    summary: 'Crea un cliente de API para un proveedor; la respuesta trae el secreto, que no se vuelve a mostrar',
    ...ADMINISTRATION,
    request: { body: CreateApiClientBody },
    response: CreatedApiClient,
    successStatus: 201,
    uses: CREATES_API_CLIENTS,
    handler: 'api-clients/create-api-client',
  }),
  revokeApiClient: route({
    id: 'revokeApiClient',
    method: 'DELETE',
    path: '/api-clients/{clientId}',
    summary: 'Revoca un cliente de API: su secreto y los tokens ya emitidos dejan de valer',
    ...ADMINISTRATION,
    request: { path: ApiClientPath },
    response: ApiClient,
    uses: REVOKES_API_CLIENTS,
    handler: 'api-clients/revoke-api-client',
  }),
} as const satisfies Record<string, RouteDef>;

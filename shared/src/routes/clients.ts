import { listOf } from '../schemas/common.js';
import { Client } from '../schemas/reference.js';
import { READS_TABLE } from '../access.js';
import { route, ALL_SIGNED_IN, type RouteDef } from './route.js';

/** The group's companies. */
export const clientRoutes = {
  listClients: route({
    id: 'listClients',
    method: 'GET',
    path: '/clients',
    summary: 'Sociedades del grupo',
    roles: ALL_SIGNED_IN,
    request: {},
    response: listOf(Client),
    uses: READS_TABLE,
    handler: 'clients/list-clients',
  }),
} as const satisfies Record<string, RouteDef>;

import * as z from 'zod/mini';
import { USES_NOTHING } from '../access.js';
import { route, type RouteDef } from './route.js';

const Health = z.object({ status: z.literal('ok'), version: z.string(), time: z.string() });

/** Health checks and the API description (public). */
export const systemRoutes = {
  healthcheck: route({
    id: 'healthcheck',
    method: 'GET',
    path: '/healthcheck',
    summary: 'Estado del servicio y de su base de datos',
    auth: 'public',
    roles: [],
    request: {},
    response: Health,
    uses: { table: 'read' },
    handler: 'system/get-healthcheck',
  }),
  heartbeat: route({
    id: 'heartbeat',
    method: 'GET',
    path: '/heartbeat',
    summary: 'Latido: el servicio responde',
    auth: 'public',
    roles: [],
    request: {},
    response: Health,
    uses: USES_NOTHING,
    handler: 'system/get-heartbeat',
  }),
  openapi: route({
    id: 'openapi',
    method: 'GET',
    path: '/openapi.json',
    summary: 'Documento OpenAPI 3.1 generado del manifiesto de rutas',
    auth: 'public',
    roles: [],
    request: {},
    response: z.record(z.string(), z.unknown()),
    uses: USES_NOTHING,
    handler: 'system/get-openapi',
  }),
} as const satisfies Record<string, RouteDef>;

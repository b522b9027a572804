import * as z from 'zod/mini';
import { LEVELS } from '../domain.js';
import { Empty } from '../schemas/common.js';
import { SessionUser } from '../schemas/session.js';
import { READS_TABLE } from '../access.js';
import { route, type RouteDef } from './route.js';

/** The session: who the caller is and whether its session holds. */
export const sessionRoutes = {
  getCurrentUser: route({
    id: 'getCurrentUser',
    method: 'GET',
    path: '/users/me',
    summary: 'Usuario de la sesión (lo consulta la guarda de navegación)',
    roles: LEVELS,
    requiresCompany: false,
    request: {},
    response: SessionUser,
    uses: { table: 'read', userPool: ['AdminGetUser'] },
    handler: 'users/get-current-user',
  }),
  verifySession: route({
    id: 'verifySession',
    method: 'POST',
    path: '/users/verify-session',
    summary: 'Verifica que la sesión sea válida y la sociedad activa permitida',
    roles: LEVELS,
    requiresCompany: false,
    request: { body: z.optional(Empty) },
    response: z.object({
      valid: z.literal(true),
      expiresAt: z.string(),
      level: z.enum(LEVELS),
      activeCompany: z.nullable(z.string()),
      companies: z.array(z.string()),
    }),
    uses: READS_TABLE,
    handler: 'users/verify-session',
  }),
} as const satisfies Record<string, RouteDef>;

import { DashboardCounts, DashboardQuery } from '../schemas/dashboard.js';
import { READS_TABLE } from '../access.js';
import { route, MANAGER_ONLY, type RouteDef } from './route.js';

/** The managers' dashboard. */
export const dashboardRoutes = {
  getDashboard: route({
    id: 'getDashboard',
    method: 'GET',
    path: '/dashboard',
    summary: 'Conteos de comprobantes por estado y por tipo',
    roles: MANAGER_ONLY,
    request: { query: DashboardQuery },
    response: DashboardCounts,
    uses: READS_TABLE,
    handler: 'dashboard/get-dashboard',
  }),
} as const satisfies Record<string, RouteDef>;

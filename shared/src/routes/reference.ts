import * as z from 'zod/mini';
import { Employee, EmployeesQuery, OfficeLocation, OfficeLocationsQuery } from '../schemas/reference.js';
import { READS_TABLE } from '../access.js';
import { route, STAFF, type RouteDef } from './route.js';

/** Reference data to complete an invoice. */
export const referenceRoutes = {
  listEmployees: route({
    id: 'listEmployees',
    method: 'GET',
    path: '/employees',
    summary: 'Empleados (responsables) de una sociedad',
    roles: STAFF,
    request: { query: EmployeesQuery },
    response: z.object({ items: z.array(Employee) }),
    uses: READS_TABLE,
    handler: 'reference/list-employees',
  }),
  listOfficeLocations: route({
    id: 'listOfficeLocations',
    method: 'GET',
    path: '/office-locations',
    summary: 'Sedes y oficinas de una sociedad',
    roles: STAFF,
    request: { query: OfficeLocationsQuery },
    response: z.object({ items: z.array(OfficeLocation) }),
    uses: READS_TABLE,
    handler: 'reference/list-office-locations',
  }),
} as const satisfies Record<string, RouteDef>;

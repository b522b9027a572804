import { listOf } from '../schemas/common.js';
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
    response: listOf(Employee),
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
    response: listOf(OfficeLocation),
    uses: READS_TABLE,
    handler: 'reference/list-office-locations',
  }),
} as const satisfies Record<string, RouteDef>;

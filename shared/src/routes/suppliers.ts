import { pageOf } from '../schemas/common.js';
import { SearchSuppliersQuery, SupplierProfile } from '../schemas/reference.js';
import { READS_TABLE } from '../access.js';
import { route, STAFF, type RouteDef } from './route.js';

/** The header's supplier search. */
export const supplierRoutes = {
  searchSuppliers: route({
    id: 'searchSuppliers',
    method: 'GET',
    path: '/suppliers',
    summary: 'Búsqueda de proveedores por RUC o razón social (cabecera)',
    roles: STAFF,
    // Spec §6: a manager without companies does not reach the app (its forbidden page); admins act for any.
    request: { query: SearchSuppliersQuery },
    response: pageOf(SupplierProfile),
    uses: READS_TABLE,
    handler: 'suppliers/search-suppliers',
  }),
} as const satisfies Record<string, RouteDef>;

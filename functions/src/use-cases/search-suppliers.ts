import { normalizeForSearch, type RouteQuery, type Routes, type SupplierProfile } from '@portal/shared';
import type { Page } from '../repositories/page.js';
import type { SupplierDirectoryRepository } from '../repositories/suppliers.js';

export type SearchSuppliersQuery = RouteQuery<Routes['searchSuppliers']>;

/** The header search (spec §2): digits look up a RUC prefix, anything else a business-name prefix. */
export function makeSearchSuppliers({ suppliers }: { suppliers: SupplierDirectoryRepository }) {
  return async (query: SearchSuppliersQuery): Promise<Page<SupplierProfile>> => {
    const page = { limit: query.limit, cursor: query.cursor };
    if (/^\d+$/.test(query.query)) return suppliers.listByRucPrefix(query.query, page);
    const name = normalizeForSearch(query.query);
    // Punctuation alone normalizes to nothing; it must not list the whole directory.
    if (!name) return { items: [], nextCursor: null };
    return suppliers.listByNamePrefix(name, page);
  };
}

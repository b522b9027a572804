import { searchTerms, type Employee, type OfficeLocation, type RouteQuery, type Routes } from '@portal/shared';
import type { Caller } from '../http/caller.js';
import type { ClientRepository } from '../repositories/clients.js';
import type { ReferenceDataRepository } from '../repositories/reference-data.js';
import { assertCompanyAccess } from './company-access.js';

export type EmployeesQuery = RouteQuery<Routes['listEmployees']>;
export type OfficeLocationsQuery = RouteQuery<Routes['listOfficeLocations']>;

export interface ReferenceDataDeps {
  readonly referenceData: ReferenceDataRepository;
  readonly clients: Pick<ClientRepository, 'get'>;
}

// What a reviewer chooses from when completing an invoice: the company's responsibles and offices.

/**
 * Active employees of the company; `q` narrows them to those with a word of the name starting with each
 * of its words ("gutié", "ana gut"), accents and case ignored.
 */
export async function listEmployees(
  deps: ReferenceDataDeps,
  caller: Caller,
  query: EmployeesQuery,
): Promise<{ items: Employee[] }> {
  const { referenceData, clients } = deps;
  await assertCompanyAccess(caller, query.acquirer, clients);
  // A q of only spaces or punctuation names nobody in particular: it lists everyone.
  const terms = searchTerms(query.q ?? '');
  const items =
    terms.length > 0
      ? await referenceData.listActiveEmployeesMatching(query.acquirer, terms)
      : await referenceData.listActiveEmployees(query.acquirer);
  return { items };
}

/** The company's office locations. */
export async function listOfficeLocations(
  deps: ReferenceDataDeps,
  caller: Caller,
  query: OfficeLocationsQuery,
): Promise<{ items: OfficeLocation[] }> {
  await assertCompanyAccess(caller, query.taxId, deps.clients);
  return { items: await deps.referenceData.listOfficeLocations(query.taxId) };
}

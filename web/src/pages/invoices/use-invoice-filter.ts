import { useCallback, useMemo } from 'react';
import { useQueryState } from '../../hooks/use-query-state';
import { resolveActiveCompany } from '../../session/active-company';
import type { Client, Level } from '@portal/shared';
import {
  EMPTY_FILTER,
  applyPatch,
  parseFilter,
  serializeFilter,
  type FilterPatch,
  type InvoiceFilterState,
} from './invoice-filter';
import type { InvoiceFilter } from './use-invoices';

export type FilterChange = FilterPatch | ((latest: InvoiceFilterState) => FilterPatch);

/**
 * The filter in the URL, with the changes a screen makes to it (each change replaces the history entry
 * and builds on the last one made: hooks/use-query-state.ts).
 */
export function useInvoiceFilter() {
  const { key, latest, replace } = useQueryState();
  // Parsed once per query string, so that the objects stay stable between renders.
  const filter = useMemo(() => parseFilter(new URLSearchParams(key)), [key]);

  /** A change, or a function of the latest filter for changes that depend on it (toggling one option). */
  const update = useCallback(
    (change: FilterChange) => {
      const current = parseFilter(latest());
      replace(serializeFilter(applyPatch(current, typeof change === 'function' ? change(current) : change)));
    },
    [latest, replace],
  );
  const clear = useCallback(
    (keep: FilterPatch = {}) => replace(serializeFilter(applyPatch(EMPTY_FILTER, keep))),
    [replace],
  );
  return { filter, update, clear };
}

/** What the screen asks GET /invoices for, once the filter is read against the user's reach. */
export interface ResolvedFilter {
  /** The company whose offices and responsibles the staff filters offer (undefined: none yet or all). */
  readonly company: string | undefined;
  /** The company the client select shows. */
  readonly selectedClient: string | undefined;
  /** The query, or null while the company an admin must name is still loading. */
  readonly query: InvoiceFilter | null;
  /** The acquirer typed is a company the manager may not open: it is left out of the query. */
  readonly acquirerNotAllowed: boolean;
  /** Which filters the level has on screen (and in the query). */
  readonly staff: boolean;
}

/**
 * Reads the filter of the URL for a level (docs/adr/0001-calls-and-headers.md, GET /invoices without client):
 * - a supplier lists what it issued, at every client or one; issuer, office and responsible are staff
 *   filters (the supplier is the issuer, and offices and employees are staff calls), so they are ignored;
 * - a manager lists its active company (the one the header menu switches); an admin the company it
 *   picked, the group's first until it picks one;
 * - `acquirer` is the API's other name for the client: when set it replaces the client (a manager only
 *   within its own companies, else it is ignored and the field says why).
 */
export function resolveFilter(
  level: Level | undefined,
  filter: InvoiceFilterState,
  context: { taxIds: readonly string[]; chosen: string | null; clients: readonly Client[] },
): ResolvedFilter {
  const staff = level === 'MANAGER' || level === 'ADMIN';
  const acquirerNotAllowed = level === 'MANAGER' && !!filter.acquirer && !context.taxIds.includes(filter.acquirer);
  const acquirer = acquirerNotAllowed ? undefined : filter.acquirer;

  let client: string | undefined;
  if (level === 'MANAGER') client = resolveActiveCompany(context.taxIds, context.chosen) ?? undefined;
  else if (level === 'ADMIN') client = filter.client ?? context.clients[0]?.taxId;
  else client = filter.client;

  const company = acquirer ?? client;
  const dueReversed = !!filter.dueFrom && !!filter.dueTo && filter.dueFrom > filter.dueTo;
  const waiting = level === undefined || (level === 'ADMIN' && company === undefined);
  const query: InvoiceFilter | null = waiting
    ? null
    : {
        ...(acquirer ? { acquirer } : client ? { client } : {}),
        ...(filter.invoiceStatus.length > 0 ? { invoiceStatus: filter.invoiceStatus.join(',') } : {}),
        ...(filter.invoiceType.length > 0 ? { invoiceType: filter.invoiceType.join(',') } : {}),
        ...(filter.search ? { search: filter.search } : {}),
        ...(filter.acquirerConformity ? { acquirerConformity: filter.acquirerConformity } : {}),
        ...(filter.observed ? { observed: 'true' as const } : {}),
        ...(staff && filter.office ? { office: filter.office } : {}),
        ...(staff && filter.responsible ? { responsible: filter.responsible } : {}),
        ...(staff && filter.issuer ? { issuer: filter.issuer } : {}),
        // A reversed range is not sent: the field says what is wrong.
        ...(filter.dueFrom && !dueReversed ? { dueFrom: filter.dueFrom } : {}),
        ...(filter.dueTo && !dueReversed ? { dueTo: filter.dueTo } : {}),
      };
  return { company, selectedClient: company, query, acquirerNotAllowed, staff };
}

import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keys, sumCounts, type InvoiceCount, type InvoiceSummary } from '@portal/shared';
import {
  QUERY_BUDGET,
  planInvoiceQuery,
  runInvoiceQuery,
  type InvoiceFilter,
  type InvoiceScope,
} from './invoice-queries.js';
import { runAcquirerConformityQuery } from './invoice-conformity-query.js';
import { runInvoiceSearch } from './invoice-search.js';
import type { Page, PageRequest } from './page.js';

/** Pages of 100 a count reads at most when no counter answers it (search, office, responsible, observed). */
export const COUNT_PAGES = 10;

export interface InvoiceRepository {
  /**
   * Invoices within a tenant scope that match the filter, newest received first (a search: exact matches
   * first). The page cost is bounded (invoice-queries.ts, invoice-search.ts): a page may come back shorter
   * than `limit`, even empty, with a nextCursor.
   */
  list(scope: InvoiceScope, filter: InvoiceFilter, page: PageRequest): Promise<Page<InvoiceSummary>>;
  /**
   * How many invoices the same listing holds: one read of the counters for company or supplier, client,
   * issuer, statuses and types; otherwise (a search, an office, a responsible, a due range) the listing is
   * walked up to COUNT_PAGES pages.
   */
  count(scope: InvoiceScope, filter: InvoiceFilter): Promise<InvoiceCount>;
}

export function makeInvoiceRepository(db: DynamoDBDocumentClient, table: string): InvoiceRepository {
  const list: InvoiceRepository['list'] = (scope, filter, page) =>
    filter.search !== undefined
      ? runInvoiceSearch(db, table, scope, filter, page, QUERY_BUDGET)
      : filter.acquirerConformity !== undefined
        ? runAcquirerConformityQuery(db, table, scope, filter, page, QUERY_BUDGET)
        : runInvoiceQuery(db, table, planInvoiceQuery(scope, filter), page);

  async function counters(owner: 'CLIENT' | 'SUPPLIER', taxId: string): Promise<Record<string, unknown>> {
    const result = await db.send(new GetCommand({ TableName: table, Key: keys.invoiceCounts(owner, taxId) }));
    return result.Item ?? {};
  }

  return {
    list,
    async count(scope, filter) {
      const lists = { statuses: filter.statuses ?? [], types: filter.types ?? [] };
      const dueRange = filter.dueFrom !== undefined || filter.dueTo !== undefined;
      if (
        filter.search === undefined &&
        !filter.responsible &&
        !filter.office &&
        !dueRange &&
        !filter.acquirerConformity &&
        !filter.observed
      ) {
        if (scope.kind === 'SUPPLIER') {
          const count = sumCounts(await counters('SUPPLIER', scope.supplierId), { ...lists, client: scope.client });
          return { count, exact: true };
        }
        if (filter.issuer) {
          const count = sumCounts(await counters('SUPPLIER', filter.issuer), { ...lists, client: scope.client });
          return { count, exact: true };
        }
        return { count: sumCounts(await counters('CLIENT', scope.client), lists), exact: true };
      }
      let count = 0;
      let cursor: string | undefined;
      for (let pages = 0; pages < COUNT_PAGES; pages++) {
        const page = await list(scope, filter, { limit: 100, cursor });
        count += page.items.length;
        if (page.nextCursor === null) return { count, exact: true };
        cursor = page.nextCursor;
      }
      return { count, exact: false };
    },
  };
}

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { InvoiceSummary } from '@portal/shared';
import { planInvoiceQuery, runInvoiceQuery, type InvoiceFilter, type InvoiceScope } from './invoice-queries.js';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
}

export interface InvoiceRepository {
  /**
   * Invoices within a tenant scope that match the filter, newest first (a search: in the order of the
   * searched key). The page cost is bounded (see invoice-queries.ts): a page may come back shorter than
   * `limit`, even empty, with a nextCursor.
   */
  list(scope: InvoiceScope, filter: InvoiceFilter, page: PageRequest): Promise<Page<InvoiceSummary>>;
}

export function makeInvoiceRepository(db: DynamoDBDocumentClient, table: string): InvoiceRepository {
  return {
    list: (scope, filter, page) => runInvoiceQuery(db, table, planInvoiceQuery(scope, filter), page),
  };
}

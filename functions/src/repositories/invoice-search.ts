import { createHash } from 'node:crypto';
import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  BadRequestError,
  InvoiceSummary,
  drivingTerm,
  isSearchHit,
  keys,
  searchTerms,
  TABLE,
  type InvoiceStatus,
  type InvoiceType,
} from '@portal/shared';
import { decodeMergedCursor, encodeMergedCursor } from './cursor.js';
import type { InvoiceFilter, InvoiceScope, QueryBudget } from './invoice-queries.js';
import { readInvoices } from './invoice-reads.js';
import { prefixRange } from './key-range.js';
import type { Page, PageRequest } from './page.js';

/**
 * The invoice search (spec §2 header and list search), through the search items written with every
 * invoice (shared/src/data/search.ts):
 * 1. the query's longest term picks one partition of the caller's scope (the company's in the table, or the
 *    supplier's in the supplier index, ADR 0045) and is read as a token prefix, in token order then newest
 *    received first: exact matches come first;
 * 2. each item is a hit once per invoice (its first matching token) and only if every other term starts
 *    one of the invoice's tokens — checked on the item itself;
 * 3. the hits' invoices are read (BatchGetItem), an item of an earlier submission is skipped, and the
 *    list's other filters are applied to them.
 * Cost per page: at most `queriesPerPartition` Query calls of `itemsPerQuery` items and as many invoice
 * reads, whatever the table holds; a page may be short, even empty, with a nextCursor.
 */

type RawItem = Record<string, unknown>;

/** What every search item's table key starts with (a position's third part, in a supplier's search). */
const SEARCH_KEY_PREFIX = 'SEARCH#';

/** The filters of the listing besides the search, applied to the invoices the search found. */
/** Marked "Observada": an observation with its time. */
const isObserved = (invoice: RawItem) => {
  const observation = invoice.observation as { since?: unknown } | null | undefined;
  return typeof observation?.since === 'string';
};

export function matchesFilter(invoice: RawItem, scope: InvoiceScope, filter: InvoiceFilter): boolean {
  if (scope.kind === 'SUPPLIER') {
    if (invoice.supplierId !== scope.supplierId) return false;
    if (scope.client && invoice.client !== scope.client) return false;
  } else {
    if (invoice.client !== scope.client) return false;
    if (filter.issuer && invoice.supplierId !== filter.issuer) return false;
  }
  const responsible = invoice.responsible as { id?: unknown } | null | undefined;
  if (filter.responsible && responsible?.id !== filter.responsible) return false;
  if (filter.office && invoice.officeId !== filter.office) return false;
  if (filter.statuses?.length && !filter.statuses.includes(invoice.status as InvoiceStatus)) return false;
  if (filter.types?.length && !filter.types.includes(invoice.type as InvoiceType)) return false;
  if (filter.dueFrom !== undefined || filter.dueTo !== undefined) {
    // As the due-date index holds them: an expected payment date within the range, not rejected.
    const expected = (invoice.payment as { expectedPaymentDate?: unknown } | null | undefined)?.expectedPaymentDate;
    if (typeof expected !== 'string' || invoice.status === 'REJECTED') return false;
    if ((filter.dueFrom && expected < filter.dueFrom) || (filter.dueTo && expected > filter.dueTo)) return false;
  }
  const conformity = invoice.acquirerConformity as { state?: unknown } | null | undefined;
  if (filter.acquirerConformity && conformity?.state !== filter.acquirerConformity) return false;
  if (filter.observed && !isObserved(invoice)) return false;
  return true;
}

export async function runInvoiceSearch(
  db: DynamoDBDocumentClient,
  table: string,
  scope: InvoiceScope,
  filter: InvoiceFilter,
  page: PageRequest,
  budget: QueryBudget,
): Promise<Page<InvoiceSummary>> {
  const terms = searchTerms(filter.search ?? '');
  const driving = drivingTerm(terms);
  // A search of only punctuation matches nothing rather than everything.
  if (driving === null) {
    if (page.cursor !== undefined) throw new BadRequestError('ERROR_INVALID_CURSOR');
    return { items: [], nextCursor: null };
  }
  const partition =
    scope.kind === 'SUPPLIER'
      ? keys.searchPartition('SUPPLIER', scope.supplierId, driving)
      : keys.searchPartition('CLIENT', scope.client, driving);
  const fingerprint = createHash('sha256')
    .update(JSON.stringify({ v: 2, partition, terms, scope, filter: { ...filter, search: undefined } }))
    .digest('base64url')
    .slice(0, 22);
  const [position] = decodeMergedCursor(fingerprint, 1, page.cursor) ?? [null];
  if (position === 'done') throw new BadRequestError('ERROR_INVALID_CURSOR');
  if (position && (position[0] !== partition || !position[1].startsWith(driving))) {
    throw new BadRequestError('ERROR_INVALID_CURSOR');
  }
  // A supplier's search reads its partition of the supplier index (ADR 0045), whose items lie in the company's
  // partitions or in the supplier's own: the position keeps the item's table key beside its index key.
  const bySupplier = scope.kind === 'SUPPLIER';
  if (position && bySupplier && !position[2].startsWith(SEARCH_KEY_PREFIX)) {
    throw new BadRequestError('ERROR_INVALID_CURSOR');
  }
  const index = TABLE.indexes.bySupplier;
  const startOf = (at: readonly [string, string, string]): RawItem =>
    bySupplier
      ? { [index.partitionKey]: at[0], [index.sortKey]: at[1], pk: at[2], sk: at[1] }
      : { pk: at[0], sk: at[1] };
  const positionOf = (item: RawItem): [string, string, string] =>
    bySupplier
      ? [partition, String(item[index.sortKey]), String(item.pk)]
      : [partition, String(item.sk), String(item.sk)];
  const tokensOf = (item: RawItem) => {
    const tokens = bySupplier ? item.supplierTokens : item.tokens;
    return Array.isArray(tokens) ? (tokens as string[]) : [];
  };

  const tokens = prefixRange(driving);
  const taken: InvoiceSummary[] = [];
  let startKey: RawItem | undefined = position ? startOf(position) : undefined;
  for (let queries = 0; queries < budget.queriesPerPartition; queries++) {
    const result = await db.send(
      new QueryCommand({
        TableName: table,
        ...(bySupplier ? { IndexName: index.name } : {}),
        // The keys starting with the driving term, as a key range (key-range.ts says why not begins_with).
        KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
        ExpressionAttributeNames: bySupplier
          ? { '#pk': index.partitionKey, '#sk': index.sortKey }
          : { '#pk': 'pk', '#sk': 'sk' },
        ExpressionAttributeValues: { ':pk': partition, ':from': tokens.from, ':to': tokens.to },
        Limit: budget.itemsPerQuery,
        ExclusiveStartKey: startKey,
      }),
    );
    const items = result.Items ?? [];
    const hits = new Set(items.filter((item) => isSearchHit(tokensOf(item), String(item.token), terms)));
    const invoices = await readInvoices(db, table, [...hits]);
    for (const item of items) {
      const invoice = hits.has(item)
        ? invoices.get(keys.invoice(String(item.supplierId), String(item.type), String(item.id)).pk)
        : undefined;
      // An item of an earlier submission of the same invoice (a replaced rejection) is not a hit.
      if (invoice && invoice.receivedAt === item.receivedAt && matchesFilter(invoice, scope, filter)) {
        taken.push(InvoiceSummary.parse(invoice));
        if (taken.length === page.limit) {
          const last = item === items.at(-1) && !result.LastEvaluatedKey;
          return {
            items: taken,
            nextCursor: last ? null : encodeMergedCursor(fingerprint, [positionOf(item)]),
          };
        }
      }
    }
    startKey = result.LastEvaluatedKey;
    if (!startKey) return { items: taken, nextCursor: null };
  }
  return { items: taken, nextCursor: encodeMergedCursor(fingerprint, [positionOf(startKey as RawItem)]) };
}

import { createHash } from 'node:crypto';
import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  BadRequestError,
  InvoiceSummary,
  drivingTerm,
  isSearchHit,
  keys,
  searchTerms,
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
 * 1. the query's longest term picks one partition of the caller's scope (the company, or the supplier)
 *    and is read as a token prefix, in token order then newest received first: exact matches come first;
 * 2. each item is a hit once per invoice (its first matching token) and only if every other term starts
 *    one of the invoice's tokens — checked on the item itself;
 * 3. the hits' invoices are read (BatchGetItem), an item of an earlier submission is skipped, and the
 *    list's other filters are applied to them.
 * Cost per page: at most `queriesPerPartition` Query calls of `itemsPerQuery` items and as many invoice
 * reads, whatever the table holds; a page may be short, even empty, with a nextCursor.
 */

type RawItem = Record<string, unknown>;

/** The filters of the listing besides the search, applied to the invoices the search found. */
/** Marked "Observada" (issue 23): an observation with its time. */
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

  const tokens = prefixRange(driving);
  const taken: InvoiceSummary[] = [];
  let startKey: RawItem | undefined = position ? { pk: position[0], sk: position[1] } : undefined;
  for (let queries = 0; queries < budget.queriesPerPartition; queries++) {
    const result = await db.send(
      new QueryCommand({
        TableName: table,
        // The keys starting with the driving term, as a key range (key-range.ts says why not begins_with).
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': partition, ':from': tokens.from, ':to': tokens.to },
        Limit: budget.itemsPerQuery,
        ExclusiveStartKey: startKey,
      }),
    );
    const items = result.Items ?? [];
    const hits = new Set(
      items.filter((item) =>
        isSearchHit(Array.isArray(item.tokens) ? (item.tokens as string[]) : [], String(item.token), terms),
      ),
    );
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
            nextCursor: last ? null : encodeMergedCursor(fingerprint, [[partition, String(item.sk), String(item.sk)]]),
          };
        }
      }
    }
    startKey = result.LastEvaluatedKey;
    if (!startKey) return { items: taken, nextCursor: null };
  }
  const resume = startKey as { pk: string; sk: string };
  return { items: taken, nextCursor: encodeMergedCursor(fingerprint, [[resume.pk, resume.sk, resume.sk]]) };
}

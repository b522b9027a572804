import { createHash } from 'node:crypto';
import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { BadRequestError, InvoiceSummary, TABLE, keys, type IndexName } from '@portal/shared';
import { decodeMergedCursor, encodeMergedCursor } from './cursor.js';
import type { InvoiceFilter, InvoiceScope, QueryBudget } from './invoice-queries.js';
import { readInvoices } from './invoice-reads.js';
import { matchesFilter } from './invoice-search.js';
import type { Page, PageRequest } from './page.js';

type RawItem = Record<string, unknown>;

/**
 * The list's Ley 29623 filter (GET /invoices?acquirerConformity=STATE), through the clock records
 * (acquirer-conformity-clocks.ts), never a filter over the invoices' partitions:
 * 1. the records of the scope in that state, one index partition — the company's (byClientSupplier) or the
 *    supplier's (bySupplierStatus) — by deadline: soonest first while running (OPEN), latest first once ended;
 * 2. their invoices (BatchGetItem), to which the list's other filters apply.
 * Cost per page: at most `queriesPerPartition` Query calls of `itemsPerQuery` records and as many invoice reads; a
 * page may be short, even empty, with a nextCursor.
 */
export async function runAcquirerConformityQuery(
  db: DynamoDBDocumentClient,
  table: string,
  scope: InvoiceScope,
  filter: InvoiceFilter,
  page: PageRequest,
  budget: QueryBudget,
): Promise<Page<InvoiceSummary>> {
  const state = filter.acquirerConformity;
  if (state === undefined) throw new Error('runAcquirerConformityQuery needs filter.acquirerConformity');
  const [indexName, partition]: [IndexName, string] =
    scope.kind === 'SUPPLIER'
      ? ['bySupplierStatus', keys.acquirerConformityOfSupplier(scope.supplierId, state)]
      : ['byClientSupplier', keys.acquirerConformityOfClient(scope.client, state)];
  const index = TABLE.indexes[indexName];
  const fingerprint = createHash('sha256')
    .update(JSON.stringify({ v: 1, indexName, partition, scope, filter }))
    .digest('base64url')
    .slice(0, 22);
  const [position] = decodeMergedCursor(fingerprint, 1, page.cursor) ?? [null];
  if (position === 'done') throw new BadRequestError('ERROR_INVALID_CURSOR');
  // A position names a clock record of this partition: `{deadline}#{record pk}` in the index, CLOCK as sort key.
  if (
    position &&
    (!position[0].startsWith('ACQ_CONFORMITY#') ||
      position[1] !== 'CLOCK' ||
      !/^\d{4}-\d{2}-\d{2}#/.test(position[2]) ||
      !position[2].endsWith(`#${position[0]}`))
  ) {
    throw new BadRequestError('ERROR_INVALID_CURSOR');
  }
  const positionOf = (item: RawItem): [string, string, string] => [
    String(item[TABLE.partitionKey]),
    String(item[TABLE.sortKey]),
    String(item[index.sortKey]),
  ];

  const taken: InvoiceSummary[] = [];
  let startKey: RawItem | undefined = position
    ? {
        [TABLE.partitionKey]: position[0],
        [TABLE.sortKey]: position[1],
        [index.partitionKey]: partition,
        [index.sortKey]: position[2],
      }
    : undefined;
  for (let queries = 0; queries < budget.queriesPerPartition; queries++) {
    const result = await db.send(
      new QueryCommand({
        TableName: table,
        IndexName: index.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': index.partitionKey },
        ExpressionAttributeValues: { ':pk': partition },
        ScanIndexForward: state === 'OPEN',
        Limit: budget.itemsPerQuery,
        ExclusiveStartKey: startKey,
      }),
    );
    const records = result.Items ?? [];
    const invoices = await readInvoices(
      db,
      table,
      records.map((record) => ({ supplierId: record.supplierId, type: record.invoiceType, id: record.invoiceId })),
    );
    for (const record of records) {
      const invoice = invoices.get(
        keys.invoice(String(record.supplierId), String(record.invoiceType), String(record.invoiceId)).pk,
      );
      if (!invoice || !matchesFilter(invoice, scope, filter)) continue;
      taken.push(InvoiceSummary.parse(invoice));
      if (taken.length === page.limit) {
        const last = record === records.at(-1) && !result.LastEvaluatedKey;
        return { items: taken, nextCursor: last ? null : encodeMergedCursor(fingerprint, [positionOf(record)]) };
      }
    }
    startKey = result.LastEvaluatedKey;
    if (!startKey) return { items: taken, nextCursor: null };
  }
  return { items: taken, nextCursor: encodeMergedCursor(fingerprint, [positionOf(startKey!)]) };
}

import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { TABLE, type IndexName } from '@portal/shared';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { Page, PageRequest } from './page.js';

export interface IndexPageQuery<T> {
  readonly index: IndexName;
  readonly partition: string;
  /** Restricts the index sort key to a prefix (a name or RUC search). */
  readonly sortKeyPrefix?: string;
  /** One attribute that must equal a value: narrows a partition, never finds one item. */
  readonly filter?: { readonly attribute: string; readonly value: string };
  readonly descending: boolean;
  readonly parse: (item: Record<string, unknown>) => T;
}

/** With a filter a Query may evaluate items it does not return; this bounds the reads spent filling one page. */
const MAX_QUERIES_PER_PAGE = 10;

/**
 * One page of one index partition, with an opaque cursor valid only for the same index, partition,
 * prefix and filter. Each Query evaluates at most what is still missing from the page, so a filtered
 * page is filled without ever overshooting its limit, and the cursor resumes exactly after it.
 */
export async function queryIndexPage<T>(
  db: DynamoDBDocumentClient,
  table: string,
  query: IndexPageQuery<T>,
  page: PageRequest,
): Promise<Page<T>> {
  const def = TABLE.indexes[query.index];
  const scope = [def.name, query.partition, query.sortKeyPrefix ?? '', query.filter?.value ?? ''].join(':');
  let startKey: Record<string, unknown> | undefined = decodeCursor(scope, page.cursor, [
    TABLE.partitionKey,
    TABLE.sortKey,
    def.partitionKey,
    def.sortKey,
  ]);
  const names: Record<string, string> = { '#pk': def.partitionKey };
  const values: Record<string, unknown> = { ':pk': query.partition };
  let keyCondition = '#pk = :pk';
  if (query.sortKeyPrefix !== undefined) {
    names['#sk'] = def.sortKey;
    values[':prefix'] = query.sortKeyPrefix;
    keyCondition += ' AND begins_with(#sk, :prefix)';
  }
  if (query.filter) {
    names['#filter'] = query.filter.attribute;
    values[':filter'] = query.filter.value;
  }

  const items: T[] = [];
  let queries = 0;
  do {
    const result = await db.send(
      new QueryCommand({
        TableName: table,
        IndexName: def.name,
        KeyConditionExpression: keyCondition,
        FilterExpression: query.filter ? '#filter = :filter' : undefined,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ScanIndexForward: !query.descending,
        Limit: page.limit - items.length,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(result.Items ?? []).map(query.parse));
    startKey = result.LastEvaluatedKey;
    queries += 1;
  } while (startKey && items.length < page.limit && queries < MAX_QUERIES_PER_PAGE);

  return { items, nextCursor: encodeCursor(scope, startKey as Record<string, string> | undefined) };
}

/**
 * Every item a Query finds, page after page, each through `parse`; it stops early once `enough` says the items
 * read so far suffice (a bound on what a caller keeps).
 */
export async function queryAll<T>(
  db: DynamoDBDocumentClient,
  input: Omit<QueryCommandInput, 'ExclusiveStartKey'>,
  parse: (item: Record<string, unknown>) => T,
  enough: (items: readonly T[]) => boolean = () => false,
): Promise<T[]> {
  const items: T[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    for (const item of page.Items ?? []) items.push(parse(item));
    startKey = page.LastEvaluatedKey;
  } while (startKey && !enough(items));
  return items;
}

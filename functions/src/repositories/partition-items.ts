import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TABLE } from '@portal/shared';

/**
 * What to read of one partition: its items (those whose sort key starts with `prefix`, when given), optionally
 * filtered or projected; strongly consistent unless `consistent` is false.
 */
export interface PrefixQuery {
  readonly pk: string;
  readonly prefix?: string;
  readonly consistent?: boolean;
  readonly projection?: string;
  readonly filter?: string;
  readonly names?: Readonly<Record<string, string>>;
  readonly values?: Readonly<Record<string, unknown>>;
}

/** Every item of the query, page after page (a job's own results, an owner's jobs, a note's links). */
export async function eachItemWithPrefix(
  db: Pick<DynamoDBDocumentClient, 'send'>,
  table: string,
  query: PrefixQuery,
  visit: (item: Record<string, unknown>) => void,
): Promise<void> {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: query.prefix === undefined ? 'pk = :pk' : 'pk = :pk AND begins_with(sk, :prefix)',
        ...(query.filter ? { FilterExpression: query.filter } : {}),
        ...(query.names ? { ExpressionAttributeNames: query.names } : {}),
        ExpressionAttributeValues: {
          ':pk': query.pk,
          ...(query.prefix === undefined ? {} : { ':prefix': query.prefix }),
          ...query.values,
        },
        ...(query.projection ? { ProjectionExpression: query.projection } : {}),
        ...(query.consistent === false ? {} : { ConsistentRead: true }),
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) visit(item);
    start = page.LastEvaluatedKey;
  } while (start);
}

/**
 * The first `limit` items of one byClient partition sorted before `before` (a due list: MIRO#DUE, JOB#LEASE, an
 * outgoing queue's), soonest first.
 */
export async function dueBefore(
  db: Pick<DynamoDBDocumentClient, 'send'>,
  table: string,
  partition: string,
  before: string,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const index = TABLE.indexes.byClient;
  const page = await db.send(
    new QueryCommand({
      TableName: table,
      IndexName: index.name,
      KeyConditionExpression: '#pk = :pk AND #sk < :before',
      ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey },
      ExpressionAttributeValues: { ':pk': partition, ':before': before },
      Limit: limit,
    }),
  );
  return page.Items ?? [];
}

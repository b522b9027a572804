import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** What to read of one partition: its items whose sort key starts with `prefix`, optionally filtered or projected. */
export interface PrefixQuery {
  readonly pk: string;
  readonly prefix: string;
  readonly projection?: string;
  readonly filter?: string;
  readonly names?: Readonly<Record<string, string>>;
  readonly values?: Readonly<Record<string, unknown>>;
}

/** Every item of the query, page after page, strongly consistent (a job's own results, an owner's jobs). */
export async function eachItemWithPrefix(
  db: DynamoDBDocumentClient,
  table: string,
  query: PrefixQuery,
  visit: (item: Record<string, unknown>) => void,
): Promise<void> {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ...(query.filter ? { FilterExpression: query.filter } : {}),
        ...(query.names ? { ExpressionAttributeNames: query.names } : {}),
        ExpressionAttributeValues: { ':pk': query.pk, ':prefix': query.prefix, ...query.values },
        ...(query.projection ? { ProjectionExpression: query.projection } : {}),
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) visit(item);
    start = page.LastEvaluatedKey;
  } while (start);
}

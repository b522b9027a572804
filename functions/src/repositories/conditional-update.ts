import { PutCommand, UpdateCommand, type DynamoDBDocumentClient, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';

export const isConditionFailure = (error: unknown) => (error as Error).name === 'ConditionalCheckFailedException';

/** An UpdateItem under its ConditionExpression: false when the condition did not hold (nothing written). */
export async function updateIfHolds(
  db: Pick<DynamoDBDocumentClient, 'send'>,
  table: string,
  input: Omit<UpdateCommandInput, 'TableName'>,
): Promise<boolean> {
  try {
    await db.send(new UpdateCommand({ TableName: table, ...input }));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * An UpdateItem of an item that must exist, under an optional further condition: false when the condition did not
 * hold (nothing written). `names` maps the placeholders of reserved words to their attributes; only those the
 * expressions use are sent, as DynamoDB refuses unused ones.
 */
export function makeConditionalUpdate(
  db: DynamoDBDocumentClient,
  table: string,
  names: Readonly<Record<string, string>>,
) {
  return async function update(
    key: Record<string, unknown>,
    expression: string,
    values: Record<string, unknown>,
    condition?: string,
  ): Promise<boolean> {
    return updateIfHolds(db, table, {
      Key: key,
      UpdateExpression: expression,
      ConditionExpression: condition ? `attribute_exists(pk) AND ${condition}` : 'attribute_exists(pk)',
      ExpressionAttributeNames: Object.fromEntries(
        Object.entries(names).filter(([name]) => `${expression} ${condition ?? ''}`.includes(name)),
      ),
      ExpressionAttributeValues: values,
    });
  };
}

/** A Put only where no item is yet: false when one was there (nothing written). */
export async function putIfAbsent(
  db: DynamoDBDocumentClient,
  table: string,
  item: Record<string, unknown>,
): Promise<boolean> {
  try {
    await db.send(new PutCommand({ TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

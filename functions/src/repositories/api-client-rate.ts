import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TABLE, keys } from '@portal/shared';

/** How long a window's counter stays after the window (TTL deletes it; DynamoDB may take a while). */
const KEEP_SECONDS = 3600;

/**
 * Counts one call of an API client in its window and answers how many it has made there, this one included.
 * One UpdateItem (ADD is atomic: two calls at once both count).
 */
export function makeApiClientRateCounter(db: Pick<DynamoDBDocumentClient, 'send'>, table: string) {
  return async (clientId: string, windowStart: Date): Promise<number> => {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: table,
        Key: keys.apiClientRate(clientId, windowStart.toISOString()),
        UpdateExpression: 'ADD #calls :one SET #ttl = if_not_exists(#ttl, :ttl)',
        ExpressionAttributeNames: { '#calls': 'calls', '#ttl': TABLE.ttlAttribute },
        ExpressionAttributeValues: { ':one': 1, ':ttl': Math.floor(windowStart.getTime() / 1000) + KEEP_SECONDS },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(Attributes?.calls ?? 1);
  };
}

import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keys } from '@portal/shared';

/** A consistent read of a fixed key: proves the table is reachable with the function's grants. */
export function makeHealthProbe(db: DynamoDBDocumentClient, table: string) {
  return async (): Promise<void> => {
    await db.send(new GetCommand({ TableName: table, Key: keys.health, ConsistentRead: true }));
  };
}

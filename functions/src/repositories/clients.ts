import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Client, keys } from '@portal/shared';

export interface ClientRepository {
  listAll(): Promise<Client[]>;
  get(taxId: string): Promise<Client | null>;
}

export function makeClientRepository(db: DynamoDBDocumentClient, table: string): ClientRepository {
  return {
    async listAll() {
      // The group's companies are a handful of items in one partition; paginate defensively all the same.
      const clients: Client[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await db.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            ExpressionAttributeValues: { ':pk': keys.clients.pk, ':prefix': keys.clients.skPrefix },
            ExclusiveStartKey: startKey,
          }),
        );
        clients.push(...(page.Items ?? []).map((item) => Client.parse(item)));
        startKey = page.LastEvaluatedKey;
      } while (startKey);
      return clients;
    },
    async get(taxId) {
      const result = await db.send(new GetCommand({ TableName: table, Key: keys.client(taxId) }));
      return result.Item ? Client.parse(result.Item) : null;
    },
  };
}

import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { queryAll } from './query-page.js';
import { Client, keys } from '@portal/shared';

export interface ClientRepository {
  listAll(): Promise<Client[]>;
  get(taxId: string): Promise<Client | null>;
}

/**
 * How long a function instance keeps a company it read. The group's companies are provisioned, not edited by the
 * portal, and nearly every call checks one (the tenant rule): keeping them spares a read per call. A company
 * that is not found is read again each time, so a new one is seen at once.
 */
export const CLIENT_CACHE_MS = 5 * 60_000;

export function makeClientRepository(
  db: DynamoDBDocumentClient,
  table: string,
  options: { cacheMs?: number; now?: () => number } = {},
): ClientRepository {
  const cacheMs = options.cacheMs ?? CLIENT_CACHE_MS;
  const now = options.now ?? Date.now;
  const known = new Map<string, { client: Client; until: number }>();
  return {
    async listAll() {
      // The group's companies are a handful of items in one partition; paginate defensively all the same.
      return queryAll(
        db,
        {
          TableName: table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': keys.clients.pk, ':prefix': keys.clients.skPrefix },
        },
        (item) => Client.parse(item),
      );
    },
    async get(taxId) {
      const cached = known.get(taxId);
      if (cached && cached.until > now()) return cached.client;
      const result = await db.send(new GetCommand({ TableName: table, Key: keys.client(taxId) }));
      if (!result.Item) return null;
      const client = Client.parse(result.Item);
      known.set(taxId, { client, until: now() + cacheMs });
      return client;
    },
  };
}

import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ApiClient, keys, type AuditEvent } from '@portal/shared';
import * as z from 'zod/mini';
import { auditItem } from './audit-log.js';
import { disabledUsersUpdate } from './disabled-users.js';
import { Transaction } from './transaction.js';
import { eachItemWithPrefix } from './partition-items.js';

/** What the table keeps of an API client: never its secret (Cognito keeps it). */
export const StoredApiClient = z.omit(ApiClient, { supplierName: true });
export type StoredApiClient = z.infer<typeof StoredApiClient>;

const parse = (item: Record<string, unknown>): StoredApiClient => StoredApiClient.parse(item);

export interface ApiClientRepository {
  get(clientId: string): Promise<StoredApiClient | null>;
  /** Every API client, active and revoked (one partition, a few hundred at most). */
  list(): Promise<StoredApiClient[]>;
  /** The client and its audit event, in one transaction. */
  create(client: StoredApiClient, audit: AuditEvent): Promise<void>;
  /**
   * Marks it revoked, adds its id to the refused accounts (the wrapper then refuses its tokens still valid) and
   * writes the audit event, in one transaction; false when it was revoked meanwhile.
   */
  revoke(client: StoredApiClient, audit: AuditEvent): Promise<boolean>;
}

export function makeApiClientRepository(db: Pick<DynamoDBDocumentClient, 'send'>, table: string): ApiClientRepository {
  return {
    async get(clientId) {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.apiClient(clientId) }));
      return Item ? parse(Item) : null;
    },
    async list() {
      const items: StoredApiClient[] = [];
      await eachItemWithPrefix(db, table, { pk: keys.apiClients, consistent: false }, (item) =>
        items.push(parse(item)),
      );
      return items;
    },
    async create(client, audit) {
      await new Transaction(table)
        .put({
          Item: { ...keys.apiClient(client.clientId), ...client },
          ConditionExpression: 'attribute_not_exists(pk)',
        })
        .put({ Item: auditItem(audit), ConditionExpression: 'attribute_not_exists(pk)' })
        .send(db, (refused) => refused.error);
    },
    async revoke(client, audit) {
      const refused = await new Transaction(table)
        .put({
          Item: { ...keys.apiClient(client.clientId), ...client },
          ConditionExpression: 'attribute_exists(pk) AND revokedAt = :null',
          ExpressionAttributeValues: { ':null': null },
        })
        .add([disabledUsersUpdate(table, client.clientId, true)])
        .put({ Item: auditItem(audit), ConditionExpression: 'attribute_not_exists(pk)' })
        .trySend(db);
      return refused === null;
    },
  };
}

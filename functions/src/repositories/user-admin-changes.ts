import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keys } from '@portal/shared';
import type { AccountChange } from '../use-cases/user-admin-ports.js';
import { accountItem } from './account-index.js';
import { auditItem } from './audit-log.js';
import { disabledUsersUpdate } from './disabled-users.js';
import type { TransactItem } from './transaction.js';

/** DynamoDB's limit of items per transaction. */
const MAX_TRANSACTION_ITEMS = 100;

/**
 * Writes what an administration change leaves in DynamoDB once Cognito accepted it: account-index puts
 * and removals, the list of disabled accounts, and the audit event, in one TransactWriteItems. An account with more RUCs than fit
 * in one transaction is written in several, the audit event with the last, so that it records a change
 * that is complete.
 */
export function makeUserAdminChanges(db: DynamoDBDocumentClient, table: string) {
  return {
    async commit(change: AccountChange): Promise<void> {
      // A transaction may not touch one item twice: an item put is not also removed.
      const written = new Set(change.put.map(({ taxId, entry }) => `${taxId}#${entry.userId}`));
      const removed = new Map(
        change.remove
          .filter(({ taxId, userId }) => !written.has(`${taxId}#${userId}`))
          .map((item) => [`${item.taxId}#${item.userId}`, item]),
      );
      const items: TransactItem[] = [
        ...change.put.map(({ taxId, entry }) => ({ Put: { TableName: table, Item: accountItem(taxId, entry) } })),
        ...[...removed.values()].map(({ taxId, userId }) => ({
          Delete: { TableName: table, Key: keys.recipient(taxId, userId) },
        })),
      ];
      // Beside the audit event, in the last transaction: the refusal starts with the change it records.
      if (change.access) items.push(disabledUsersUpdate(table, change.access.userId, change.access.disabled));
      if (change.audit) {
        items.push({
          Put: {
            TableName: table,
            Item: auditItem(change.audit),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        });
      }
      for (let i = 0; i < items.length; i += MAX_TRANSACTION_ITEMS) {
        await db.send(new TransactWriteCommand({ TransactItems: items.slice(i, i + MAX_TRANSACTION_ITEMS) }));
      }
    },
  };
}

export type UserAdminChanges = ReturnType<typeof makeUserAdminChanges>;

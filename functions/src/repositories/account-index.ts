import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { queryAll } from './query-page.js';
import { keys } from '@portal/shared';

export interface Recipient {
  readonly userId: string;
  readonly email: string;
  readonly canReceiveEmails: boolean;
}

/**
 * The accounts of each RUC (`RECIPIENTS#{taxId}` / `USER#{userId}`): what the notifications worker
 * e-mails, and how the administration finds the accounts of a supplier. Written only by the user
 * administration, in the transaction of each change (user-admin-changes.ts).
 */
export interface AccountIndexRepository {
  accountsOf(taxId: string): Promise<Recipient[]>;
}

export function makeAccountIndexRepository(db: DynamoDBDocumentClient, table: string): AccountIndexRepository {
  return {
    async accountsOf(taxId) {
      return queryAll(
        db,
        {
          TableName: table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.recipients(taxId) },
        },
        (item): Recipient => ({
          userId: String(item.userId),
          email: String(item.email),
          canReceiveEmails: item.canReceiveEmails === true,
        }),
      );
    },
  };
}

/** The item of one account in a RUC's index. */
export function accountItem(taxId: string, account: Recipient): Record<string, unknown> {
  return { ...keys.recipient(taxId, account.userId), taxId, ...account };
}

import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keys, type Invoice } from '@portal/shared';

/**
 * Which invoices use an uploaded object. The items are written in the invoice's own transaction
 * (intake and completion put `useItems` with their change) and never removed: a file an invoice once
 * named is kept for its retention period, so a later refusal of the same key must not delete it.
 */
export interface UploadUses {
  /** Whether any invoice names the object (read strongly consistent). */
  inUse(objectKey: string): Promise<boolean>;
}

/** The items that record that the invoice uses each object, to put in the invoice's transaction. */
export function uploadUseItems(
  objectKeys: readonly (string | null)[],
  invoice: Pick<Invoice, 'supplierId' | 'type' | 'id'>,
  at: Date,
): Record<string, unknown>[] {
  const invoiceKey = keys.invoice(invoice.supplierId, invoice.type, invoice.id).pk;
  const named = objectKeys.filter((key): key is string => typeof key === 'string' && key.length > 0);
  return [...new Set(named)].map((objectKey) => ({
    ...keys.uploadUse(objectKey, invoiceKey),
    objectKey,
    invoiceKey,
    usedAt: at.toISOString(),
  }));
}

export function makeUploadUses(db: DynamoDBDocumentClient, table: string): UploadUses {
  return {
    async inUse(objectKey) {
      const result = await db.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.uploadUses(objectKey) },
          ConsistentRead: true,
          Limit: 1,
        }),
      );
      return (result.Items?.length ?? 0) > 0;
    },
  };
}

import { BatchGetCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { INVOICE_TYPES, keys } from '@portal/shared';

/** Where the sync remembers how far it read SAP's payment runs. */
export const PAYMENT_SYNC_CURSOR = { pk: 'SYNC#SAP_PAYMENT_RUNS', sk: 'CURSOR' } as const;

/** The cursor item and the invoice lookup of the payment sync. */
export function makePaymentSyncRepository(db: DynamoDBDocumentClient, table: string) {
  return {
    async cursor(): Promise<string | null> {
      const result = await db.send(
        new GetCommand({ TableName: table, Key: PAYMENT_SYNC_CURSOR, ConsistentRead: true }),
      );
      return typeof result.Item?.since === 'string' ? result.Item.since : null;
    },
    async saveCursor(since: string, at: string): Promise<void> {
      await db.send(new PutCommand({ TableName: table, Item: { ...PAYMENT_SYNC_CURSOR, since, syncedAt: at } }));
    },
    /** The types under which a supplier holds an invoice of this series-number: one read of its keys under every type. */
    async invoiceTypes(supplierId: string, invoiceId: string): Promise<string[]> {
      let pending: Record<string, unknown>[] = INVOICE_TYPES.map((type) => keys.invoice(supplierId, type, invoiceId));
      const types = new Set<string>();
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
        const result = await db.send(
          new BatchGetCommand({
            RequestItems: {
              [table]: { Keys: pending, ProjectionExpression: '#type', ExpressionAttributeNames: { '#type': 'type' } },
            },
          }),
        );
        for (const item of result.Responses?.[table] ?? []) types.add(String(item.type));
        pending = result.UnprocessedKeys?.[table]?.Keys ?? [];
        if (attempt >= 5 && pending.length > 0) throw new Error('DynamoDB left keys unprocessed');
      }
      return [...types].sort();
    },
  };
}
export type PaymentSyncRepository = ReturnType<typeof makePaymentSyncRepository>;

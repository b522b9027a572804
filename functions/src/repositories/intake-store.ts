import { TransactionCanceledException, type TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConflictError, dashboardDelta, keys, type Invoice } from '@portal/shared';
import { dashboardCounterUpdates } from './dashboard-counters.js';

/** An invoice already stored under the same key: what the duplicate rule needs to know. */
export interface ExistingInvoice {
  readonly status: Invoice['status'];
  readonly disapprovedWithoutRejection: boolean;
  readonly version: number;
  readonly operationType: Invoice['operationType'];
  readonly client: string;
  readonly issuedAt: string;
}

export function makeIntakeStore(db: DynamoDBDocumentClient, table: string) {
  return {
    async existing(supplierId: string, type: string, invoiceId: string): Promise<ExistingInvoice | null> {
      const result = await db.send(
        new GetCommand({ TableName: table, Key: keys.invoice(supplierId, type, invoiceId), ConsistentRead: true }),
      );
      if (!result.Item) return null;
      const item = result.Item;
      return {
        status: item.status as Invoice['status'],
        disapprovedWithoutRejection: item.disapprovedWithoutRejection === true,
        version: Number(item.version ?? 0),
        operationType: (item.operationType ?? null) as Invoice['operationType'],
        client: String(item.client),
        issuedAt: String(item.issuedAt),
      };
    },

    /**
     * Stores a new invoice — or one that replaces a rejection the supplier may retry — with its
     * dashboard counters and the supplier's directory profile, in one transaction. Two submissions of
     * the same document at the same moment: one is stored, the other gets ERROR_INVOICE_ALREADY_EXISTS.
     */
    async create(
      invoice: Invoice,
      replacing: ExistingInvoice | null,
      alsoPut: readonly Record<string, unknown>[] = [],
    ): Promise<void> {
      const key = keys.invoice(invoice.supplierId, invoice.type, invoice.id);
      const profile = {
        ...keys.supplierIndexes({ taxId: invoice.supplierId, name: invoice.supplierName }),
        taxId: invoice.supplierId,
        name: invoice.supplierName,
      };
      const items: TransactWriteItem[] = [
        {
          Put: {
            TableName: table,
            Item: { ...key, ...keys.invoiceIndexes(invoice), ...invoice, version: (replacing?.version ?? 0) + 1 },
            ...(replacing
              ? {
                  ConditionExpression:
                    '#version = :version AND #status = :rejected AND disapprovedWithoutRejection = :yes',
                  ExpressionAttributeNames: { '#version': 'version', '#status': 'status' },
                  ExpressionAttributeValues: { ':version': replacing.version, ':rejected': 'REJECTED', ':yes': true },
                }
              : { ConditionExpression: 'attribute_not_exists(pk)' }),
          },
        } as unknown as TransactWriteItem,
        // The directory keeps the first name a supplier was known by (the seed's or its first document's).
        {
          Update: {
            TableName: table,
            Key: keys.supplier(invoice.supplierId),
            UpdateExpression: `SET ${Object.keys(profile)
              .map((name, i) => `#p${i} = if_not_exists(#p${i}, :p${i})`)
              .join(', ')}`,
            ExpressionAttributeNames: Object.fromEntries(Object.keys(profile).map((name, i) => [`#p${i}`, name])),
            ExpressionAttributeValues: Object.fromEntries(Object.values(profile).map((value, i) => [`:p${i}`, value])),
          },
        } as unknown as TransactWriteItem,
      ];
      for (const item of alsoPut) items.push({ Put: { TableName: table, Item: item } } as unknown as TransactWriteItem);
      // The replaced rejection leaves its company's counters; the new invoice enters its own.
      items.push(
        ...dashboardCounterUpdates(table, [
          ...(replacing
            ? [{ client: replacing.client, issuedAt: replacing.issuedAt, delta: dashboardDelta(replacing, null) }]
            : []),
          { client: invoice.client, issuedAt: invoice.issuedAt, delta: dashboardDelta(null, invoice) },
        ]),
      );
      try {
        await db.send(new TransactWriteCommand({ TransactItems: items as never }));
      } catch (error) {
        if (error instanceof TransactionCanceledException) throw new ConflictError('ERROR_INVOICE_ALREADY_EXISTS');
        throw error;
      }
    },
  };
}

export type IntakeStore = ReturnType<typeof makeIntakeStore>;

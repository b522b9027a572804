import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  PutCommand,
  ScanCommand,
  TransactWriteCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { keys, type InvoiceIndexSource } from '@portal/shared';

const INVOICE_LISTS_MIGRATION = keys.invoiceListsMigration;

export interface MigrationState {
  /** Where the next page of the pass starts (the Scan's key); null: from the beginning. */
  readonly startKey: Record<string, unknown> | null;
  readonly migrated: number;
  /** When the pass ended: every invoice stored before it has its list entries. */
  readonly doneAt: string | null;
}

export type StoredInvoiceItem = Record<string, unknown> & { pk: string; sk: string; version?: number };

const LEGACY = keys.legacyInvoiceIndexAttributes;

/**
 * The table side of the migration job (functions/src/jobs/invoice-list-migration.ts): its state item, a page of the
 * pass over the table (invoice items only), and the migration of one invoice.
 */
export function makeInvoiceListMigrationRepository(db: DynamoDBDocumentClient, table: string) {
  return {
    async state(): Promise<MigrationState> {
      const result = await db.send(
        new GetCommand({ TableName: table, Key: INVOICE_LISTS_MIGRATION, ConsistentRead: true }),
      );
      const item = result.Item;
      return {
        startKey: (item?.startKey as Record<string, unknown> | undefined) ?? null,
        migrated: Number(item?.migrated ?? 0),
        doneAt: typeof item?.doneAt === 'string' ? item.doneAt : null,
      };
    },

    async saveState(state: MigrationState): Promise<void> {
      await db.send(
        new PutCommand({
          TableName: table,
          Item: { ...INVOICE_LISTS_MIGRATION, ...state, startKey: state.startKey ?? null },
        }),
      );
    },

    /** One page of the pass: the invoice items among up to `limit` items read, and where the next page starts. */
    async page(
      startKey: Record<string, unknown> | null,
      limit: number,
    ): Promise<{ invoices: StoredInvoiceItem[]; next: Record<string, unknown> | null }> {
      const result = await db.send(
        new ScanCommand({
          TableName: table,
          FilterExpression: 'sk = :invoice AND begins_with(pk, :prefix)',
          ExpressionAttributeValues: { ':invoice': 'INVOICE', ':prefix': 'INVOICE#' },
          Limit: limit,
          ConsistentRead: true,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      return { invoices: (result.Items ?? []) as StoredInvoiceItem[], next: result.LastEvaluatedKey ?? null };
    },

    async reread(invoice: { pk: string; sk: string }): Promise<StoredInvoiceItem | null> {
      const result = await db.send(
        new GetCommand({ TableName: table, Key: { pk: invoice.pk, sk: invoice.sk }, ConsistentRead: true }),
      );
      return (result.Item as StoredInvoiceItem | undefined) ?? null;
    },

    /**
     * Writes the invoice's list entries as it stands and removes the index attributes it carried before them, in one
     * transaction conditioned on the version read (the invoice's content and version do not change). False when the
     * invoice moved meanwhile: read it again and retry.
     */
    async migrate(invoice: StoredInvoiceItem): Promise<boolean> {
      const version = invoice.version ?? 0;
      const entries = keys.invoiceListEntries(invoice as unknown as InvoiceIndexSource);
      try {
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: table,
                  Key: { pk: invoice.pk, sk: invoice.sk },
                  UpdateExpression: `REMOVE ${LEGACY.join(', ')}`,
                  ConditionExpression:
                    invoice.version === undefined ? 'attribute_not_exists(#version)' : '#version = :version',
                  ExpressionAttributeNames: { '#version': 'version' },
                  ...(invoice.version === undefined ? {} : { ExpressionAttributeValues: { ':version': version } }),
                },
              },
              ...entries.map((entry) => ({ Put: { TableName: table, Item: entry } })),
            ],
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof TransactionCanceledException) return false;
        throw error;
      }
    },
  };
}

export type InvoiceListMigrationRepository = ReturnType<typeof makeInvoiceListMigrationRepository>;

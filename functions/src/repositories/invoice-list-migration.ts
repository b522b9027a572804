import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  PutCommand,
  ScanCommand,
  TransactWriteCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import {
  invoiceSearchItems,
  keys,
  legacySupplierSearchKeys,
  type InvoiceIndexSource,
  type ItemKey,
  type SearchSource,
} from '@portal/shared';
import type { TransactItem } from './transaction.js';

export interface MigrationState {
  /** Where the next page of the pass starts (the Scan's key); null: from the beginning. */
  readonly startKey: Record<string, unknown> | null;
  readonly migrated: number;
  /** When the pass ended: every invoice stored before it has its list entries. */
  readonly doneAt: string | null;
}

export type StoredInvoiceItem = Record<string, unknown> & { pk: string; sk: string; version?: number };

const LEGACY = keys.legacyInvoiceIndexAttributes;

/** The condition every write of a pass puts on the invoice: unchanged since it was read. */
function unchanged(invoice: StoredInvoiceItem) {
  return {
    ConditionExpression: invoice.version === undefined ? 'attribute_not_exists(#version)' : '#version = :version',
    ExpressionAttributeNames: { '#version': 'version' },
    ...(invoice.version === undefined ? {} : { ExpressionAttributeValues: { ':version': invoice.version } }),
  };
}

/**
 * A migration that passes once over every stored invoice: where it keeps its state, and the transaction it writes
 * for one invoice as read (conditioned on the invoice being unchanged since).
 */
export interface InvoicePass {
  /** What the pass is called in the job's log. */
  readonly name: string;
  readonly stateKey: ItemKey;
  transactItems(table: string, invoice: StoredInvoiceItem): TransactItem[];
}

/**
 * ADR 0042: writes the invoice's list entries as it stands and removes the index attributes it carried before them
 * (the invoice's content and version do not change).
 */
export const INVOICE_LISTS_PASS: InvoicePass = {
  name: 'Invoice lists',
  stateKey: keys.invoiceListsMigration,
  transactItems: (table, invoice) => [
    {
      Update: {
        TableName: table,
        Key: { pk: invoice.pk, sk: invoice.sk },
        UpdateExpression: `REMOVE ${LEGACY.join(', ')}`,
        ...unchanged(invoice),
      },
    },
    ...keys
      .invoiceListEntries(invoice as unknown as InvoiceIndexSource)
      .map((entry) => ({ Put: { TableName: table, Item: entry } })),
  ],
};

/**
 * ADR 0045: writes the invoice's search items as they are now (one per token, both scopes sharing the items of the
 * tokens they share) and deletes its supplier-scope items of before that no longer are among them. An item of an
 * earlier submission is left as it is: nothing finds it through the supplier index, and the company's search skips it.
 */
export const SEARCH_ITEMS_PASS: InvoicePass = {
  name: 'Search items',
  stateKey: keys.searchItemsMigration,
  transactItems(table, invoice) {
    const source = invoice as unknown as SearchSource & { type: string; receivedAt: string };
    const items = invoiceSearchItems(source);
    const kept = new Set(items.map((item) => `${item.pk}\u0000${item.sk}`));
    const gone = legacySupplierSearchKeys(source).filter((key) => !kept.has(`${key.pk}\u0000${key.sk}`));
    return [
      { ConditionCheck: { TableName: table, Key: { pk: invoice.pk, sk: invoice.sk }, ...unchanged(invoice) } },
      ...items.map((item) => ({ Put: { TableName: table, Item: item } })),
      ...gone.map((key) => ({ Delete: { TableName: table, Key: key } })),
    ];
  },
};

/**
 * The table side of a migration job (functions/src/jobs/invoice-list-migration.ts): its state item, a page of the
 * pass over the table (invoice items only), and the migration of one invoice.
 */
export function makeInvoiceListMigrationRepository(
  db: DynamoDBDocumentClient,
  table: string,
  pass: InvoicePass = INVOICE_LISTS_PASS,
) {
  const { stateKey } = pass;
  return {
    name: pass.name,

    async state(): Promise<MigrationState> {
      const result = await db.send(new GetCommand({ TableName: table, Key: stateKey, ConsistentRead: true }));
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
          Item: { ...stateKey, ...state, startKey: state.startKey ?? null },
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
     * Writes the pass's transaction of the invoice as read. False when the invoice moved meanwhile: read it again
     * and retry.
     */
    async migrate(invoice: StoredInvoiceItem): Promise<boolean> {
      try {
        await db.send(new TransactWriteCommand({ TransactItems: pass.transactItems(table, invoice) }));
        return true;
      } catch (error) {
        if (error instanceof TransactionCanceledException) return false;
        throw error;
      }
    },
  };
}

export type InvoiceListMigrationRepository = ReturnType<typeof makeInvoiceListMigrationRepository>;

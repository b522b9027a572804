import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { InvoiceSummary, TABLE, keys, type IndexName } from '@portal/shared';
import { decodeCursor, encodeCursor } from './cursor.js';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
}

export interface InvoiceRepository {
  listByClient(client: string, page: PageRequest): Promise<Page<InvoiceSummary>>;
  listBySupplier(supplierId: string, page: PageRequest): Promise<Page<InvoiceSummary>>;
  listByClientAndSupplier(client: string, supplierId: string, page: PageRequest): Promise<Page<InvoiceSummary>>;
}

export function makeInvoiceRepository(db: DynamoDBDocumentClient, table: string): InvoiceRepository {
  /** One Query on one index partition, newest first: the page cost does not depend on the table size. */
  async function listOn(index: IndexName, partition: string, page: PageRequest): Promise<Page<InvoiceSummary>> {
    const def = TABLE.indexes[index];
    const scope = `${def.name}:${partition}`;
    const startKey = decodeCursor(scope, page.cursor, [
      TABLE.partitionKey,
      TABLE.sortKey,
      def.partitionKey,
      def.sortKey,
    ]);
    const result = await db.send(
      new QueryCommand({
        TableName: table,
        IndexName: def.name,
        KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
        ExpressionAttributeNames: { '#pk': def.partitionKey, '#sk': def.sortKey },
        ExpressionAttributeValues: { ':pk': partition, ':prefix': keys.invoiceOrderPrefix },
        ScanIndexForward: false,
        Limit: page.limit,
        ExclusiveStartKey: startKey,
      }),
    );
    return {
      items: (result.Items ?? []).map((item) => InvoiceSummary.parse(item)),
      nextCursor: encodeCursor(scope, result.LastEvaluatedKey as Record<string, string> | undefined),
    };
  }

  return {
    listByClient: (client, page) => listOn('byClient', keys.clientInvoices(client), page),
    listBySupplier: (supplierId, page) => listOn('bySupplier', keys.supplierInvoices(supplierId), page),
    listByClientAndSupplier: (client, supplierId, page) =>
      listOn('byClientSupplier', keys.clientSupplierInvoices(client, supplierId), page),
  };
}

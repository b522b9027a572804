import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keys } from '@portal/shared';

type RawItem = Record<string, unknown>;

/**
 * The invoices that items naming one (`supplierId`, `type`, `id`: search items, list entries) stand for, read with
 * BatchGetItem (100 keys a call, unprocessed keys asked again), by the invoice's partition key. An invoice no longer
 * there is absent from the map.
 */
export async function readInvoices(
  db: DynamoDBDocumentClient,
  table: string,
  hits: readonly RawItem[],
): Promise<Map<string, RawItem>> {
  const found = new Map<string, RawItem>();
  const keysOf = hits.map((hit) => keys.invoice(String(hit.supplierId), String(hit.type), String(hit.id)));
  const unique = [...new Map(keysOf.map((key) => [key.pk, key])).values()];
  for (let i = 0; i < unique.length; i += 100) {
    let pending: RawItem[] = unique.slice(i, i + 100);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt));
      const result = await db.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending } } }));
      for (const item of result.Responses?.[table] ?? []) found.set(String(item.pk), item);
      pending = result.UnprocessedKeys?.[table]?.Keys ?? [];
      if (attempt >= 5 && pending.length > 0) throw new Error('DynamoDB left invoice keys unprocessed');
    }
  }
  return found;
}

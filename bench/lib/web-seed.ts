import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { systemStamp } from '../../functions/src/use-cases/audit-stamp.js';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys, parseTaxIds, type Invoice } from '@portal/shared';
import { makeIntakeStore } from '../../functions/src/repositories/intake-store.js';
import type { LocalOutputs } from '../../local/runtime/outputs.js';
import { buildWorld } from '../../local/seed/seed-data.js';
import { LOCAL_CREDENTIALS } from '../../local/stand-ins/types.js';

/** Invoices whose supplier is `taxId`, counted on the supplier's list the invoices screen reads. */
async function countSupplierInvoices(db: DynamoDBDocumentClient, table: string, taxId: string): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: table,
        // The supplier's list entries in the invoice order (its due-date entries share the partition).
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :order)',
        ExpressionAttributeValues: {
          ':pk': keys.invoiceListPartition(keys.supplierInvoices(taxId)),
          ':order': keys.invoiceOrderPrefix,
        },
        Select: 'COUNT',
        ExclusiveStartKey: start,
      }),
    );
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
}

/**
 * Makes sure the supplier `username` of the stage has at least `wanted` invoices, adding copies of its seeded
 * ones under new numbers (every status, as the demo world has them) through the intake's own store, which
 * writes the invoice item, its indexes and the dashboard counters as an upload does. Returns how many it has.
 */
export async function ensureSupplierInvoices(outputs: LocalOutputs, username: string, wanted: number): Promise<number> {
  const account = outputs.demoUsers.find((user) => user.username === username);
  const taxId = parseTaxIds(account?.taxId ?? null)[0];
  if (!account || !taxId) throw new Error(`No demo supplier ${username} with a RUC in the stage's outputs`);
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: outputs.region,
      endpoint: outputs.endpoints.dynamodb,
      credentials: LOCAL_CREDENTIALS,
    }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  try {
    const existing = await countSupplierInvoices(db, outputs.tableName, taxId);
    if (existing >= wanted) return existing;
    const templates = buildWorld().invoices.filter((invoice) => invoice.supplierId === taxId);
    if (templates.length === 0) throw new Error(`The demo world has no invoices of ${taxId}`);
    const store = makeIntakeStore(db, outputs.tableName);
    for (let index = 0; existing + index < wanted; index += 1) {
      const template = templates[index % templates.length]!;
      const numericId = String(900_000 + existing + index);
      const invoice: Invoice = { ...template, numericId, id: `${template.prefixId}-${numericId}` };
      await store.create(invoice, null, systemStamp('intake', 'SUBMITTED', 'bench-seed'));
    }
    return countSupplierInvoices(db, outputs.tableName, taxId);
  } finally {
    db.destroy();
  }
}

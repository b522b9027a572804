import { BatchWriteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { EMPTY_DASHBOARD, dashboardDelta, dashboardMonth, keys, parseTaxIds } from '@portal/shared';
import { CLIENTS, DEMO_USERS, EMPLOYEES, OFFICE_LOCATIONS, SUPPLIERS, buildWorld } from './seed-data.js';

const SEED_MARKER = { pk: 'SEED', sk: 'v3' };

type Item = Record<string, unknown>;

async function writeAll(db: DynamoDBDocumentClient, table: string, items: Item[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    let pending = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 8) throw new Error('DynamoDB Local no aceptó los datos de demostración');
      const result = await db.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = (result.UnprocessedItems?.[table] ?? []) as typeof pending;
      if (pending.length) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
    }
  }
}

/** The items of the demo world, keyed through the shared key builders as the repositories read them. */
export function seedItems(): Item[] {
  const world = buildWorld();
  const items: Item[] = [];
  for (const client of CLIENTS) items.push({ ...keys.client(client.taxId), ...client });
  for (const supplier of SUPPLIERS) {
    items.push({ ...keys.supplier(supplier.taxId), ...keys.supplierIndexes(supplier), ...supplier });
  }
  for (const [taxId, offices] of Object.entries(OFFICE_LOCATIONS)) {
    for (const office of offices) items.push({ ...keys.officeLocation(taxId, office.id), ...office });
  }
  for (const [acquirer, employees] of Object.entries(EMPLOYEES)) {
    for (const employee of employees) {
      items.push({
        ...keys.employee(acquirer, employee.id),
        ...keys.employeeIndexes(acquirer, employee),
        ...employee,
        active: true,
      });
    }
  }
  for (const order of world.purchaseOrders)
    items.push({ ...keys.purchaseOrder(order.acquirerTaxId, order.id), ...order });
  for (const { kind, ...doc } of world.conformityDocuments) {
    items.push({
      ...keys.conformity(kind, doc.acquirerTaxId, doc.documentId),
      ...keys.conformityIndexes(kind, doc),
      kind,
      ...doc,
    });
  }
  // Who gets e-mail per RUC; Cognito stays the source of truth for accounts (identity issue).
  for (const user of DEMO_USERS) {
    for (const taxId of parseTaxIds(user.taxId)) {
      items.push({
        ...keys.recipient(taxId, user.username),
        userId: user.username,
        email: user.username,
        canReceiveEmails: user.receivesEmails,
      });
    }
  }
  const counters = new Map<string, Item>();
  for (const invoice of world.invoices) {
    items.push({
      ...keys.invoice(invoice.supplierId, invoice.type, invoice.id),
      ...keys.invoiceIndexes(invoice),
      ...invoice,
      version: 1,
    });
    const delta = dashboardDelta(null, invoice);
    for (const period of [dashboardMonth(invoice.issuedAt), 'ALL']) {
      const key = keys.dashboard(invoice.client, period);
      const item = counters.get(key.pk + key.sk) ?? { ...key, ...EMPTY_DASHBOARD };
      for (const [counter, value] of Object.entries(delta)) item[counter] = (item[counter] as number) + value;
      counters.set(key.pk + key.sk, item);
    }
  }
  items.push(...counters.values());
  return items;
}

/** Seeds once: a marker item, written last with a condition, says the data is there. */
export async function seedIfEmpty(db: DynamoDBDocumentClient, table: string): Promise<boolean> {
  const marker = await db.send(new GetCommand({ TableName: table, Key: SEED_MARKER }));
  if (marker.Item) return false;
  await writeAll(db, table, seedItems());
  await db
    .send(
      new PutCommand({
        TableName: table,
        Item: { ...SEED_MARKER, seededAt: new Date().toISOString() },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    )
    .catch((error: Error) => {
      if (error.name !== 'ConditionalCheckFailedException') throw error;
    });
  return true;
}

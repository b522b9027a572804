import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys, routes, type Invoice, type InvoiceSummary } from '@portal/shared';
import { migrateInvoiceLists } from '../../functions/src/jobs/invoice-list-migration.js';
import { CLIENTS } from '../../infra/local/seed-data.js';
import { freshRuc } from '../support/admin.js';
import { call, idTokenOf } from '../support/api.js';
import { reviewFixture, table } from '../support/fixtures.js';
import { demoUser, stage } from '../support/stage.js';

/**
 * The invoice lists as list entries (docs/adr/0042-invoice-list-entries.md) on the local stage: an invoice stored by
 * an earlier version (its lists were indexes of its own item, no entries) comes back into every list once the
 * migration has run, also after a change made before the job reached it; a list shows a change at once.
 */
const COMPANY = CLIENTS[0]!;
const MIGRATION_STATE = keys.invoiceListsMigration;

const manager = () => idTokenOf(demoUser('MANAGER').username, demoUser('MANAGER').password);
const pathOf = (invoice: Invoice) => ({
  supplierId: invoice.supplierId,
  invoiceType: invoice.type,
  invoiceId: invoice.id,
});

async function listed(query: Record<string, string>): Promise<string[]> {
  const items: InvoiceSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await call(routes.listInvoices, {
      token: await manager(),
      query: { limit: 50, client: COMPANY.taxId, ...query, cursor },
    });
    expect(page.status).toBe(200);
    items.push(...page.body.items);
    cursor = page.body.nextCursor ?? undefined;
  } while (cursor);
  return items.map((invoice) => invoice.id).sort();
}

/** Makes a stored invoice look as an earlier version stored it: its index attributes on the item, no entries. */
async function asStoredBeforeEntries(invoice: Invoice): Promise<void> {
  const store = table();
  const order = keys.invoiceOrder(invoice);
  const legacy: Record<string, string> = {
    gsi1pk: keys.clientInvoices(invoice.client),
    gsi1sk: order,
    gsi2pk: keys.supplierInvoices(invoice.supplierId),
    gsi2sk: order,
    gsi3pk: keys.clientSupplierInvoices(invoice.client, invoice.supplierId),
    gsi3sk: order,
    gsi4pk: keys.clientStatusInvoices(invoice.client, invoice.status),
    gsi4sk: order,
    gsi5pk: keys.supplierStatusInvoices(invoice.supplierId, invoice.status),
    gsi5sk: order,
    gsi6pk: keys.clientTypeInvoices(invoice.client, invoice.type),
    gsi6sk: order,
  };
  const key = keys.invoice(invoice.supplierId, invoice.type, invoice.id);
  await store.put({ ...(await store.get(key)), ...legacy });
  for (const entry of keys.invoiceListEntries(invoice)) await store.delete({ pk: entry.pk, sk: entry.sk });
}

/** The migration as `npm run migrate:lists` runs it on a deployed stage's table. */
async function migrateOnce(): Promise<{ done: boolean; migrated: number }> {
  const { endpoints, region, tableName } = stage();
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region,
      endpoint: endpoints.dynamodb,
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    }),
  );
  try {
    return await migrateInvoiceLists(
      db,
      tableName,
      () => new Date(),
      () => undefined,
    );
  } finally {
    db.destroy();
  }
}

/**
 * The migration from its beginning: one pass over the whole test table (every other test's items too, hence this
 * test's longer timeout).
 */
async function runMigrationFromScratch(): Promise<void> {
  await table().delete(MIGRATION_STATE);
  expect((await migrateOnce()).done).toBe(true);
  expect((await table().get(MIGRATION_STATE))?.doneAt).toEqual(expect.any(String));
}

describe('invoice lists (ADR 0042)', () => {
  it('show a change of status at once, in the new status list and no longer in the old one', async () => {
    const supplier = { taxId: freshRuc(), name: 'Listas Inmediatas S.A.C.' };
    const { invoice } = await reviewFixture({ client: COMPANY.taxId, clientName: COMPANY.name, supplier, kind: null });
    expect(await listed({ issuer: supplier.taxId, invoiceStatus: 'PENDING' })).toEqual([invoice.id]);

    const rejected = await call(routes.disapproveInvoice, {
      token: await manager(),
      path: pathOf(invoice),
      body: { reason: 'Duplicado' },
    });
    expect(rejected.status).toBe(200);
    expect(await listed({ issuer: supplier.taxId, invoiceStatus: 'PENDING' })).toEqual([]);
    expect(await listed({ issuer: supplier.taxId, invoiceStatus: 'REJECTED' })).toEqual([invoice.id]);
  });

  it('bring invoices stored by an earlier version back into every list once the migration has run', async () => {
    const supplier = { taxId: freshRuc(), name: 'Migración de Listas S.A.C.' };
    const fixture = () => reviewFixture({ client: COMPANY.taxId, clientName: COMPANY.name, supplier, kind: null });
    const [untouched, changed] = [(await fixture()).invoice, (await fixture()).invoice];
    await asStoredBeforeEntries(untouched);
    await asStoredBeforeEntries(changed);
    expect(await listed({ issuer: supplier.taxId })).toEqual([]);

    // Changed by this version before the job reached it: only the entries its change moved are written.
    const rejected = await call(routes.disapproveInvoice, {
      token: await manager(),
      path: pathOf(changed),
      body: { reason: 'Duplicado' },
    });
    expect(rejected.status).toBe(200);
    expect(await listed({ issuer: supplier.taxId })).toEqual([]);
    // The company's REJECTED list (driven by the status, not the issuer) has it: its change wrote that entry.
    expect(await listed({ invoiceStatus: 'REJECTED' })).toContain(changed.id);

    await runMigrationFromScratch();

    expect(await listed({ issuer: supplier.taxId })).toEqual([untouched.id, changed.id].sort());
    expect(await listed({ issuer: supplier.taxId, invoiceStatus: 'PENDING' })).toEqual([untouched.id]);
    expect(await listed({ issuer: supplier.taxId, invoiceStatus: 'REJECTED' })).toEqual([changed.id]);
    expect(await listed({ issuer: supplier.taxId, invoiceType: 'FACTURA', invoiceStatus: 'REJECTED' })).toEqual([
      changed.id,
    ]);
    for (const invoice of [untouched, changed]) {
      const item = await table().get(keys.invoice(invoice.supplierId, invoice.type, invoice.id));
      expect(Object.keys(item ?? {}).filter((name) => name.startsWith('gsi'))).toEqual([]);
    }

    // Run again (a second deploy, a restart): it reads its state and stops; nothing moves.
    expect(await migrateOnce()).toEqual({ done: true, migrated: 0 });
    expect(await listed({ issuer: supplier.taxId })).toEqual([untouched.id, changed.id].sort());
  }, 180_000);
});

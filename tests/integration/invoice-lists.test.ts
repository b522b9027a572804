import { randomUUID } from 'node:crypto';
import { DeleteTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys, routes, type Invoice, type InvoiceSummary } from '@portal/shared';
import { migrateInvoiceLists } from '../../functions/src/jobs/invoice-list-migration.js';
import type { InvoiceFilter } from '../../functions/src/repositories/invoice-queries.js';
import { makeInvoiceStore } from '../../functions/src/repositories/invoice-store.js';
import { makeInvoiceRepository } from '../../functions/src/repositories/invoices.js';
import { systemStamp } from '../../functions/src/use-cases/audit-stamp.js';
import { ensureTable } from '../../local/runtime/provision/aws-resources.js';
import { CLIENTS } from '../support/tenant.js';
import { freshRuc } from '../support/admin.js';
import { call, idTokenOf } from '../support/api.js';
import { reviewFixture, stageDocumentClient } from '../support/fixtures.js';
import { demoUser } from '../support/stage.js';

/**
 * The invoice lists as list entries (docs/adr/0042-invoice-list-entries.md) on the local stage: an invoice stored by
 * an earlier version (its lists were indexes of its own item, no entries) comes back into every list once the
 * migration has run, also after a change made before the job reached it; a list shows a change at once.
 */
const COMPANY = CLIENTS[0]!;

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

/** The index attributes an earlier version wrote on the invoice item itself (its lists were indexes of it). */
function legacyIndexAttributes(invoice: Invoice): Record<string, string> {
  const order = keys.invoiceOrder(invoice);
  return {
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
}

/**
 * A table of the test's own on the stage's DynamoDB Local, shaped as the stage's: the migration's pass reads a whole
 * table, and one over the shared table (every other test's items) starved the stage's workers while other files ran.
 */
async function ownTable(db: DynamoDBDocumentClient): Promise<string> {
  const name = `lists-migration-${randomUUID()}`;
  await ensureTable(db as unknown as DynamoDBClient, name);
  return name;
}

/** Invoices as an earlier version stored them in `tableName`: their own index attributes, no list entries. */
async function storeAsBeforeEntries(db: DynamoDBDocumentClient, tableName: string, invoices: Invoice[]) {
  for (const invoice of invoices) {
    const key = keys.invoice(invoice.supplierId, invoice.type, invoice.id);
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...key, ...invoice, ...legacyIndexAttributes(invoice), version: 1 },
      }),
    );
  }
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
    const db = stageDocumentClient();
    const tableName = await ownTable(db);
    const migrate = () =>
      migrateInvoiceLists(
        db,
        tableName,
        () => new Date(),
        () => undefined,
      );
    try {
      const supplier = { taxId: freshRuc(), name: 'Migración de Listas S.A.C.' };
      const { invoice: template } = await reviewFixture({
        client: COMPANY.taxId,
        clientName: COMPANY.name,
        supplier,
        kind: null,
      });
      const untouched: Invoice = { ...template, id: 'FX01-1' };
      const changed: Invoice = { ...template, id: 'FX01-2', receivedAt: new Date(Date.now() + 1000).toISOString() };
      await storeAsBeforeEntries(db, tableName, [untouched, changed]);
      const invoices = makeInvoiceRepository(db, tableName);
      const listed = async (filter: InvoiceFilter) =>
        (await invoices.list({ kind: 'COMPANY', client: COMPANY.taxId }, filter, { limit: 50 })).items
          .map((invoice) => invoice.id)
          .sort();
      expect(await listed({ issuer: supplier.taxId })).toEqual([]);

      // Changed by this version before the migration reached it: only the entries its change moved are written.
      const store = makeInvoiceStore(db, tableName);
      const before = (await store.get(changed.supplierId, changed.type, changed.id))!;
      await store.commit({
        before,
        after: { ...changed, status: 'REJECTED' },
        whileStatusIn: ['PENDING'],
        audit: systemStamp('sunatValidation', 'REJECTED'),
      });
      expect(await listed({ issuer: supplier.taxId })).toEqual([]);
      expect(await listed({ statuses: ['REJECTED'] })).toEqual([changed.id]);

      expect(await migrate()).toEqual({ done: true, migrated: 2 });

      expect(await listed({ issuer: supplier.taxId })).toEqual([untouched.id, changed.id]);
      expect(await listed({ issuer: supplier.taxId, statuses: ['PENDING'] })).toEqual([untouched.id]);
      expect(await listed({ statuses: ['REJECTED'] })).toEqual([changed.id]);
      expect(await listed({ types: ['FACTURA'], statuses: ['REJECTED'] })).toEqual([changed.id]);
      for (const invoice of [untouched, changed]) {
        const item = (
          await db.send(
            new GetCommand({ TableName: tableName, Key: keys.invoice(invoice.supplierId, invoice.type, invoice.id) }),
          )
        ).Item;
        expect(Object.keys(item ?? {}).filter((name) => name.startsWith('gsi'))).toEqual([]);
      }

      // Run again (a second deploy, a restart): it reads its state and stops; nothing moves.
      expect(await migrate()).toEqual({ done: true, migrated: 0 });
      expect(await listed({ issuer: supplier.taxId })).toEqual([untouched.id, changed.id]);
    } finally {
      // A failed run leaves no table of its own behind on the stage's DynamoDB Local either.
      await db.send(new DeleteTableCommand({ TableName: tableName }));
      db.destroy();
    }
  });
});

import { randomUUID } from 'node:crypto';
import { DeleteTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { SEARCH_SCOPES, invoiceSearchItems, invoiceSearchTokens, keys, type Invoice } from '@portal/shared';
import { migrateSearchItems } from '../../functions/src/jobs/invoice-list-migration.js';
import type { InvoiceScope } from '../../functions/src/repositories/invoice-queries.js';
import { makeInvoiceRepository } from '../../functions/src/repositories/invoices.js';
import { ensureTable } from '../../local/runtime/provision/aws-resources.js';
import { CLIENTS } from '../support/tenant.js';
import { freshRuc } from '../support/admin.js';
import { reviewFixture, stageDocumentClient } from '../support/fixtures.js';

/**
 * The search items of one item per token (docs/adr/0045-search-items-shared.md) on the local stage: invoices stored by
 * an earlier version (each token written once per scope, the supplier's read without an index) are found by their
 * supplier again once the migration has run, each once, with their supplier-scope items of before gone; a rerun, and
 * a rerun after a crash that lost the pass's state, change nothing.
 */
const COMPANY = CLIENTS[0]!;

/** The search items as an earlier version wrote them: one per token and scope, none in the supplier index. */
function searchItemsOfBefore(invoice: Invoice): Record<string, unknown>[] {
  const tokens = invoiceSearchTokens(invoice);
  return SEARCH_SCOPES.flatMap((scope) =>
    tokens[scope].map((token) => ({
      ...keys.searchEntry(scope, scope === 'CLIENT' ? invoice.client : invoice.supplierId, token, invoice),
      token,
      supplierId: invoice.supplierId,
      type: invoice.type,
      id: invoice.id,
      receivedAt: invoice.receivedAt,
      tokens: tokens[scope],
    })),
  );
}

/** A table of the test's own, shaped as the stage's: the pass reads a whole table (invoice-lists.test.ts says why). */
async function ownTable(db: DynamoDBDocumentClient): Promise<string> {
  const name = `search-migration-${randomUUID()}`;
  await ensureTable(db as unknown as DynamoDBClient, name);
  return name;
}

async function searchItemsIn(db: DynamoDBDocumentClient, tableName: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: 'begins_with(pk, :search)',
        ExpressionAttributeValues: { ':search': 'SEARCH#' },
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

describe('search items of one item per token (ADR 0045)', () => {
  it("find a supplier's invoices stored by an earlier version again once the migration has run", async () => {
    const db = stageDocumentClient();
    const tableName = await ownTable(db);
    const migrate = () =>
      migrateSearchItems(
        db,
        tableName,
        () => new Date(),
        () => undefined,
      );
    try {
      const supplier = { taxId: freshRuc(), name: 'Búsqueda Migrada S.A.C.' };
      const { invoice: template } = await reviewFixture({
        client: COMPANY.taxId,
        clientName: COMPANY.name,
        supplier,
        kind: null,
      });
      const first: Invoice = { ...template, id: 'FX01-4581' };
      const second: Invoice = { ...template, id: 'FX01-4582', receivedAt: new Date(Date.now() + 1000).toISOString() };
      // A submission replaced before the migration: its items of before stay as they are (its receivedAt is older).
      const replaced: Invoice = { ...second, receivedAt: '2026-01-05T10:00:00.000Z' };
      for (const invoice of [first, second]) {
        const key = keys.invoice(invoice.supplierId, invoice.type, invoice.id);
        await db.send(new PutCommand({ TableName: tableName, Item: { ...key, ...invoice, version: 1 } }));
      }
      for (const item of [first, second, replaced].flatMap(searchItemsOfBefore)) {
        await db.send(new PutCommand({ TableName: tableName, Item: item }));
      }

      const invoices = makeInvoiceRepository(db, tableName);
      const found = async (scope: InvoiceScope, search: string) =>
        (await invoices.list(scope, { search }, { limit: 50 })).items.map((invoice) => invoice.id).sort();
      const bySupplier: InvoiceScope = { kind: 'SUPPLIER', supplierId: supplier.taxId };
      const byCompany: InvoiceScope = { kind: 'COMPANY', client: COMPANY.taxId };
      // Before: the company's search finds them; the supplier's reads its index, where nothing is yet.
      expect(await found(byCompany, '458')).toEqual([first.id, second.id]);
      expect(await found(bySupplier, '458')).toEqual([]);

      expect(await migrate()).toEqual({ done: true, migrated: 2 });

      for (const search of ['458', '4582', 'fx01-45', COMPANY.taxId.slice(0, 6), 'busqueda']) {
        const expected = search === '4582' ? [second.id] : [first.id, second.id];
        expect({ search, supplier: await found(bySupplier, search) }).toEqual({ search, supplier: expected });
        if (search !== COMPANY.taxId.slice(0, 6)) {
          expect({ search, company: await found(byCompany, search) }).toEqual({ search, company: expected });
        }
      }
      // What is left: the items of now, and the replaced submission's of before (not in the supplier index).
      const now = [first, second].flatMap((invoice) => invoiceSearchItems(invoice));
      const keyOf = (item: Record<string, unknown>) => `${String(item.pk)} ${String(item.sk)}`;
      const stale = searchItemsOfBefore(replaced).map(keyOf);
      const left = await searchItemsIn(db, tableName);
      expect(left.map(keyOf).sort()).toEqual([...now.map(keyOf), ...stale].sort());
      expect(
        left
          .filter((item) => item.gsi2pk !== undefined)
          .map(keyOf)
          .sort(),
      ).toEqual(
        now
          .filter((item) => item.gsi2pk !== undefined)
          .map(keyOf)
          .sort(),
      );
      expect(now.length).toBeLessThan(searchItemsOfBefore(first).length * 2);

      // Run again (a second deploy, a restart): it reads its state and stops.
      expect(await migrate()).toEqual({ done: true, migrated: 0 });
      // A run that died before saving its place does its page again: the same items, found once each.
      await db.send(new DeleteCommand({ TableName: tableName, Key: keys.searchItemsMigration }));
      expect(await migrate()).toEqual({ done: true, migrated: 2 });
      expect((await searchItemsIn(db, tableName)).map(keyOf).sort()).toEqual(left.map(keyOf).sort());
      expect(await found(bySupplier, '458')).toEqual([first.id, second.id]);
    } finally {
      await db.send(new DeleteTableCommand({ TableName: tableName }));
      db.destroy();
    }
  });
});

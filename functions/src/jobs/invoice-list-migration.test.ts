import { describe, expect, it } from 'vitest';
import { keys } from '@portal/shared';
import type {
  InvoiceListMigrationRepository,
  MigrationState,
  StoredInvoiceItem,
} from '../repositories/invoice-list-migration.js';
import { MIGRATION_PAGE_ITEMS, makeInvoiceListMigration } from './invoice-list-migration.js';

const NOW = new Date('2026-11-27T09:00:00.000Z');
const quiet = { info: () => undefined, warn: () => undefined };

/** An invoice as stored before ADR 0042: its own index attributes, no list entries. */
function legacyInvoice(n: number): StoredInvoiceItem {
  const invoice = {
    supplierId: '20456178325',
    type: 'FACTURA',
    id: `F001-${n}`,
    client: '20100070970',
    supplierName: 'Ferretería',
    receivedAt: `2026-10-01T10:00:${String(n % 60).padStart(2, '0')}.000Z`,
    status: n % 2 ? 'PENDING' : 'ACCEPTED',
    officeId: null,
    responsible: null,
    payment: null,
  };
  return { ...keys.invoice(invoice.supplierId, invoice.type, invoice.id), ...invoice, gsi1pk: 'x', version: 3 };
}

/**
 * The table as the migration sees it: invoices (and other items) in scan order, its state item, the entries written.
 * `failAfterPages` makes a run die after that many pages have been migrated, as a Lambda that times out or crashes.
 */
function world(invoiceCount: number, otherItemsBetween = 2) {
  const items: StoredInvoiceItem[] = [];
  for (let n = 0; n < invoiceCount; n++) {
    items.push(legacyInvoice(n));
    for (let k = 0; k < otherItemsBetween; k++) items.push({ pk: `OTHER#${n}`, sk: `X${k}` });
  }
  const invoices = new Map(items.filter((item) => item.sk === 'INVOICE').map((item) => [item.pk, item]));
  const entries = new Map<string, number>();
  let state: MigrationState = { startKey: null, migrated: 0, doneAt: null };
  const calls = { pages: 0, migrations: 0 };
  const trouble = { failAfterPages: Infinity, moveOnce: new Set<string>() };
  const repository: InvoiceListMigrationRepository = {
    name: 'Invoice lists',
    state: async () => state,
    saveState: async (next) => void (state = next),
    async page(startKey, limit) {
      if (calls.pages >= trouble.failAfterPages) throw new Error('the run died');
      calls.pages += 1;
      const from = startKey ? Number(startKey.at) : 0;
      const slice = items.slice(from, from + limit);
      const next = from + limit < items.length ? { at: from + limit } : null;
      return { invoices: slice.filter((item) => item.sk === 'INVOICE').map((item) => ({ ...item })), next };
    },
    reread: async (key) => ({ ...invoices.get(key.pk)! }),
    async migrate(invoice) {
      calls.migrations += 1;
      const stored = invoices.get(invoice.pk)!;
      // Another writer changed the invoice between the read and this write: the condition on its version fails.
      if (trouble.moveOnce.delete(invoice.pk)) {
        invoices.set(invoice.pk, { ...stored, status: 'COMPLETED', version: (stored.version ?? 0) + 1 });
        return false;
      }
      if (stored.version !== invoice.version) return false;
      const { gsi1pk: _legacy, ...rest } = stored;
      invoices.set(invoice.pk, rest as StoredInvoiceItem);
      for (const entry of keys.invoiceListEntries(invoice as never)) {
        const key = `${entry.pk}|${entry.sk}`;
        entries.set(key, (entries.get(key) ?? 0) + 1);
      }
      return true;
    },
  };
  return { repository, invoices, entries, calls, trouble, state: () => state };
}

const migrationOf = (repository: InvoiceListMigrationRepository, timeLeftMs = () => 600_000) =>
  makeInvoiceListMigration({ repository, clock: () => NOW, log: quiet, timeLeftMs });

describe('the migration of stored invoices to list entries', () => {
  it('gives every invoice its entries, removes its old index attributes and records the end', async () => {
    const table = world(700);
    const result = await migrationOf(table.repository).run();

    expect(result).toEqual({ done: true, migrated: 700 });
    expect(table.state()).toMatchObject({ doneAt: NOW.toISOString(), migrated: 700, startKey: null });
    expect([...table.invoices.values()].filter((invoice) => 'gsi1pk' in invoice)).toEqual([]);
    // Company, supplier, company+supplier, both status lists and the type list: six entries each, written once.
    expect(table.entries.size).toBe(700 * 6);
    expect([...table.entries.values()].every((writes) => writes === 1)).toBe(true);
  });

  it('resumes after a run that died, repeating at most the page it was on', async () => {
    const table = world(700);
    table.trouble.failAfterPages = 2;
    await expect(migrationOf(table.repository).run()).rejects.toThrow('the run died');
    expect(table.state().doneAt).toBeNull();
    expect(table.state().startKey).toEqual({ at: 2 * MIGRATION_PAGE_ITEMS });

    table.trouble.failAfterPages = Infinity;
    expect(await migrationOf(table.repository).run()).toMatchObject({ done: true });
    expect(table.entries.size).toBe(700 * 6);
    expect([...table.entries.values()].every((writes) => writes === 1)).toBe(true);
  });

  it('stops before its time runs out and goes on in the next run', async () => {
    const table = world(700);
    let left = 32_000;
    const first = await migrationOf(table.repository, () => (left -= 1_000)).run();
    expect(first.done).toBe(false);
    expect(first.migrated).toBeGreaterThan(0);
    expect(table.state().doneAt).toBeNull();

    const second = await migrationOf(table.repository).run();
    expect(second.done).toBe(true);
    expect(first.migrated + second.migrated).toBe(700);
  });

  it('reads again an invoice that moved meanwhile and lists it where it is now', async () => {
    const table = world(3);
    const moved = keys.invoice('20456178325', 'FACTURA', 'F001-1').pk;
    table.trouble.moveOnce.add(moved);
    await migrationOf(table.repository).run();

    const lists = [...table.entries.keys()].filter((key) => key.endsWith('#F001-1'));
    expect(lists.some((key) => key.includes('#STATUS#COMPLETED|'))).toBe(true);
    expect(lists.some((key) => key.includes('#STATUS#PENDING|'))).toBe(false);
  });

  it('does nothing once done but read its state', async () => {
    const table = world(10);
    await migrationOf(table.repository).run();
    const { pages, migrations } = table.calls;

    expect(await migrationOf(table.repository).run()).toEqual({ done: true, migrated: 0 });
    expect(table.calls).toEqual({ pages, migrations });
  });
});

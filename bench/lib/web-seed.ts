import { systemStamp } from '../../functions/src/use-cases/audit-stamp.js';
import { keys, parseTaxIds, type Invoice } from '@portal/shared';
import { makeIntakeStore } from '../../functions/src/repositories/intake-store.js';
import type { LocalOutputs } from '../../local/runtime/outputs.js';
import { buildWorld } from '../../local/seed/seed-data.js';
import { countListInvoices, stageDb } from './stage-db.js';

/**
 * Makes sure the supplier `username` of the stage has at least `wanted` invoices, adding copies of its seeded
 * ones under new numbers (every status, as the demo world has them) through the intake's own store, which
 * writes the invoice item, its indexes and the dashboard counters as an upload does. Returns how many it has.
 */
export async function ensureSupplierInvoices(outputs: LocalOutputs, username: string, wanted: number): Promise<number> {
  const account = outputs.demoUsers.find((user) => user.username === username);
  const taxId = parseTaxIds(account?.taxId ?? null)[0];
  if (!account || !taxId) throw new Error(`No demo supplier ${username} with a RUC in the stage's outputs`);
  const db = stageDb(outputs);
  try {
    const existing = await countListInvoices(db, outputs.tableName, keys.supplierInvoices(taxId));
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
    return countListInvoices(db, outputs.tableName, keys.supplierInvoices(taxId));
  } finally {
    db.destroy();
  }
}

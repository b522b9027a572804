import { describe, expect, it } from 'vitest';
import { invoiceSearchItems, isSearchHit, keys, searchTerms, type Invoice, type SearchItem } from '@portal/shared';
import { QUERY_BUDGET } from '../../functions/src/repositories/invoice-queries.js';
import { buildWorld } from '../../local/seed/seed-data.js';
import { BENCH_SEARCHES, benchInvoice, benchSearchRead, scaleReadsFilter, seedItems } from './api-seed.js';

const READ = new Set(Object.values(BENCH_SEARCHES).map((text) => benchSearchRead(text).partition));

/** The search items in the partitions the benchmark reads, with the demo world and benchmark invoices to `size`. */
function searchItemsAt(size: number): SearchItem[] {
  const world = buildWorld().invoices;
  const invoices: Invoice[] = [
    ...world,
    ...Array.from({ length: size - world.length }, (_, index) => benchInvoice(index, world)),
  ];
  return invoices.flatMap((invoice) => invoiceSearchItems(invoice).filter((item) => READ.has(item.pk)));
}

/** What the engine's first read of a search finds: the items under the term in sort-key order, and their hits. */
function firstRead(table: readonly SearchItem[], text: string): { items: SearchItem[]; hits: number } {
  const { driving, partition } = benchSearchRead(text);
  const terms = searchTerms(text);
  const items = table
    .filter((item) => item.pk === partition && item.sk.startsWith(driving))
    .sort((a, b) => (a.sk < b.sk ? -1 : a.sk > b.sk ? 1 : 0))
    .slice(0, QUERY_BUDGET.itemsPerQuery);
  return { items, hits: items.filter((item) => isSearchHit(item.tokens, item.token, terms)).length };
}

describe('the API benchmark searches', () => {
  const small = searchItemsAt(1_000);
  const large = searchItemsAt(10_000);

  it.each(Object.entries(BENCH_SEARCHES))('%s ("%s") fills the first read and a page at both sizes', (_, text) => {
    // Prepare / act
    const reads = [firstRead(small, text), firstRead(large, text)];

    // Assess: the same work at both sizes, a full read of 100 items and a page of 50 from it.
    for (const read of reads) {
      expect(read.items).toHaveLength(QUERY_BUDGET.itemsPerQuery);
      expect(read.hits).toBeGreaterThanOrEqual(50);
    }
    expect(reads[1]!.hits).toBe(reads[0]!.hits);
  });
});

describe('the scale suite’s seed', () => {
  const world = buildWorld().invoices;
  const invoices = Array.from({ length: 3_000 }, (_, index) => benchInvoice(index, world));
  type Item = { pk: string; sk: string };
  const full = invoices.flatMap((invoice) => seedItems(invoice, { searchPartitions: 'all' }).items as Item[]);
  const filter = scaleReadsFilter();
  const kept = invoices.flatMap((invoice) => seedItems(invoice, filter).items as Item[]);
  const range = (items: readonly Item[], pk: string, prefix = '') =>
    items
      .filter((item) => item.pk === pk && item.sk.startsWith(prefix))
      .map((item) => item.sk)
      .sort();

  it('writes every invoice, and within every key range the reads ask the same items as a table with all', () => {
    // Assess: every invoice is there to be read by key.
    const invoiceKey = (invoice: Invoice) => keys.invoice(invoice.supplierId, invoice.type, invoice.id);
    const keptKeys = new Set(kept.map((item) => `${item.pk}|${item.sk}`));
    for (const invoice of invoices)
      expect(keptKeys.has(`${invoiceKey(invoice).pk}|${invoiceKey(invoice).sk}`)).toBe(true);
    // The list read's partition, whole.
    const lists = [...(filter.listPartitions as ReadonlySet<string>)];
    expect(lists).toHaveLength(1);
    expect(range(kept, lists[0]!).length).toBeGreaterThan(1_000);
    expect(range(kept, lists[0]!)).toEqual(range(full, lists[0]!));
    // Each search's range: the items under the term it is read by.
    for (const text of Object.values(BENCH_SEARCHES)) {
      const { partition, driving } = benchSearchRead(text);
      expect(range(kept, partition, driving).length).toBeGreaterThan(QUERY_BUDGET.itemsPerQuery);
      expect(range(kept, partition, driving)).toEqual(range(full, partition, driving));
    }
  });

  it('leaves out the items no read reaches, the bulk of an invoice’s items', () => {
    expect(kept.length * 4).toBeLessThan(full.length);
  });
});

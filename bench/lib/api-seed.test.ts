import { describe, expect, it } from 'vitest';
import { invoiceSearchItems, isSearchHit, searchTerms, type Invoice, type SearchItem } from '@portal/shared';
import { QUERY_BUDGET } from '../../functions/src/repositories/invoice-queries.js';
import { buildWorld } from '../../infra/local/seed-data.js';
import { BENCH_SEARCHES, benchInvoice, benchSearchRead } from './api-seed.js';

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

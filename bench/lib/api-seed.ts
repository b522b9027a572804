import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  drivingTerm,
  invoiceSearchItems,
  keys,
  nameTokens,
  searchTerms,
  type Invoice,
  type SearchItem,
} from '@portal/shared';
import { invoiceCounterUpdates } from '../../functions/src/repositories/invoice-counters.js';
import { planInvoiceQuery } from '../../functions/src/repositories/invoice-queries.js';
import type { LocalOutputs } from '../../local/runtime/outputs.js';
import { CLIENTS, SUPPLIERS, buildWorld } from '../../local/seed/seed-data.js';
import { anInvoice, between, withIgv } from '../../tests/support/builders.js';
import { stageDb } from './stage-db.js';

/**
 * Bulk invoices for the API benchmark, written as the product stores them: the same items (keys.invoice and
 * its list entries, version 1, and the search items) the intake writes, and the counters it moves. They go
 * in with BatchWriteItem, since 100,000 one-by-one intake transactions would take most of an hour on DynamoDB
 * Local; the counters are added once per counter item at the end, so the dashboard and the totals stay exact.
 *
 * Search items: an invoice has about 45 (every suffix of its number, the RUCs, the name words, per company and
 * per supplier), 4.5 million for 100,000 invoices. DynamoDB Local wrote 2,000 invoices with all of theirs
 * (96,000 items) in 12 minutes on the benchmark's shared two cores: 100,000 would take hours. So the benchmark
 * writes, of each invoice, its search items in the partitions the benchmark reads (`searchPartitions`), every
 * one of them, and not the others. That measures the same thing: a Query reads one partition key, and its cost
 * depends only on the items under that key within its sort-key range (in DynamoDB, where other partitions live
 * elsewhere; in DynamoDB Local, a range of one SQLite index, whose depth grows with the logarithm of the whole
 * table). The partitions read hold the entries of every invoice in the table that belongs there, as they would
 * with every item written, and the invoices the hits point to are all there. `searchPartitions: 'all'` writes
 * everything (BENCH_SEARCH_ITEMS=all npm run bench).
 */

/** The company the benchmark's manager reads (the first demo company), and the supplier of its review pool. */
export const BENCH_CLIENT = CLIENTS[0]!;
export const BENCH_SUPPLIER = SUPPLIERS[0]!;
/**
 * The searches the benchmark measures, as a manager of BENCH_CLIENT types them in the header: a middle part of
 * the benchmark invoices' correlative (the "0000" of B001-10000458), a prefix of BENCH_SUPPLIER's RUC and a
 * word of its business name. Each has well over 100 search items under it in the company's partition with
 * 1,000 invoices as with 100,000, so that a page's first read (100 items, then their invoices) is as full at
 * both sizes and their ratio shows the table's size alone (a tail such as "458" finds one invoice at 1,000).
 */
export const BENCH_SEARCHES = {
  searchNumber: '0000',
  searchRuc: BENCH_SUPPLIER.taxId.slice(0, 5),
  searchName: nameTokens(BENCH_SUPPLIER.name)[1]!,
} as const;

/** The term a search is read by (its longest, invoice-search.ts) and the company's search partition it reads. */
export function benchSearchRead(text: string): { driving: string; partition: string } {
  const driving = drivingTerm(searchTerms(text));
  if (driving === null) throw new Error(`"${text}" has no search term`);
  return { driving, partition: keys.searchPartition('CLIENT', BENCH_CLIENT.taxId, driving) };
}

/** Series of the benchmark's invoices: numbers never used by the demo world or the tests. */
const SERIES = 'B001';

/** Every `POOL_EVERY`-th generated invoice is a review-pool invoice (see `poolInvoiceIds`). */
const POOL_EVERY = 2;

function poolInvoice(index: number, numericId: string): Invoice {
  const id = `${SERIES}-${numericId}`;
  // Spread over the last six months, as the demo world is.
  const issuedAt = new Date(Date.UTC(2026, 4, 1) + (index % 180) * 86_400_000).toISOString().slice(0, 10);
  const receivedAt = `${issuedAt}T12:00:00.000Z`;
  return anInvoice({
    id,
    prefixId: SERIES,
    numericId,
    ...between(BENCH_SUPPLIER, BENCH_CLIENT),
    ...withIgv(1000 + (index % 997)),
    issuedAt,
    receivedAt,
    pdfUrl: `bench/${id}.pdf`,
  });
}

/**
 * The `index`-th benchmark invoice (0-based, deterministic). One in POOL_EVERY is a review-pool invoice: a
 * factura of BENCH_SUPPLIER to BENCH_CLIENT that SUNAT confirmed and nobody reviewed yet, which the PUT and
 * approve measurements complete and approve. The others are copies of the demo world's invoices (every
 * company, supplier, type and status) under new numbers.
 */
export function benchInvoice(index: number, templates: readonly Invoice[]): Invoice {
  const numericId = String(10_000_000 + index);
  if (index % POOL_EVERY === 0) return poolInvoice(index, numericId);
  const template = templates[index % templates.length]!;
  return { ...template, prefixId: SERIES, numericId, id: `${SERIES}-${numericId}` };
}

/** The review-pool invoices among benchmark invoices [from, to), in order. */
export function poolInvoices(from: number, to: number): PoolInvoice[] {
  const pool: PoolInvoice[] = [];
  for (let index = Math.ceil(from / POOL_EVERY) * POOL_EVERY; index < to; index += POOL_EVERY) {
    const invoice = poolInvoice(index, String(10_000_000 + index));
    pool.push({ id: invoice.id, issuedAt: invoice.issuedAt, invoice });
  }
  return pool;
}

/** A review-pool invoice: its number and date of issue, and the invoice as seeded. */
export interface PoolInvoice {
  readonly id: string;
  readonly issuedAt: string;
  readonly invoice: Invoice;
}

async function writeBatch(db: DynamoDBDocumentClient, table: string, items: Record<string, unknown>[]): Promise<void> {
  let pending = items.map((Item) => ({ PutRequest: { Item } }));
  for (let attempt = 0; pending.length > 0; attempt += 1) {
    if (attempt > 10) throw new Error('DynamoDB Local left items unprocessed after 10 retries');
    const result = await db.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
    pending = (result.UnprocessedItems?.[table] ?? []) as typeof pending;
    if (pending.length > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
  }
}

/** Which of a benchmark invoice's items the seeding writes besides the invoice itself. */
export interface SeedFilter {
  /** The partitions whose search items are written (all of each invoice's items there), or every item. */
  readonly searchPartitions: ReadonlySet<string> | 'all';
  /**
   * The list partitions (`LIST#…`) whose entries are written, or every entry (the default). The scale suite writes
   * only those of the lists it reads, as it does for the search items: a list page's Query reads one partition.
   */
  readonly listPartitions?: ReadonlySet<string> | 'all';
  /**
   * Within a search partition kept, only the items whose sort key starts with one of these (the terms its reads ask,
   * as a key range): the scale suite's. A Query's cost is that of the items within its key range; the others in the
   * partition lie outside the range its index seek reads.
   */
  readonly searchPrefixes?: ReadonlyMap<string, readonly string[]>;
}

export interface AddOptions extends SeedFilter {
  /** Told the invoices written so far, every 5,000. */
  readonly progress?: (written: number) => void;
  /** BatchWriteItem calls in flight. */
  readonly parallel?: number;
}

/** What went in: invoices, and search items by partition. */
export interface Added {
  readonly invoices: number;
  readonly searchItems: Readonly<Record<string, number>>;
}

/**
 * The scale suite's filter (a million invoices on DynamoDB Local's one database thread): besides every
 * invoice, only the items within the key ranges its reads ask. The list read's entries (the company's PENDING list,
 * the partition the API's planner reads) and, in each search's partition, the items under the term it is read by
 * (the Query's BETWEEN range). Every read finds the same items as in a table with all of them: a Query's cost is
 * that of the items within its range, which an index seek reaches without walking the others (key-range.ts).
 */
export function scaleReadsFilter(): SeedFilter {
  const searchPrefixes = new Map<string, string[]>();
  for (const text of Object.values(BENCH_SEARCHES)) {
    const { partition, driving } = benchSearchRead(text);
    searchPrefixes.set(partition, [...(searchPrefixes.get(partition) ?? []), driving]);
  }
  const plan = planInvoiceQuery({ kind: 'COMPANY', client: BENCH_CLIENT.taxId }, { statuses: ['PENDING'] });
  return {
    searchPartitions: new Set(searchPrefixes.keys()),
    listPartitions: new Set(plan.partitions.map((read) => keys.invoiceListPartition(read.partition))),
    searchPrefixes,
  };
}

/**
 * The items of one benchmark invoice the seeding writes: the invoice (version 1), its list entries and search items
 * that `filter` keeps. The search items are returned apart too, to be counted by partition.
 */
export function seedItems(
  invoice: Invoice,
  filter: SeedFilter,
): { items: Record<string, unknown>[]; searchItems: SearchItem[] } {
  const { searchPartitions, listPartitions = 'all', searchPrefixes } = filter;
  const listed = (entry: { pk: string }) => listPartitions === 'all' || listPartitions.has(entry.pk);
  const kept = (item: SearchItem) => {
    if (searchPartitions !== 'all' && !searchPartitions.has(item.pk)) return false;
    const prefixes = searchPrefixes?.get(item.pk);
    return prefixes === undefined || prefixes.some((prefix) => item.sk.startsWith(prefix));
  };
  const searchItems = invoiceSearchItems(invoice).filter(kept);
  return {
    items: [
      { ...keys.invoice(invoice.supplierId, invoice.type, invoice.id), ...invoice, version: 1 },
      ...keys.invoiceListEntries(invoice).filter(listed),
      ...searchItems,
    ],
    searchItems,
  };
}

/**
 * Writes benchmark invoices [from, to) with `parallel` BatchWriteItem calls in flight, then moves the dashboard
 * counters of every company and month they touched.
 */
export async function addBenchInvoices(
  outputs: LocalOutputs,
  from: number,
  to: number,
  options: AddOptions,
): Promise<Added> {
  const { progress = () => undefined, parallel = 8 } = options;
  const searchItems: Record<string, number> = {};
  const db = stageDb(outputs);
  try {
    const templates = buildWorld().invoices;
    const counted: Invoice[] = [];
    let next = from;
    let done = 0;
    const worker = async () => {
      while (next < to) {
        const start = next;
        const end = Math.min(to, start + 25);
        next = end;
        const items: Record<string, unknown>[] = [];
        for (let index = start; index < end; index += 1) {
          const invoice = benchInvoice(index, templates);
          const written = seedItems(invoice, options);
          items.push(...written.items);
          for (const item of written.searchItems) searchItems[item.pk] = (searchItems[item.pk] ?? 0) + 1;
          counted.push(invoice);
        }
        for (let i = 0; i < items.length; i += 25) await writeBatch(db, outputs.tableName, items.slice(i, i + 25));
        done += end - start;
        if (done % 5_000 < end - start) progress(done);
      }
    };
    await Promise.all(Array.from({ length: parallel }, worker));
    // Every counter (dashboard, list totals) moved once per item, by the same deltas the transactions write.
    const changes = counted.map((invoice) => ({ before: null, after: invoice }));
    for (const { Update } of invoiceCounterUpdates(outputs.tableName, changes)) {
      await db.send(new UpdateCommand(Update as never));
    }
    return { invoices: to - from, searchItems };
  } finally {
    db.destroy();
  }
}

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { INVOICE_STATUS_LABELS, invoiceSearchItems, keys, type Invoice } from '@portal/shared';
import { invoiceCounterUpdates } from '../../functions/src/repositories/invoice-counters.js';
import type { LocalOutputs } from '../../infra/local/outputs.js';
import { CLIENTS, SUPPLIERS, buildWorld } from '../../infra/local/seed-data.js';
import { LOCAL_CREDENTIALS } from '../../infra/local/services/types.js';

/**
 * Bulk invoices for the API benchmark, written as the product stores them: the same items (keys.invoice and
 * keys.invoiceIndexes, version 1, and the search items) the intake writes, and the counters it moves. They go
 * in with BatchWriteItem, since 100,000 one-by-one intake transactions would take most of an hour on DynamoDB
 * Local; the counters are added once per counter item at the end, so the dashboard and the totals stay exact.
 */

/** The company the benchmark's manager reads (the first demo company), and the supplier of its review pool. */
export const BENCH_CLIENT = CLIENTS[0]!;
export const BENCH_SUPPLIER = SUPPLIERS[0]!;
/** Series of the benchmark's invoices: numbers never used by the demo world or the tests. */
const SERIES = 'B001';

/** Every `POOL_EVERY`-th generated invoice is a review-pool invoice (see `poolInvoiceIds`). */
const POOL_EVERY = 2;

function poolInvoice(index: number, numericId: string): Invoice {
  const id = `${SERIES}-${numericId}`;
  const net = 1000 + (index % 997);
  const taxAmount = Math.round(net * 18) / 100;
  // Spread over the last six months, as the demo world is.
  const issuedAt = new Date(Date.UTC(2026, 4, 1) + (index % 180) * 86_400_000).toISOString().slice(0, 10);
  return {
    id,
    prefixId: SERIES,
    numericId,
    type: 'FACTURA',
    status: 'PENDING',
    statusMessage: null,
    certStatus: 'VALID',
    approved: false,
    supplierId: BENCH_SUPPLIER.taxId,
    supplierName: BENCH_SUPPLIER.name,
    client: BENCH_CLIENT.taxId,
    clientName: BENCH_CLIENT.name,
    responsible: null,
    officeId: null,
    locationId: null,
    operationType: null,
    currency: 'PEN',
    amount: Math.round((net + taxAmount) * 100) / 100,
    taxAmount,
    serviceSheets: [],
    materialDocs: [],
    purchaseOrders: [],
    attachments: [],
    issuedAt,
    receivedAt: `${issuedAt}T12:00:00.000Z`,
    scheduledAt: null,
    paidAt: null,
    xmlUrl: null,
    pdfUrl: `bench/${id}.pdf`,
    disapprovedWithoutRejection: false,
    notes: null,
    statusHistory: [
      {
        status: 'PENDING',
        title: INVOICE_STATUS_LABELS.PENDING,
        additionalMessage: null,
        date: `${issuedAt}T12:00:00.000Z`,
        by: null,
      },
    ],
  };
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
export function poolInvoices(from: number, to: number): { id: string; issuedAt: string }[] {
  const pool: { id: string; issuedAt: string }[] = [];
  for (let index = Math.ceil(from / POOL_EVERY) * POOL_EVERY; index < to; index += POOL_EVERY) {
    const { id, issuedAt } = poolInvoice(index, String(10_000_000 + index));
    pool.push({ id, issuedAt });
  }
  return pool;
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

/**
 * Writes benchmark invoices [from, to) with `parallel` BatchWriteItem calls in flight, then moves the dashboard
 * counters of every company and month they touched.
 */
export async function addBenchInvoices(
  outputs: LocalOutputs,
  from: number,
  to: number,
  progress: (written: number) => void = () => undefined,
  parallel = 8,
): Promise<void> {
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: outputs.region,
      endpoint: outputs.endpoints.dynamodb,
      credentials: LOCAL_CREDENTIALS,
    }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  try {
    const templates = buildWorld().invoices;
    const counted: Invoice[] = [];
    let next = from;
    let written = 0;
    const worker = async () => {
      while (next < to) {
        const start = next;
        const end = Math.min(to, start + 25);
        next = end;
        const items: Record<string, unknown>[] = [];
        for (let index = start; index < end; index += 1) {
          const invoice = benchInvoice(index, templates);
          items.push({
            ...keys.invoice(invoice.supplierId, invoice.type, invoice.id),
            ...keys.invoiceIndexes(invoice),
            ...invoice,
            version: 1,
          });
          items.push(...invoiceSearchItems(invoice).map((item) => ({ ...item })));
          counted.push(invoice);
        }
        for (let i = 0; i < items.length; i += 25) await writeBatch(db, outputs.tableName, items.slice(i, i + 25));
        written += end - start;
        if (written % 5_000 < end - start) progress(written);
      }
    };
    await Promise.all(Array.from({ length: parallel }, worker));
    // Every counter (dashboard, list totals) moved once per item, by the same deltas the transactions write.
    const changes = counted.map((invoice) => ({ before: null, after: invoice }));
    for (const { Update } of invoiceCounterUpdates(outputs.tableName, changes)) {
      await db.send(new UpdateCommand(Update as never));
    }
  } finally {
    db.destroy();
  }
}

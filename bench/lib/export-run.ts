import { createWriteStream, statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { InvoiceSummary } from '@portal/shared';
import { INVOICE_COLUMNS, writeExportFile } from '../../functions/src/use-cases/export-file.js';
import { anInvoice, between, withIgv } from '../../tests/support/builders.js';

/**
 * One export file written by the exports worker's own writer (writeExportFile), alone in its process so that its
 * memory is its own: `node --import tsx bench/lib/export-run.ts <xlsx|csv> <rows> <file>`. Prints one JSON line:
 * seconds (wall and CPU), the baseline and peak resident set (MB, sampled every 20 ms) and the file's size.
 */
const [format, rowsText, file] = process.argv.slice(2) as ['xlsx' | 'csv', string, string];
const rows = Number(rowsText);
const PAGE = 100;

function invoice(n: number): InvoiceSummary {
  const { statusHistory: _history, ...summary } = anInvoice({
    id: `F${String(1 + (n % 900)).padStart(3, '0')}-${n + 1}`,
    prefixId: 'F001',
    numericId: String(n + 1),
    status: n % 3 === 0 ? 'PENDING' : 'ACCEPTED',
    approved: n % 3 !== 0,
    ...between(
      { taxId: '20100070970', name: `Compañía Peruana de Señalización Ñandú n.º ${n % 500} S.A.C.` },
      { taxId: '20512345678', name: 'Corporación Andina de Distribución S.A.' },
    ),
    responsible: { id: 'E1001', fullName: 'María José Núñez Gutiérrez', office: 'Sede Central' },
    officeId: 'Sede Central',
    locationId: 'OF-101',
    operationType: 'SERVICES',
    currency: n % 2 === 0 ? 'PEN' : 'USD',
    ...withIgv(100 + (n % 9_000) + (n % 100) / 100),
    serviceSheets: ['1000000101'],
    purchaseOrders: ['4500012000'],
    issuedAt: `2026-${String(1 + (n % 12)).padStart(2, '0')}-${String(1 + (n % 28)).padStart(2, '0')}`,
    receivedAt: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
    pdfUrl: null,
  });
  return summary;
}

/** The list's pages, made as they are read (as the worker reads them from the table). */
async function* pages() {
  for (let start = 0; start < rows; start += PAGE) {
    await new Promise((resolve) => setImmediate(resolve));
    yield Array.from({ length: Math.min(PAGE, rows - start) }, (_, i) => invoice(start + i));
  }
}

const mb = (bytes: number) => bytes / 1024 / 1024;
/** With --expose-gc: what the heap keeps once collected, before and after (retained, not merely not yet collected). */
const collect = (globalThis as { gc?: () => void }).gc;
collect?.();
const heapBefore = mb(process.memoryUsage().heapUsed);
const baseline = mb(process.memoryUsage().rss);
let peak = baseline;
const sampler = setInterval(() => (peak = Math.max(peak, mb(process.memoryUsage().rss))), 20);
const started = performance.now();
const cpuBefore = process.cpuUsage();
const written = await writeExportFile({
  format,
  list: 'invoices',
  columns: INVOICE_COLUMNS,
  rows: pages(),
  output: createWriteStream(file),
});
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
// The process's own CPU time (user + system): on a shared, loaded machine, the work done, beside the wall time.
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
clearInterval(sampler);
peak = Math.max(peak, mb(process.memoryUsage().rss));
if (written !== rows) throw new Error(`wrote ${written} rows of ${rows}`);
collect?.();
const heapGrowthMb = mb(process.memoryUsage().heapUsed) - heapBefore;
console.log(
  JSON.stringify({ seconds, cpuSeconds, baselineMb: baseline, peakMb: peak, heapGrowthMb, bytes: statSync(file).size }),
);

import type { Writable } from 'node:stream';
import type { stream } from 'exceljs';
// exceljs's streaming writer alone: the package's entry also brings its readers and CSV module (600 KB more in the
// exports worker's bundle). The package declares only its entry: the writer's type is the entry's.
// @ts-expect-error -- no declaration for the module path itself.
import WorkbookWriterModule from 'exceljs/lib/stream/xlsx/workbook-writer.js';
import {
  CERT_STATUS_LABELS,
  INVOICE_STATUS_LABELS,
  INVOICE_TYPE_LABELS,
  USER_STATUS_LABELS,
  type ConformityDocument,
  type ExportFormat,
  type ExportList,
  type ExternalUser,
  type InvoiceSummary,
} from '@portal/shared';
import { EXPORT_TITLES } from './export-names.js';

/**
 * The file of an export (docs/adr/0032-list-exports.md): a header row, then one row per item of the list, streamed
 * so that memory stays flat whatever the row count.
 * - XLSX through exceljs's streaming writer: amounts as numbers (#,##0.00), dates as dates (dd/mm/yyyy, Lima's
 *   calendar), the header bold, frozen and with an autofilter over every column.
 * - CSV as Excel opens it in es-PE: UTF-8 with a BOM, ',' between fields (Windows' list separator for es-PE, whose
 *   decimal symbol is '.'), '.' before the decimals, CRLF, RFC 4180 quoting; a text cell that starts like a
 *   formula is prefixed with an apostrophe so that Excel shows it and does not run it.
 */

export type CellKind = 'text' | 'money' | 'integer' | 'date' | 'datetime';
export type CellValue = string | number | null;

export interface ExportColumn<T> {
  readonly header: string;
  readonly kind: CellKind;
  /** Characters wide in the XLSX. */
  readonly width: number;
  /** Text; a number for money and integer; yyyy-mm-dd for date; an ISO timestamp for datetime; null when empty. */
  readonly value: (item: T) => CellValue;
}

const joined = (values: readonly string[]) => (values.length > 0 ? values.join(', ') : null);

export const INVOICE_COLUMNS: readonly ExportColumn<InvoiceSummary>[] = [
  { header: 'Tipo', kind: 'text', width: 18, value: (i) => INVOICE_TYPE_LABELS[i.type] },
  { header: 'Serie-Número', kind: 'text', width: 16, value: (i) => i.id },
  { header: 'RUC del proveedor', kind: 'text', width: 14, value: (i) => i.supplierId },
  { header: 'Proveedor', kind: 'text', width: 36, value: (i) => i.supplierName },
  { header: 'RUC de la sociedad', kind: 'text', width: 14, value: (i) => i.client },
  { header: 'Sociedad', kind: 'text', width: 30, value: (i) => i.clientName },
  { header: 'Fecha de emisión', kind: 'date', width: 12, value: (i) => i.issuedAt },
  { header: 'Recibido', kind: 'datetime', width: 17, value: (i) => i.receivedAt },
  { header: 'Moneda', kind: 'text', width: 8, value: (i) => i.currency },
  { header: 'Importe', kind: 'money', width: 14, value: (i) => i.amount },
  { header: 'IGV', kind: 'money', width: 12, value: (i) => i.taxAmount },
  { header: 'Monto a pagar', kind: 'money', width: 14, value: (i) => i.amountToPay ?? i.amount },
  { header: 'Estado', kind: 'text', width: 16, value: (i) => INVOICE_STATUS_LABELS[i.status] },
  { header: 'Validación SUNAT', kind: 'text', width: 14, value: (i) => CERT_STATUS_LABELS[i.certStatus] },
  { header: 'Responsable', kind: 'text', width: 26, value: (i) => i.responsible?.fullName ?? null },
  { header: 'Órdenes de compra', kind: 'text', width: 20, value: (i) => joined(i.purchaseOrders) },
  { header: 'HES', kind: 'text', width: 20, value: (i) => joined(i.serviceSheets) },
  { header: 'MIGO', kind: 'text', width: 20, value: (i) => joined(i.materialDocs) },
  {
    header: 'Fecha de pago estimada',
    kind: 'date',
    width: 12,
    value: (i) => i.payment?.expectedPaymentDate ?? null,
  },
  { header: 'Pago programado', kind: 'date', width: 12, value: (i) => i.scheduledAt },
  { header: 'Fecha de pago', kind: 'date', width: 12, value: (i) => i.paidAt },
];

export const CONFORMITY_COLUMNS: readonly ExportColumn<ConformityDocument>[] = [
  { header: 'Documento', kind: 'text', width: 14, value: (d) => d.documentId },
  { header: 'Ejercicio', kind: 'text', width: 9, value: (d) => d.fiscalYear },
  { header: 'RUC del proveedor', kind: 'text', width: 14, value: (d) => d.issuerTaxId },
  { header: 'RUC de la sociedad', kind: 'text', width: 14, value: (d) => d.acquirerTaxId },
  { header: 'Orden de compra', kind: 'text', width: 14, value: (d) => d.purchaseOrder },
  { header: 'Guía de remisión', kind: 'text', width: 16, value: (d) => d.deliveryNote },
  { header: 'Comprobante asociado', kind: 'text', width: 18, value: (d) => d.associatedInvoice },
  { header: 'Moneda', kind: 'text', width: 8, value: (d) => d.currency },
  { header: 'Importe', kind: 'money', width: 14, value: (d) => d.amount },
  { header: 'Responsable', kind: 'text', width: 16, value: (d) => d.responsible },
];

export const SUPPLIER_COLUMNS: readonly ExportColumn<ExternalUser>[] = [
  { header: 'Correo electrónico', kind: 'text', width: 32, value: (u) => u.email },
  { header: 'Nombres', kind: 'text', width: 20, value: (u) => u.firstName },
  { header: 'Apellidos', kind: 'text', width: 20, value: (u) => u.lastName },
  { header: 'RUC', kind: 'text', width: 14, value: (u) => u.taxId },
  { header: 'Razón social', kind: 'text', width: 36, value: (u) => u.companyName },
  { header: 'Acceso', kind: 'text', width: 14, value: (u) => (u.enabled ? 'Habilitado' : 'Deshabilitado') },
  { header: 'Estado de la cuenta', kind: 'text', width: 22, value: (u) => USER_STATUS_LABELS[u.status] ?? u.status },
  { header: 'Recibe correos', kind: 'text', width: 10, value: (u) => (u.canReceiveEmails ? 'Sí' : 'No') },
  { header: 'Creado', kind: 'datetime', width: 17, value: (u) => u.createdAt },
];

/** The columns of each list (a list's rows are its list route's items). */
export const EXPORT_COLUMNS = {
  invoices: INVOICE_COLUMNS,
  hes: CONFORMITY_COLUMNS,
  migo: CONFORMITY_COLUMNS,
  suppliers: SUPPLIER_COLUMNS,
} as const satisfies Record<ExportList, readonly ExportColumn<never>[]>;

const WorkbookWriter = WorkbookWriterModule as typeof stream.xlsx.WorkbookWriter;

/** Lima keeps UTC−5 all year (no daylight saving since 1994). */
const LIMA_OFFSET_MS = -5 * 60 * 60 * 1000;

/**
 * A cell's date as Excel holds it: a calendar day and time without zone. A yyyy-mm-dd is that day at 00:00; a
 * timestamp is the Lima wall-clock time of that moment. Written as UTC fields, which is what exceljs serializes.
 */
export function excelDate(kind: 'date' | 'datetime', value: string): Date | null {
  if (kind === 'date') {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    return match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
  }
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : new Date(at + LIMA_OFFSET_MS);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** dd/mm/yyyy (and hh:mm for a timestamp, Lima's time), the es-PE short date. */
function csvDate(kind: 'date' | 'datetime', value: string): string {
  const date = excelDate(kind, value);
  if (!date) return value;
  const day = `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${date.getUTCFullYear()}`;
  return kind === 'date' ? day : `${day} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`;
}

/**
 * What starts a formula in Excel, LibreOffice or Sheets (CSV injection, OWASP's list): `= + - @`, a tab or a carriage
 * return; also after leading spaces (a spreadsheet may trim them before it reads the cell), and in their full-width
 * forms `＝ ＋ － ＠`, which an import with width folding (Excel's East Asian settings, Sheets) reads as the ASCII ones.
 */
const FORMULA_START = /^[\p{Zs}]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r\n]/u;

export function csvField(kind: CellKind, value: CellValue): string {
  if (value === null || value === '') return '';
  let text: string;
  if (kind === 'money') text = (value as number).toFixed(2);
  else if (kind === 'integer') text = String(value);
  else if (kind === 'date' || kind === 'datetime') text = csvDate(kind, String(value));
  else text = FORMULA_START.test(String(value)) ? `'${String(value)}` : String(value);
  return /[",\r\n;]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The BOM that makes Excel read the CSV as UTF-8 (without it, accents break). */
export const CSV_BOM = '\uFEFF';
export const CSV_SEPARATOR = ',';

const NUMBER_FORMATS: Partial<Record<CellKind, string>> = {
  money: '#,##0.00',
  integer: '0',
  date: 'dd/mm/yyyy',
  datetime: 'dd/mm/yyyy hh:mm',
};

/**
 * Resolves once `stream` emits `event`; rejects when it errs or closes first. An output destroyed without an error
 * (an upload aborted) emits only 'close': waiting for its 'drain' alone would hold the export for ever.
 */
function streamEvent(stream: Writable, event: 'drain' | 'finish'): Promise<void> {
  return new Promise((resolve, reject) => {
    if (stream.destroyed) {
      reject(new Error(`the export's output closed before its ${event}`));
      return;
    }
    const settle = (error?: Error) => {
      stream.off(event, onEvent).off('close', onClose).off('error', onError);
      if (error) reject(error);
      else resolve();
    };
    const onEvent = () => settle();
    const onClose = () => settle(new Error(`the export's output closed before its ${event}`));
    const onError = (error: Error) => settle(error);
    stream.on(event, onEvent).on('close', onClose).on('error', onError);
  });
}

/** Writes to `output`, waiting for it to drain when its buffer is full (the flat memory of a long export). */
async function write(output: Writable, chunk: string): Promise<void> {
  if (!output.write(chunk)) await streamEvent(output, 'drain');
}

export interface ExportFileOptions<T> {
  readonly format: ExportFormat;
  readonly list: ExportList;
  readonly columns: readonly ExportColumn<T>[];
  /** The list's items, page after page. */
  readonly rows: AsyncIterable<readonly T[]>;
  /** Receives the file's bytes; ended when the file is complete. */
  readonly output: Writable;
  /** Told the rows written so far after each page. */
  readonly onProgress?: (rows: number) => Promise<void>;
}

/** Streams the file of an export into `output`; resolves with the number of rows written. */
export async function writeExportFile<T>(options: ExportFileOptions<T>): Promise<number> {
  return options.format === 'xlsx' ? writeXlsx(options) : writeCsv(options);
}

async function writeCsv<T>({ columns, rows, output, onProgress }: ExportFileOptions<T>): Promise<number> {
  let count = 0;
  await write(output, CSV_BOM + columns.map((column) => csvField('text', column.header)).join(CSV_SEPARATOR) + '\r\n');
  for await (const page of rows) {
    let chunk = '';
    for (const item of page) {
      chunk += columns.map((column) => csvField(column.kind, column.value(item))).join(CSV_SEPARATOR) + '\r\n';
    }
    await write(output, chunk);
    count += page.length;
    await onProgress?.(count);
  }
  output.end();
  await streamEvent(output, 'finish');
  return count;
}

/**
 * exceljs's sheet stream hands its 64 KB buffers to the zip's entry without waiting for it (its StreamBuf ignores
 * what write() answers), so rows written faster than they are compressed and sent pile up in memory: 300,000 rows
 * peaked at 295 MB (memory bounded per page). After each page, the writer waits until the entry has taken in what it was given,
 * which holds the rows to the pace of the output: the same peak whatever the row count.
 */
async function zipCaughtUp(sheet: unknown, zip: unknown, output: Writable): Promise<void> {
  // The entry is archiver's PassThrough of the readable-stream package, whose state is not exposed as Node's is.
  type Entry = Writable & { readonly _writableState?: { readonly needDrain?: boolean } };
  const pipes = (sheet as { stream: { pipes?: readonly Entry[] } }).stream.pipes ?? [];
  for (const pipe of pipes) {
    if (pipe.writableNeedDrain ?? pipe._writableState?.needDrain) await streamEvent(pipe, 'drain');
  }
  // archiver pushes what it compressed to its readable side whatever push() answers: while the output holds more than
  // it takes, the archive's own buffer would grow with the rows. Wait for the output until that buffer is small.
  const archived = zip as { readonly _readableState?: { readonly length?: number } };
  if (output.destroyed) throw new Error("the export's output closed before the file was complete");
  while ((archived._readableState?.length ?? 0) > ZIP_BACKLOG_BYTES && output.writableNeedDrain) {
    await streamEvent(output, 'drain');
  }
}

/** What the archive may hold compressed before the writer waits for the output (one part of an S3 upload is 5 MB). */
const ZIP_BACKLOG_BYTES = 256 * 1024;

async function writeXlsx<T>({ list, columns, rows, output, onProgress }: ExportFileOptions<T>): Promise<number> {
  // Inline strings (no shared-strings table kept in memory); styles for the number and date formats.
  const workbook = new WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  workbook.creator = 'Portal de Proveedores';
  const sheet = workbook.addWorksheet(EXPORT_TITLES[list], {
    views: [{ state: 'frozen', xSplit: 0, ySplit: 1, activeCell: 'A2' }],
  });
  sheet.columns = columns.map((column) => ({
    header: column.header,
    width: column.width,
    ...(NUMBER_FORMATS[column.kind] ? { style: { numFmt: NUMBER_FORMATS[column.kind] } } : {}),
  }));
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.commit();

  let count = 0;
  for await (const page of rows) {
    for (const item of page) {
      const values = columns.map((column) => {
        const value = column.value(item);
        if (value === null) return null;
        if (column.kind === 'date' || column.kind === 'datetime') return excelDate(column.kind, String(value));
        return value;
      });
      sheet.addRow(values).commit();
    }
    await zipCaughtUp(sheet, (workbook as unknown as { zip: unknown }).zip, output);
    count += page.length;
    await onProgress?.(count);
  }
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: Math.max(count + 1, 1), column: columns.length } };
  sheet.commit();
  await workbook.commit();
  return count;
}

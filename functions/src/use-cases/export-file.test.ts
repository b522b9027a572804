import { randomBytes } from 'node:crypto';
import { PassThrough, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { ExternalUser } from '@portal/shared';
import { CSV_BOM, SUPPLIER_COLUMNS, csvField, writeExportFile, type ExportColumn } from './export-file.js';

interface Row {
  readonly name: string;
  readonly amount: number;
  readonly day: string | null;
  readonly at: string;
}

const COLUMNS: readonly ExportColumn<Row>[] = [
  { header: 'Razón social', kind: 'text', width: 20, value: (r) => r.name },
  { header: 'Importe', kind: 'money', width: 12, value: (r) => r.amount },
  { header: 'Fecha de emisión', kind: 'date', width: 12, value: (r) => r.day },
  { header: 'Recibido', kind: 'datetime', width: 16, value: (r) => r.at },
];

async function* pages(rows: readonly Row[], size: number) {
  for (let start = 0; start < rows.length; start += size) {
    await Promise.resolve();
    yield rows.slice(start, start + size);
  }
}

async function fileOf(format: 'xlsx' | 'csv', rows: readonly Row[]): Promise<{ bytes: Buffer; count: number }> {
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on('data', (chunk: Buffer) => chunks.push(chunk));
  const progress: number[] = [];
  const count = await writeExportFile({
    format,
    list: 'invoices',
    columns: COLUMNS,
    rows: pages(rows, 2),
    output,
    onProgress: async (n) => {
      progress.push(n);
    },
  });
  expect(progress.at(-1) ?? 0).toBe(rows.length);
  return { bytes: Buffer.concat(chunks), count };
}

const ROWS: Row[] = [
  { name: 'Compañía Peruana de Ñandúes S.A.C.', amount: 1234.5, day: '2026-03-05', at: '2026-03-05T02:30:00.000Z' },
  { name: '=HYPERLINK("http://x")', amount: 0.1, day: null, at: '2026-03-06T15:00:00.000Z' },
  { name: 'Acme, "la mejor"', amount: 99999999.99, day: '2025-12-31', at: '2026-01-01T04:59:00.000Z' },
];

describe('the file of an export', () => {
  it('XLSX: numbers are numbers, dates are dates (Lima), accents kept, header frozen with an autofilter', async () => {
    const { bytes, count } = await fileOf('xlsx', ROWS);
    expect(count).toBe(3);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.name).toBe('Comprobantes');
    expect(sheet.getRow(1).values).toEqual([undefined, 'Razón social', 'Importe', 'Fecha de emisión', 'Recibido']);
    expect(sheet.getRow(1).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toBe('A1:D4');
    expect(sheet.rowCount).toBe(4);

    const first = sheet.getRow(2);
    expect(first.getCell(1).value).toBe('Compañía Peruana de Ñandúes S.A.C.');
    expect(first.getCell(2).value).toBe(1234.5);
    expect(first.getCell(2).numFmt).toBe('#,##0.00');
    expect(first.getCell(3).value).toEqual(new Date(Date.UTC(2026, 2, 5)));
    expect(first.getCell(3).numFmt).toBe('dd/mm/yyyy');
    // 02:30 UTC on the 5th is 21:30 of the 4th in Lima.
    expect(first.getCell(4).value).toEqual(new Date(Date.UTC(2026, 2, 4, 21, 30)));
    // A formula-looking text stays text in XLSX (an inline string is never evaluated).
    expect(sheet.getRow(3).getCell(1).value).toBe('=HYPERLINK("http://x")');
    expect(sheet.getRow(3).getCell(3).value).toBeNull();
  });

  it('CSV: BOM, comma-separated, decimal point, es-PE dates, quoted and formula-safe', async () => {
    const { bytes } = await fileOf('csv', ROWS);
    const text = bytes.toString('utf8');
    expect(text.startsWith(CSV_BOM)).toBe(true);
    expect(text.slice(1).split('\r\n')).toEqual([
      'Razón social,Importe,Fecha de emisión,Recibido',
      'Compañía Peruana de Ñandúes S.A.C.,1234.50,05/03/2026,04/03/2026 21:30',
      `"'=HYPERLINK(""http://x"")",0.10,,06/03/2026 10:00`,
      '"Acme, ""la mejor""",99999999.99,31/12/2025,31/12/2025 23:59',
      '',
    ]);
  });

  it('an empty result is a header row only', async () => {
    const xlsx = await fileOf('xlsx', []);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    expect(book.worksheets[0]!.rowCount).toBe(1);
    expect((await fileOf('csv', [])).bytes.toString('utf8')).toBe(
      `${CSV_BOM}Razón social,Importe,Fecha de emisión,Recibido\r\n`,
    );
  });

  it('formula starters are neutralized in every text cell of a CSV', () => {
    for (const start of ['=', '+', '-', '@']) expect(csvField('text', `${start}1+1`)).toBe(`'${start}1+1`);
    // After leading spaces (ASCII, no-break, ideographic) and in full-width form, as a spreadsheet may read them.
    for (const start of [' =', '  +', '\u00a0-', '\u3000@', '＝', '＋', '－', '＠', ' ＝', '\n=']) {
      expect(csvField('text', `${start}1+1`)).toMatch(/^"?'/);
    }
    // Text that merely contains them, or starts with a space before a letter, is written as it is.
    for (const text of [' Juan Pérez', 'A=B', 'Ñandú＋', '20100070970']) expect(csvField('text', text)).toBe(text);
    expect(csvField('money', -5)).toBe('-5.00');
  });

  it('the suppliers list reads its accounts in Spanish', () => {
    const user: ExternalUser = {
      id: 'u1',
      taxId: '20100070970',
      firstName: 'José',
      lastName: 'Núñez',
      role: 'SUPPLIER',
      companyName: 'Supermercados Peruanos S.A.',
      email: 'jose@ejemplo.pe',
      enabled: false,
      status: 'CONFIRMED',
      createdAt: '2026-01-02T10:00:00.000Z',
      canReceiveEmails: true,
    };
    expect(SUPPLIER_COLUMNS.map((column) => column.value(user))).toEqual([
      'jose@ejemplo.pe',
      'José',
      'Núñez',
      '20100070970',
      'Supermercados Peruanos S.A.',
      'Deshabilitado',
      expect.any(String),
      'Sí',
      '2026-01-02T10:00:00.000Z',
    ]);
  });
});

describe('an XLSX export whose output stalls (an S3 upload waiting on a part)', () => {
  it('stops reading the list until the output takes in what it was given, then finishes the whole file', async () => {
    let pulled = 0;
    const rows = Array.from({ length: 20_000 }, (_, i) => ({
      // Text that compresses little: the buffers between the sheet and the output hold a few rows, not the file.
      name: `Proveedor ${i} ${randomBytes(24).toString('hex')}`,
      amount: i + 0.5,
      day: '2026-11-20',
      at: '2026-11-20T15:00:00.000Z',
    }));
    async function* counted() {
      for await (const page of pages(rows, 100)) {
        pulled += page.length;
        yield page;
      }
    }
    // Nothing leaves until the test lets it: the writer's buffers fill, and it must wait rather than read on.
    const held: (() => void)[] = [];
    let stalled = true;
    const chunks: Buffer[] = [];
    const output = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        if (stalled) held.push(done);
        else done();
      },
    });
    const writing = writeExportFile({ format: 'xlsx', list: 'invoices', columns: COLUMNS, rows: counted(), output });

    // Until reading has stopped: the output holds a write and the rows read stay the same for 200 ms (a count of
    // event-loop turns said nothing on a busy machine, where the compression in the thread pool lags behind them).
    const deadline = Date.now() + 10_000;
    let seen = -1;
    let since = Date.now();
    while (Date.now() < deadline && Date.now() - since < 200) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (pulled !== seen || held.length === 0) {
        seen = pulled;
        since = Date.now();
      }
    }
    expect(held.length).toBeGreaterThan(0);
    expect(pulled).toBeGreaterThan(0);
    expect(pulled).toBeLessThan(rows.length / 2);

    stalled = false;
    for (const done of held.splice(0)) done();
    expect(await writing).toBe(rows.length);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.concat(chunks) as never);
    expect(workbook.worksheets[0]!.rowCount).toBe(rows.length + 1);
  });
});

describe('an export whose output is closed while it waits (an upload aborted without an error)', () => {
  it.each(['xlsx', 'csv'] as const)('fails instead of waiting for ever (%s)', async (format) => {
    const rows = Array.from({ length: 20_000 }, (_, i) => ({
      name: `Proveedor ${i} ${randomBytes(24).toString('hex')}`,
      amount: i,
      day: '2026-11-20',
      at: '2026-11-20T15:00:00.000Z',
    }));
    const held: (() => void)[] = [];
    const output = new Writable({
      highWaterMark: 16 * 1024,
      write(_chunk: Buffer, _encoding, done) {
        held.push(done);
      },
    });
    const writing = writeExportFile({ format, list: 'invoices', columns: COLUMNS, rows: pages(rows, 100), output });
    const outcome = writing.then(
      () => 'finished',
      (error: Error) => error.message,
    );
    const deadline = Date.now() + 10_000;
    while (held.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(held.length).toBeGreaterThan(0);

    output.destroy();
    const timeout = new Promise((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5_000));
    expect(await Promise.race([outcome, timeout])).toMatch(/output closed before/);
  });
});

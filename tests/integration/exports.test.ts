import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { keys, routes, withCheckDigit, type ExportJob, type Invoice, type InvoiceStatus } from '@portal/shared';
import { CLIENTS, SUPPLIERS } from '../support/tenant.js';
import { makeStreamUploads } from '../../functions/src/adapters/s3-uploads.js';
import { makeExportJobRepository, type StoredExportJob } from '../../functions/src/repositories/export-jobs.js';
import { makeInvoiceRepository } from '../../functions/src/repositories/invoices.js';
import { makeNotificationRepository } from '../../functions/src/repositories/notifications.js';
import { makeExportRunner } from '../../functions/src/use-cases/export-runner.js';
import { makeListInvoices } from '../../functions/src/use-cases/list-invoices.js';
import { LOCAL_CREDENTIALS } from '../../local/stand-ins/types.js';
import { call, idTokenOf } from '../support/api.js';
import { bulkInvoice, table } from '../support/fixtures.js';
import { runSchedule } from '../support/schedules.js';
import { demoUser, stage } from '../support/stage.js';
import { readUntil, until } from '../support/until.js';

afterAll(() => {
  vi.unstubAllEnvs();
});

/**
 * "Exportar": the whole filtered list as a file, made by the exports worker on the local stage (DynamoDB
 * Local, the SQS stand-in and its poller, s3rver behind the strict presign check).
 */
const COMPANY = CLIENTS[0]!;
const SUPPLIER = {
  taxId: withCheckDigit(`207${String(Date.now() % 10_000_000).padStart(7, '0')}`),
  name: 'Compañía Ñandú de Exportación y Señalización S.A.C.',
};
const MATCHING = 1000;
const OTHERS = 40;

const tokenOf = (role: 'MANAGER' | 'ADMIN') => idTokenOf(demoUser(role).username, demoUser(role).password);
const supplierToken = () => {
  const user = demoUser('SUPPLIER');
  return idTokenOf(user.username, user.password);
};
const subOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string }).sub;

const invoiceOf = (n: number, status: InvoiceStatus): Invoice =>
  bulkInvoice(n, { prefix: 'EX01', supplier: SUPPLIER, company: COMPANY, status });

/** Polls the export until it is READY or FAILED. */
async function finished(token: string, id: string): Promise<ExportJob> {
  return until(
    async () => {
      const { status, body } = await call<ExportJob>(routes.getExport, { token, path: { exportId: id } });
      expect(status).toBe(200);
      return (body.status === 'READY' || body.status === 'FAILED') && body;
    },
    { timeout: 150_000, interval: 500, message: `export ${id} to end` },
  );
}

const seeded: Invoice[] = [];

beforeAll(async () => {
  const store = table();
  const invoices = [
    ...Array.from({ length: MATCHING }, (_, n) => invoiceOf(n, 'PENDING')),
    ...Array.from({ length: OTHERS }, (_, n) => invoiceOf(MATCHING + n, 'COMPLETED')),
  ];
  await store.putInvoices(invoices);
  seeded.push(...invoices);
}, 600_000);

describe('exports of the lists', () => {
  it('a manager exports 1,000 filtered invoices to XLSX: numbers, dates and accents open correctly', async () => {
    const token = await tokenOf('MANAGER');
    const filters = { issuer: SUPPLIER.taxId, invoiceStatus: 'PENDING' };
    const asked = await call<ExportJob>(routes.createExport, {
      token,
      body: { list: 'invoices', format: 'xlsx', filters },
      headers: { 'company-id': COMPANY.taxId },
    });
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ status: 'QUEUED', total: MATCHING, rows: 0, url: null });

    const job = await finished(token, asked.body.id);
    expect(job).toMatchObject({ status: 'READY', rows: MATCHING, progress: 1 });
    expect(job.fileName).toMatch(/^Comprobantes \d{4}-\d{2}-\d{2} \d{2}\.\d{2}\.xlsx$/);

    const file = await fetch(job.url!);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain('attachment; filename="Comprobantes');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await file.arrayBuffer());
    const sheet = book.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
    expect(header).toContain('Fecha de emisión');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toBe(`A1:${sheet.getColumn(header.length).letter}${MATCHING + 1}`);
    expect(sheet.rowCount).toBe(MATCHING + 1);

    const column = (name: string) => header.indexOf(name) + 1;
    const byId = new Map(seeded.map((invoice) => [invoice.id, invoice]));
    const exported = new Set<string>();
    for (let r = 2; r <= sheet.rowCount; r += 1) {
      const row = sheet.getRow(r);
      const invoice = byId.get(String(row.getCell(column('Serie-Número')).value))!;
      expect(invoice.status).toBe('PENDING');
      exported.add(invoice.id);
      expect(row.getCell(column('Proveedor')).value).toBe('Compañía Ñandú de Exportación y Señalización S.A.C.');
      const amount = row.getCell(column('Importe'));
      expect(typeof amount.value).toBe('number');
      expect(amount.value).toBe(invoice.amount);
      expect(amount.numFmt).toBe('#,##0.00');
      const issued = row.getCell(column('Fecha de emisión'));
      expect(issued.value).toBeInstanceOf(Date);
      expect((issued.value as Date).toISOString().slice(0, 10)).toBe(invoice.issuedAt);
      expect(issued.numFmt).toBe('dd/mm/yyyy');
      expect(row.getCell(column('Estado')).value).toBe('Debe revisar');
    }
    expect(exported.size).toBe(MATCHING);

    // The notice reaches the manager's own feed (and no one else's).
    const feed = await call<{ items: { message: string }[] }>(routes.listNotifications, { token });
    expect(feed.body.items.map((item) => item.message)).toContain(
      `Su archivo «${job.fileName}» de Mis comprobantes (1,000 filas) está listo para descargar desde la lista.`,
    );
    const admin = await tokenOf('ADMIN');
    const theirs = await call<{ items: { message: string }[] }>(routes.listNotifications, { token: admin });
    expect(theirs.body.items.map((item) => item.message).join('\n')).not.toContain(job.fileName);

    // Another user's export id is not found, in Spanish.
    const stranger = await call(routes.getExport, { token: admin, path: { exportId: job.id } });
    expect(stranger.status).toBe(404);
    expect(stranger.body.errors[0].code).toBe('ERROR_EXPORT_NOT_FOUND');
    expect(stranger.body.message).toBe('No se encontró la exportación solicitada.');
  }, 300_000);

  it('a supplier exports only its own invoices, whatever it asks', async () => {
    const token = await supplierToken();
    const own = demoUser('SUPPLIER').taxId!;
    const other = await call(routes.createExport, {
      token,
      body: { list: 'invoices', format: 'csv', filters: { issuer: SUPPLIERS[1]!.taxId } },
    });
    expect(other.status).toBe(403);
    expect(other.body.errors[0].code).toBe('ERROR_COMPANY_NOT_ALLOWED');
    const staffList = await call(routes.createExport, { token, body: { list: 'hes', format: 'csv', filters: {} } });
    expect(staffList.status).toBe(403);
    expect(staffList.body.errors[0].code).toBe('ERROR_EXPORT_LIST_NOT_ALLOWED');

    const asked = await call<ExportJob>(routes.createExport, { token, body: { list: 'invoices', format: 'csv' } });
    expect(asked.status).toBe(202);
    const job = await finished(token, asked.body.id);
    const count = await call<{ count: number }>(routes.countInvoices, { token });
    expect(job.rows).toBe(count.body.count);

    const bytes = Buffer.from(await (await fetch(job.url!)).arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').trimEnd().split('\r\n');
    expect(lines).toHaveLength(job.rows + 1);
    const ruc = lines[0]!.split(',').indexOf('RUC del proveedor');
    for (const line of lines.slice(1)) expect(line.split(',')[ruc]).toBe(own);
  }, 300_000);

  it('a worker that dies mid-file: the retry makes the whole file again, the job READY with every row, one file', async () => {
    // The exports worker's code in this process, on the stage's table and bucket, so that it can be made to die:
    // the job is written without its queue message, so that the stage's own worker never takes it.
    const { endpoints, region, tableName, documentsBucket } = stage();
    const db = DynamoDBDocumentClient.from(
      new DynamoDBClient({ region, endpoint: endpoints.dynamodb, credentials: LOCAL_CREDENTIALS }),
      { marshallOptions: { removeUndefinedValues: true } },
    );
    // As the stage's own workers run (its environment); restored when the file ends.
    vi.stubEnv('AWS_REQUEST_CHECKSUM_CALCULATION', 'WHEN_REQUIRED');
    vi.stubEnv('AWS_RESPONSE_CHECKSUM_VALIDATION', 'WHEN_REQUIRED');
    const bucket = {
      name: documentsBucket,
      endpoint: endpoints.s3,
      region,
      credentials: LOCAL_CREDENTIALS,
      pathStyle: true,
    };
    const token = await tokenOf('MANAGER');
    const sub = subOf(token);
    const id = crypto.randomUUID();
    const job: StoredExportJob = {
      id,
      userId: sub,
      list: 'invoices',
      format: 'xlsx',
      filters: { issuer: SUPPLIER.taxId, invoiceStatus: 'PENDING' },
      requester: {
        sub,
        username: demoUser('MANAGER').username,
        email: demoUser('MANAGER').username,
        firstName: 'Carmen',
        lastName: 'Gutiérrez',
        level: 'MANAGER',
        taxIds: demoUser('MANAGER').taxId!.split(','),
        groups: [],
        activeCompany: COMPANY.taxId,
      },
      status: 'QUEUED',
      rows: 0,
      total: MATCHING,
      attempts: 0,
      key: `exports/${sub}/${id}.xlsx`,
      fileName: 'Comprobantes.xlsx',
      createdAt: new Date().toISOString(),
      startedAt: null,
      finishedAt: null,
      error: null,
      resumedAt: null,
    };
    const jobs = makeExportJobRepository(db, tableName);
    await table().put({ ...keys.exportJob(sub, id), ...job });

    const list = makeListInvoices({ invoices: makeInvoiceRepository(db, tableName) });
    let pages = 0;
    let dies = true;
    const runner = makeExportRunner({
      jobs,
      sources: {
        async listInvoices(caller, query) {
          pages += 1;
          if (dies && pages === 4) throw new Error('el worker murió a mitad del archivo');
          return list(caller, query);
        },
        listConformity: () => Promise.reject(new Error('not this list')),
        listSuppliers: () => Promise.reject(new Error('not this list')),
      },
      upload: (key, contentType) => makeStreamUploads(bucket).upload(key, contentType),
      feed: makeNotificationRepository(db, tableName),
      clock: () => new Date(),
      progressEvery: 100,
    });

    const message = { userId: sub, exportId: id };
    await expect(runner.run(message, false)).rejects.toThrow('el worker murió');
    expect(await jobs.get(sub, id)).toMatchObject({ status: 'RUNNING', attempts: 1, rows: 300 });
    const s3 = new S3Client({ region, endpoint: endpoints.s3, credentials: LOCAL_CREDENTIALS, forcePathStyle: true });
    const objects = async () =>
      (
        (await s3.send(new ListObjectsV2Command({ Bucket: documentsBucket, Prefix: `exports/${sub}/${id}` })))
          .Contents ?? []
      ).map((object) => object.Key);
    expect(await objects()).toEqual([]);

    dies = false;
    await runner.run(message, false);
    expect(await jobs.get(sub, id)).toMatchObject({ status: 'READY', attempts: 2, rows: MATCHING });
    expect(await objects()).toEqual([job.key]);
    // The message delivered once more: nothing is made again.
    await runner.run(message, false);
    expect(await jobs.get(sub, id)).toMatchObject({ status: 'READY', attempts: 2 });

    const read = await call<ExportJob>(routes.getExport, { token, path: { exportId: id } });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await (await fetch(read.body.url!)).arrayBuffer());
    expect(book.worksheets[0]!.rowCount).toBe(MATCHING + 1);
    s3.destroy();
  }, 300_000);

  it('refuses oversized and hostile filters with 400, before any job', async () => {
    const token = await tokenOf('MANAGER');
    const refused = async (body: unknown) => {
      const answer = await call(routes.createExport, { token, body, headers: { 'company-id': COMPANY.taxId } });
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      return answer.body.errors[0] as { code: string; parameters: Record<string, unknown> };
    };
    const injected = await refused({ list: 'invoices', format: 'xlsx', filters: { invoiceStatus: 'PENDING); DROP' } });
    expect(injected.code).toBe('ERROR_INVALID_PARAMETER');
    expect(String(injected.parameters.parameter)).toMatch(/^invoiceStatus/);
    expect(await refused({ list: 'invoices', format: 'xlsx', filters: { search: 'x'.repeat(1001) } })).toMatchObject({
      code: 'ERROR_INVALID_PARAMETER',
    });
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, n) => ['a'.repeat(n + 1), '1']));
    expect((await refused({ list: 'invoices', format: 'xlsx', filters: many })).code).toBe('ERROR_INVALID_PARAMETER');
    expect((await refused({ list: 'everything', format: 'xlsx' })).code).toBe('ERROR_INVALID_PARAMETER');
    expect((await refused({ list: 'invoices', format: 'pdf' })).code).toBe('ERROR_INVALID_PARAMETER');
    expect((await refused({ list: 'invoices', format: 'csv', filters: { dueFrom: '2026-02-30' } })).code).toBe(
      'ERROR_INVALID_PARAMETER',
    );
    expect((await refused({ list: 'invoices', format: 'csv', filters: { 'a b': 'x' } })).code).toBe(
      'ERROR_INVALID_PARAMETER',
    );
    expect((await refused({ list: 'invoices', format: 'csv', extra: true })).code).toBe('ERROR_INVALID_PARAMETER');
  });

  it('two exports at once by the same user both finish, each its own file', async () => {
    const token = await tokenOf('ADMIN');
    // The accounts of this file's suppliers only: other files create supplier accounts while the two run.
    const filters = { query: SUPPLIERS[0]!.taxId };
    const [xlsx, csv] = await Promise.all(
      (['xlsx', 'csv'] as const).map((format) =>
        call<ExportJob>(routes.createExport, { token, body: { list: 'suppliers', format, filters } }),
      ),
    );
    expect([xlsx!.status, csv!.status]).toEqual([202, 202]);
    expect(xlsx!.body.id).not.toBe(csv!.body.id);
    const [a, b] = await Promise.all([finished(token, xlsx!.body.id), finished(token, csv!.body.id)]);
    expect([a.status, b.status]).toEqual(['READY', 'READY']);
    expect(a.rows).toBe(b.rows);
    expect(a.rows).toBeGreaterThan(0);
    const text = await (await fetch(b.url!)).text();
    expect(text.trimEnd().split('\r\n')).toHaveLength(b.rows + 1);
    expect(text).toContain('Correo electrónico,Nombres,Apellidos,RUC,Razón social');
    expect(text).toContain(SUPPLIERS[0]!.taxId);

    // Both notices reached the administrator's own feed; they go, so that the administrator's feed stays as the
    // other tests know it (an administrator has no company feed: tests/e2e/notifications.test.ts).
    const own = await table().partition(`FEED#USER#${subOf(token)}`);
    expect(own.map((item) => item.message).join('\n')).toContain(a.fileName);
    for (const item of own) await table().delete({ pk: String(item.pk), sk: String(item.sk) });
  }, 300_000);

  it('an export whose worker stopped is handed over by the next sweep and made whole again, «reanudada»', async () => {
    const token = await tokenOf('ADMIN');
    const filters = { query: SUPPLIERS[0]!.taxId };
    const created = await call<ExportJob>(routes.createExport, {
      token,
      body: { list: 'suppliers', format: 'csv', filters },
    });
    expect(created.status).toBe(202);
    const first = await finished(token, created.body.id);
    expect(first.status).toBe('READY');
    // As a worker killed mid-file leaves it: RUNNING under the lease of a run that is gone (lapsed ten seconds ago),
    // some rows written, and no queue message (the one it took is in flight, invisible for the visibility timeout).
    const key = keys.exportJob(subOf(token), created.body.id);
    const stored = (await table().get(key))!;
    const lapsedAt = new Date(Date.now() - 10_000).toISOString();
    await table().put({
      ...stored,
      status: 'RUNNING',
      rows: 1,
      finishedAt: null,
      leaseOwner: 'a-run-that-crashed',
      leaseUntil: lapsedAt,
      gsi1pk: keys.jobLeases,
      gsi1sk: `${lapsedAt}#${key.pk}#${key.sk}`,
    });

    await runSchedule('OutboxSweeper');
    const resumed = await finished(token, created.body.id);

    expect(resumed).toMatchObject({ status: 'READY', rows: first.rows });
    expect(resumed.resumedAt).not.toBeNull();
    const text = await (await fetch(resumed.url!)).text();
    expect(text.trimEnd().split('\r\n')).toHaveLength(first.rows + 1);
    const own = await table().partition(`FEED#USER#${subOf(token)}`);
    for (const item of own) await table().delete({ pk: String(item.pk), sk: String(item.sk) });
  }, 300_000);

  describe('a user with three exports under way', () => {
    const queued: { pk: string; sk: string }[] = [];
    afterAll(async () => {
      for (const key of queued) await table().delete(key);
    });

    it('is refused a fourth, in Spanish, until one ends', async () => {
      const token = await tokenOf('MANAGER');
      const sub = subOf(token);
      // Exports this user asked for elsewhere end first (each takes seconds), so that exactly three are under way.
      const underWay = async () =>
        (await table().partition(`USER#${sub}`)).filter(
          (item) => String(item.sk).startsWith('EXPORT#') && ['QUEUED', 'RUNNING'].includes(String(item.status)),
        ).length;
      await readUntil(underWay, (count) => count === 0, { timeout: 120_000, interval: 500 });
      for (let n = 0; n < 3; n += 1) {
        const id = `00000000-0000-4000-8000-${String(Date.now() + n)
          .padStart(12, '0')
          .slice(-12)}`;
        const key = keys.exportJob(sub, id);
        queued.push(key);
        await table().put({
          ...key,
          id,
          userId: sub,
          list: 'invoices',
          format: 'csv',
          filters: {},
          requester: {
            sub,
            username: sub,
            email: '',
            firstName: '',
            lastName: '',
            level: 'MANAGER',
            taxIds: [],
            groups: [],
            activeCompany: null,
          },
          status: n === 0 ? 'RUNNING' : 'QUEUED',
          rows: 0,
          total: null,
          attempts: 0,
          key: `exports/${sub}/${id}.csv`,
          fileName: 'x.csv',
          createdAt: new Date().toISOString(),
          startedAt: null,
          finishedAt: null,
          error: null,
        });
      }
      const fourth = await call(routes.createExport, {
        token,
        body: { list: 'invoices', format: 'csv', filters: { issuer: SUPPLIER.taxId } },
        headers: { 'company-id': COMPANY.taxId },
      });
      expect(fourth.status).toBe(409);
      expect(fourth.body.errors[0].code).toBe('ERROR_TOO_MANY_EXPORTS');
      expect(fourth.body.message).toBe(
        'Ya tiene 3 exportaciones en curso. Espere a que termine alguna antes de pedir otra.',
      );

      await table().delete(queued.pop()!);
      const next = await call(routes.createExport, {
        token,
        body: { list: 'invoices', format: 'csv', filters: { issuer: SUPPLIER.taxId, invoiceStatus: 'COMPLETED' } },
        headers: { 'company-id': COMPANY.taxId },
      });
      expect(next.status).toBe(202);
      expect((await finished(token, (next.body as ExportJob).id)).rows).toBe(OTHERS);
    }, 300_000);
  });
});

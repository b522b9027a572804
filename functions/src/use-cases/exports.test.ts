import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ExternalUser } from '@portal/shared';
import type { Caller } from '../http/caller.js';
import type { StoredExportJob } from '../repositories/export-jobs.js';
import type { FeedItem } from '../repositories/notifications.js';
import { exportRows, makeExportRunner, type ExportUpload } from './export-runner.js';
import {
  MAX_RUNNING_EXPORTS,
  attachmentDisposition,
  makeReadExport,
  makeRequestExport,
  type ExportSources,
} from './exports.js';

const ADMIN: Caller = {
  sub: 'admin-1',
  username: 'admin-1',
  email: 'admin@grupo.pe',
  firstName: 'Ana',
  lastName: 'Pérez',
  level: 'ADMIN',
  taxIds: [],
  groups: [],
  activeCompany: null,
  expiresAt: 0,
  signIn: 'CORPORATE',
  txId: 'tx-export',
};

const account = (n: number): ExternalUser => ({
  id: `u${n}`,
  taxId: '20100070970',
  firstName: 'José',
  lastName: `Núñez ${n}`,
  role: 'SUPPLIER',
  companyName: 'Supermercados Peruanos S.A.',
  email: `user${n}@ejemplo.pe`,
  enabled: true,
  status: 'CONFIRMED',
  createdAt: '2026-01-02T10:00:00.000Z',
  canReceiveEmails: true,
});

/** A table of jobs as the repository keeps them (conditions included), in memory. */
function fakeJobs() {
  const jobs = new Map<string, StoredExportJob>();
  const id = (job: Pick<StoredExportJob, 'userId' | 'id'>) => `${job.userId}/${job.id}`;
  return {
    jobs,
    async create(job: StoredExportJob) {
      jobs.set(id(job), { ...job });
    },
    async get(userId: string, exportId: string) {
      const job = jobs.get(`${userId}/${exportId}`);
      return job ? { ...job } : null;
    },
    async unfinished(userId: string) {
      return [...jobs.values()].filter((job) => job.userId === userId && ['QUEUED', 'RUNNING'].includes(job.status));
    },
    async start(job: StoredExportJob, owner: string, now: string, until: string) {
      const stored = jobs.get(id(job))!;
      if (stored.status === 'READY' || stored.status === 'FAILED') return 'ENDED' as const;
      const lapsed = stored.status === 'RUNNING' && (stored.leaseUntil ?? '') <= now;
      if (stored.status === 'RUNNING' && !lapsed) return 'BUSY' as const;
      Object.assign(stored, {
        status: 'RUNNING',
        attempts: stored.attempts + 1,
        rows: 0,
        leaseOwner: owner,
        leaseUntil: until,
        ...(lapsed ? { resumedAt: now } : { startedAt: now }),
      });
      return lapsed ? ('RESUMED' as const) : ('STARTED' as const);
    },
    async renew(job: StoredExportJob, owner: string, until: string) {
      const stored = jobs.get(id(job))!;
      if (stored.status !== 'RUNNING' || stored.leaseOwner !== owner) return false;
      stored.leaseUntil = until;
      return true;
    },
    async release(job: StoredExportJob, owner: string, now: string) {
      const stored = jobs.get(id(job))!;
      if (stored.status !== 'RUNNING' || stored.leaseOwner !== owner) return false;
      stored.leaseUntil = now;
      return true;
    },
    async progress(job: StoredExportJob, rows: number) {
      const stored = jobs.get(id(job))!;
      if (stored.status === 'RUNNING') stored.rows = rows;
    },
    async finish(job: StoredExportJob, rows: number, now: string) {
      const stored = jobs.get(id(job))!;
      if (stored.status !== 'RUNNING') return false;
      Object.assign(stored, { status: 'READY', rows, finishedAt: now });
      return true;
    },
    async fail(job: StoredExportJob, error: string, now: string) {
      const stored = jobs.get(id(job))!;
      if (stored.status !== 'READY') Object.assign(stored, { status: 'FAILED', error, finishedAt: now });
    },
  };
}

/** A bucket whose objects exist only once an upload's stream ended (as a completed multipart upload). */
function fakeBucket() {
  const objects = new Map<string, Buffer>();
  const aborted: string[] = [];
  return {
    objects,
    aborted,
    upload(key: string): ExportUpload {
      const chunks: Buffer[] = [];
      let finish!: () => void;
      const done = new Promise<void>((resolve) => (finish = resolve));
      const stream = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          chunks.push(chunk);
          callback();
        },
        final(callback) {
          objects.set(key, Buffer.concat(chunks));
          finish();
          callback();
        },
      });
      return { stream, done, abort: async () => void aborted.push(key) };
    },
  };
}

function world(options: { rows: number; crashAfterPages?: number; total?: number }) {
  const jobs = fakeJobs();
  const bucket = fakeBucket();
  const feed: FeedItem[] = [];
  let pagesServed = 0;
  let crashes = options.crashAfterPages ?? Infinity;
  const all = Array.from({ length: options.rows }, (_, n) => account(n));
  const sources: ExportSources = {
    listInvoices: () => Promise.reject(new Error('not this list')),
    listConformity: () => Promise.reject(new Error('not this list')),
    async listSuppliers(query) {
      pagesServed += 1;
      if (pagesServed > crashes) {
        crashes = Infinity;
        throw new Error('Cognito se cayó a mitad del archivo');
      }
      const start = query.cursor ? Number(query.cursor) : 0;
      const end = Math.min(start + query.limit, all.length);
      return { items: all.slice(start, end), nextCursor: end < all.length ? String(end) : null };
    },
  };
  let ids = 0;
  const clock = () => new Date('2026-03-05T15:00:00.000Z');
  const request = makeRequestExport({
    jobs,
    outgoing: { deliver: async () => undefined },
    reach: async () => options.total ?? null,
    clock,
    newId: () => `00000000-0000-4000-8000-00000000000${ids++}`,
  });
  const runner = makeExportRunner({
    jobs,
    sources,
    upload: (key) => bucket.upload(key),
    feed: { record: async (_audiences, item) => void feed.push(item) },
    clock,
    progressEvery: 100,
  });
  return { jobs, bucket, feed, request, runner };
}

describe('the exports worker', () => {
  it('fixes the total when asked: a list that changed meanwhile is said, in the feed and on the job', async () => {
    const { request, runner, jobs, feed } = world({ rows: 450, total: 448 });
    const job = await request(ADMIN, { list: 'suppliers', format: 'csv', filters: {} });
    expect(job).toMatchObject({ total: 448, totalChanged: false });
    await runner.run({ userId: ADMIN.sub, exportId: job.id }, false);
    const read = makeReadExport({ jobs, presignGet: async () => 'https://archivo' });
    expect(await read(ADMIN, job.id)).toMatchObject({ status: 'READY', rows: 450, total: 448, totalChanged: true });
    expect(feed[0]!.message).toContain(
      'La lista cambió mientras se generaba: al pedirlo tenía 448 filas y el archivo tiene 450.',
    );

    const same = world({ rows: 3, total: 3 });
    const exact = await same.request(ADMIN, { list: 'suppliers', format: 'csv', filters: {} });
    await same.runner.run({ userId: ADMIN.sub, exportId: exact.id }, false);
    const readSame = makeReadExport({ jobs: same.jobs, presignGet: async () => 'https://archivo' });
    expect(await readSame(ADMIN, exact.id)).toMatchObject({ rows: 3, total: 3, totalChanged: false });
    expect(same.feed[0]!.message).not.toContain('cambió');
  });

  it('a crash mid-file: the retry writes the whole file again, the job ends READY with every row, one file', async () => {
    const { request, runner, jobs, bucket, feed } = world({ rows: 450, crashAfterPages: 2 });
    const job = await request(ADMIN, { list: 'suppliers', format: 'csv', filters: {} });
    const message = { userId: ADMIN.sub, exportId: job.id };

    await expect(runner.run(message, false)).rejects.toThrow('Cognito se cayó');
    expect(bucket.objects.size).toBe(0);
    expect(bucket.aborted).toHaveLength(1);
    expect(jobs.jobs.get(`${ADMIN.sub}/${job.id}`)).toMatchObject({ status: 'RUNNING', rows: 200 });

    await runner.run(message, false);
    const stored = jobs.jobs.get(`${ADMIN.sub}/${job.id}`)!;
    expect(stored).toMatchObject({ status: 'READY', rows: 450, attempts: 2 });
    expect([...bucket.objects.keys()]).toEqual([stored.key]);
    const lines = bucket.objects.get(stored.key)!.toString('utf8').trimEnd().split('\r\n');
    expect(lines).toHaveLength(451);
    expect(new Set(lines.slice(1)).size).toBe(450);
    expect(feed).toHaveLength(1);
    expect(feed[0]!.message).toContain('(450 filas)');
  });

  it('leaves alone a job another run holds, and takes over one whose run stopped: the whole file, «reanudada»', async () => {
    const { request, runner, jobs, bucket } = world({ rows: 250 });
    const job = await request(ADMIN, { list: 'suppliers', format: 'csv', filters: {} });
    const message = { userId: ADMIN.sub, exportId: job.id };
    const stored = jobs.jobs.get(`${ADMIN.sub}/${job.id}`)!;
    Object.assign(stored, {
      status: 'RUNNING',
      rows: 100,
      attempts: 1,
      leaseOwner: 'alive',
      leaseUntil: '2026-03-05T15:00:10.000Z',
    });

    await runner.run(message, false);
    expect(bucket.objects.size).toBe(0);
    expect(stored).toMatchObject({ status: 'RUNNING', leaseOwner: 'alive', resumedAt: null });

    // That run stopped: its lease lapsed a second before this delivery.
    stored.leaseUntil = '2026-03-05T14:59:59.000Z';
    await runner.run(message, false);
    expect(stored).toMatchObject({ status: 'READY', rows: 250, attempts: 2, resumedAt: '2026-03-05T15:00:00.000Z' });
    expect(bucket.objects.get(stored.key)!.toString('utf8').trimEnd().split('\r\n')).toHaveLength(251);
  });

  it('a run whose lease another run took stops and leaves no file', async () => {
    const { request, jobs, bucket } = world({ rows: 0 });
    const job = await request(ADMIN, { list: 'suppliers', format: 'csv', filters: {} });
    const stored = jobs.jobs.get(`${ADMIN.sub}/${job.id}`)!;
    let pages = 0;
    const runner = makeExportRunner({
      jobs,
      sources: {
        listInvoices: () => Promise.reject(new Error('not this list')),
        listConformity: () => Promise.reject(new Error('not this list')),
        async listSuppliers() {
          pages += 1;
          // After the first page the job passes to another run; each page takes longer than a renewal's beat.
          if (pages === 1)
            Object.assign(stored, { leaseOwner: 'the-other-run', leaseUntil: '2026-03-05T15:05:00.000Z' });
          await new Promise((resolve) => setTimeout(resolve, 40));
          return { items: [account(pages)], nextCursor: pages < 20 ? String(pages) : null };
        },
      },
      upload: (key) => bucket.upload(key),
      feed: { record: async () => undefined },
      clock: () => new Date('2026-03-05T15:00:00.000Z'),
      leaseMs: 30,
    });

    await runner.run({ userId: ADMIN.sub, exportId: job.id }, false);

    expect(pages).toBeLessThan(20);
    expect(bucket.objects.size).toBe(0);
    expect(bucket.aborted).toHaveLength(1);
    expect(stored).toMatchObject({ status: 'RUNNING', leaseOwner: 'the-other-run' });
  });

  it('a message delivered again for a READY job does nothing', async () => {
    const { request, runner, jobs, bucket, feed } = world({ rows: 3 });
    const job = await request(ADMIN, { list: 'suppliers', format: 'xlsx', filters: {} });
    const message = { userId: ADMIN.sub, exportId: job.id };
    await runner.run(message, false);
    bucket.objects.clear();
    await runner.run(message, false);
    expect(bucket.objects.size).toBe(0);
    expect(jobs.jobs.get(`${ADMIN.sub}/${job.id}`)).toMatchObject({ status: 'READY', rows: 3, attempts: 1 });
    expect(feed).toHaveLength(1);
  });

  it('a failure on the last delivery leaves the job FAILED, so that the page stops waiting', async () => {
    const { request, runner, jobs } = world({ rows: 300, crashAfterPages: 1 });
    const job = await request(ADMIN, { list: 'suppliers', format: 'csv', filters: {} });
    await expect(runner.run({ userId: ADMIN.sub, exportId: job.id }, true)).rejects.toThrow();
    expect(jobs.jobs.get(`${ADMIN.sub}/${job.id}`)).toMatchObject({ status: 'FAILED' });
  });
});

describe('asking for an export', () => {
  it(`refuses one more than ${MAX_RUNNING_EXPORTS} running at once, with a Spanish code`, async () => {
    const { request } = world({ rows: 1 });
    for (let n = 0; n < MAX_RUNNING_EXPORTS; n += 1) {
      await request(ADMIN, { list: 'suppliers', format: 'csv', filters: {} });
    }
    await expect(request(ADMIN, { list: 'suppliers', format: 'csv', filters: {} })).rejects.toMatchObject({
      statusCode: 409,
      code: 'ERROR_TOO_MANY_EXPORTS',
    });
  });

  it('judges the filters with the list route’s own schema', async () => {
    const { request } = world({ rows: 1 });
    await expect(
      request(ADMIN, { list: 'suppliers', format: 'csv', filters: { query: 'x'.repeat(500) } }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'ERROR_INVALID_PARAMETER' });
  });

  it('a list outside the caller’s profile is refused', async () => {
    const { request } = world({ rows: 1 });
    const supplier: Caller = { ...ADMIN, sub: 's-1', level: 'SUPPLIER', taxIds: ['20100070970'] };
    await expect(request(supplier, { list: 'hes', format: 'csv', filters: {} })).rejects.toMatchObject({
      statusCode: 403,
      code: 'ERROR_EXPORT_LIST_NOT_ALLOWED',
    });
  });

  it('only its owner reads an export; the link carries the Spanish file name', async () => {
    const { request, runner, jobs } = world({ rows: 2 });
    const job = await request(ADMIN, { list: 'suppliers', format: 'xlsx', filters: {} });
    await runner.run({ userId: ADMIN.sub, exportId: job.id }, false);
    const links: string[] = [];
    const read = makeReadExport({
      jobs,
      presignGet: async (link) => {
        links.push(link.contentDisposition);
        return `https://files/${link.key}?X-Amz-Expires=${link.expiresInSeconds}`;
      },
    });
    const mine = await read(ADMIN, job.id);
    expect(mine).toMatchObject({
      status: 'READY',
      rows: 2,
      progress: 1,
      fileName: 'Proveedores 2026-03-05 10.00.xlsx',
    });
    expect(mine.url).toContain('X-Amz-Expires=300');
    expect(links[0]).toBe(attachmentDisposition('Proveedores 2026-03-05 10.00.xlsx'));
    await expect(read({ ...ADMIN, sub: 'admin-2' }, job.id)).rejects.toMatchObject({
      statusCode: 404,
      code: 'ERROR_EXPORT_NOT_FOUND',
    });
  });

  it('the file name keeps its accents for the browser and an ASCII fallback for old ones', () => {
    expect(attachmentDisposition('Conformidades MIGO 2026-03-05 10.00.csv')).toBe(
      `attachment; filename="Conformidades MIGO 2026-03-05 10.00.csv"; filename*=UTF-8''Conformidades%20MIGO%202026-03-05%2010.00.csv`,
    );
    expect(attachmentDisposition('Año.csv')).toContain(`filename="Ano.csv"; filename*=UTF-8''A%C3%B1o.csv`);
  });
});

describe("an export's rows", () => {
  it("are the list's answer for the requester's role: a supplier's rows hold no staff-only field", async () => {
    const row = {
      id: 'F001-1',
      supplierId: '20456178325',
      rucRiskOverride: { by: 'revisor@grupo.pe', at: '2026-03-02T10:00:00.000Z', reason: 'Riesgo aceptado' },
      sapDocument: { number: '5105600001', fiscalYear: '2026' },
    };
    const sources = {
      listInvoices: async () => ({ items: [row], nextCursor: null }),
    } as unknown as ExportSources;
    const supplier: Caller = { ...ADMIN, level: 'SUPPLIER', taxIds: ['20456178325'], activeCompany: '20456178325' };
    const read = async (caller: Caller) => {
      const pages: unknown[][] = [];
      for await (const page of exportRows(sources, 'invoices', caller, {})) pages.push([...page]);
      return pages.flat();
    };
    expect(await read(supplier)).toEqual([{ id: 'F001-1', supplierId: '20456178325' }]);
    expect(await read(ADMIN)).toEqual([row]);
  });
});

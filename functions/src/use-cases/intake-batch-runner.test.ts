import { describe, expect, it } from 'vitest';
import yazl from 'yazl';
import type { IntakeDocumentResult, Invoice } from '@portal/shared';
import type { StoredIntakeBatch } from '../repositories/intake-batches.js';
import { resultKeyOf } from '../repositories/intake-batches.js';
import {
  DEFAULT_CONCURRENCY,
  concurrencyOf,
  type BatchNotice,
  type IntakeBatchRunnerDeps,
} from './intake-batch-runner-deps.js';
import { runIntakeBatch } from './intake-batch-runner.js';
import { queuedIntakeBatch } from './intake-batches.js';
import type { IntakeBatchMessage } from '@portal/shared';

/** The run bound to one set of ports, as the worker calls it. */
const makeIntakeBatchRunner = (deps: IntakeBatchRunnerDeps) => ({
  run: (message: IntakeBatchMessage, lastAttempt: boolean) => runIntakeBatch(deps, message, lastAttempt),
});
import type { FileIntakeOutcome, IncomingFiles } from './intake/intake-deps.js';
import { openZipDocuments, ZipRefusedError } from '../intake/zip-documents.js';

type File = [name: string, content: Buffer | string];

async function zipOf(files: File[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of files) zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const COMPANY = '20100066603';
const base = (n: number) => `${COMPANY}-01-F001-${String(n).padStart(8, '0')}`;
const xml = (id: string) => `<?xml version="1.0" encoding="UTF-8"?><Invoice><cbc:ID>${id}</cbc:ID></Invoice>`;
const pdf = (id: string) => `%PDF-1.7\n% ${id}\n%%EOF\n`;

/** A zip of `count` documents, each its XML and PDF. */
const documentsZip = (count: number, extra: File[] = []) =>
  zipOf([
    ...Array.from({ length: count }, (_, i): File[] => [
      [`${base(i + 1)}.xml`, xml(base(i + 1))],
      [`${base(i + 1)}.pdf`, pdf(base(i + 1))],
    ]).flat(),
    ...extra,
  ]);

function storedBatch(): StoredIntakeBatch {
  return queuedIntakeBatch({
    id: '0b6f6c3e-6d8a-4b59-9d1e-3f1f7f0e8a11',
    userId: 'user-1',
    company: COMPANY,
    fileName: 'marzo.zip',
    key: `uploads/${COMPANY}/2026/03/7d1f0c2e-1b4a-4c1e-9a53-0d7c2f6b9e10.zip`,
    uploader: {
      sub: 'user-1',
      username: 'proveedor',
      email: 'proveedor@example.com',
      firstName: 'Ana',
      lastName: 'Quispe',
      level: 'SUPPLIER',
      taxIds: [COMPANY],
      groups: [],
      activeCompany: COMPANY,
      signIn: 'PASSWORD',
      txId: 'tx-1',
    },
    createdAt: '2026-03-05T15:00:00.000Z',
  });
}

/** The batch's table, as the repository keeps it (a result recorded once, the counters beside it). */
function fakeBatches(initial: StoredIntakeBatch) {
  let batch = { ...initial };
  const results = new Map<string, IntakeDocumentResult>();
  let counterWrites = 0;
  const repository: IntakeBatchRunnerDeps['batches'] = {
    get: async (id) => (id === batch.id ? { ...batch } : null),
    start: async (_id, owner, now, until) => {
      if (batch.status !== 'QUEUED' && batch.status !== 'PROCESSING') return 'ENDED';
      const lapsed = batch.status === 'PROCESSING' && (batch.leaseUntil ?? '') <= now;
      if (batch.status === 'PROCESSING' && !lapsed) return 'BUSY';
      batch = {
        ...batch,
        status: 'PROCESSING',
        attempts: batch.attempts + 1,
        leaseOwner: owner,
        leaseUntil: until,
        ...(lapsed ? { resumedAt: now } : { startedAt: now }),
      };
      return lapsed ? 'RESUMED' : 'STARTED';
    },
    release: async (_id, owner, now) => {
      if (batch.status !== 'PROCESSING' || batch.leaseOwner !== owner) return false;
      batch = { ...batch, leaseUntil: now };
      return true;
    },
    renew: async (_id, owner, until) => {
      if (batch.status !== 'PROCESSING' || batch.leaseOwner !== owner) return false;
      batch = { ...batch, leaseUntil: until };
      return true;
    },
    setTotal: async (_id, total) => {
      batch = { ...batch, total };
    },
    recordedKeys: async () => new Set(results.keys()),
    record: async (_batch, result) => {
      const key = resultKeyOf(result.base);
      if (results.has(key)) return false;
      results.set(key, result);
      return true;
    },
    addCounts: async (_id, outcomes) => {
      counterWrites++;
      const counter = { ACCEPTED: 'accepted', ALREADY_EXISTS: 'alreadyExisting', REFUSED: 'refused' } as const;
      for (const outcome of Object.keys(counter) as (keyof typeof counter)[]) {
        batch = {
          ...batch,
          processed: batch.processed + outcomes[outcome],
          [counter[outcome]]: batch[counter[outcome]] + outcomes[outcome],
        };
      }
    },
    finish: async (_id, now) => {
      if (batch.status !== 'PROCESSING') return false;
      batch = { ...batch, status: 'DONE', finishedAt: now, leaseOwner: undefined, leaseUntil: undefined };
      return true;
    },
    end: async (_id, status, error, now) => {
      if (batch.status !== 'QUEUED' && batch.status !== 'PROCESSING') return false;
      batch = { ...batch, status, error, finishedAt: now, leaseOwner: undefined, leaseUntil: undefined };
      return true;
    },
  };
  return {
    repository,
    results,
    current: () => batch,
    counterWrites: () => counterWrites,
    /** Makes the batch as a run that stopped left it: PROCESSING, its lease held by `owner` until `until`. */
    leftBy: (owner: string, until: string) => {
      batch = { ...batch, status: 'PROCESSING', leaseOwner: owner, leaseUntil: until, attempts: batch.attempts + 1 };
    },
  };
}

const invoiceOf = (files: IncomingFiles) =>
  ({ supplierId: COMPANY, type: 'FACTURA', id: files.sourceKey.split('-').slice(-2).join('-') }) as unknown as Invoice;

type FromFiles = ReturnType<IntakeBatchRunnerDeps['intakeOfBatch']>;

function setUp(zip: Buffer | null, fromFiles: FromFiles, concurrency?: number, progressIntervalMs?: number) {
  const table = fakeBatches(storedBatch());
  const deleted: string[] = [];
  const notices: BatchNotice[] = [];
  const calls: IncomingFiles[] = [];
  let disposed = 0;
  const runner = makeIntakeBatchRunner({
    batches: table.repository,
    fetchZip: async (key) => {
      if (!zip || deleted.includes(key)) return null;
      return {
        source: zip,
        dispose: async () => {
          disposed++;
        },
      };
    },
    deleteZip: async (key) => {
      deleted.push(key);
    },
    intakeOfBatch: () => (caller, files) => {
      calls.push(files);
      return fromFiles(caller, files);
    },
    documentOf: () => ({ supplierId: COMPANY, type: 'FACTURA' }),
    notify: async (notice) => {
      notices.push(notice);
    },
    clock: () => new Date('2026-03-05T15:01:00.000Z'),
    ...(concurrency ? { concurrency } : {}),
    ...(progressIntervalMs !== undefined ? { progressIntervalMs } : {}),
  });
  return { runner, table, deleted, notices, calls, disposed: () => disposed };
}

const accept = async (_caller: unknown, files: IncomingFiles): Promise<FileIntakeOutcome> => ({
  outcome: 'ACCEPTED',
  invoice: invoiceOf(files),
  cdrWarning: null,
});

const message = { batchId: storedBatch().id };

describe('the intake-batches worker', () => {
  it('registers each document as its uploader, records what became of each and tells the uploader once', async () => {
    const zip = await documentsZip(4, [[`${base(9)}.pdf`, pdf(base(9))]]);
    const { runner, table, deleted, notices, calls, disposed } = setUp(zip, async (caller, files) => {
      expect(caller.sub).toBe('user-1');
      expect(caller.activeCompany).toBe(COMPANY);
      if (files.sourceKey.endsWith(base(2))) {
        return { outcome: 'REFUSED', code: 'ERROR_INVALID_RUC', message: 'El RUC del XML no es el suyo.' };
      }
      if (files.sourceKey.endsWith(base(3))) {
        return {
          outcome: 'ALREADY_EXISTS',
          invoiceId: 'F001-00000003',
          code: 'ERROR_INVOICE_ALREADY_EXISTS',
          message: 'Ya existe un comprobante con el mismo código para este proveedor.',
        };
      }
      return accept(caller, files);
    });

    await runner.run(message, false);

    const batch = table.current();
    expect(batch).toMatchObject({
      status: 'DONE',
      total: 5,
      processed: 5,
      accepted: 2,
      alreadyExisting: 1,
      refused: 2,
    });
    expect(calls.map((files) => files.sourceKey).sort()).toEqual([1, 2, 3, 4].map((n) => `zip/${batch.id}/${base(n)}`));
    expect(calls[0]).toMatchObject({
      channel: 'ZIP',
      xml: { name: `${base(1)}.xml` },
      pdf: { name: `${base(1)}.pdf` },
    });
    expect(table.results.get(resultKeyOf(base(1)))).toMatchObject({
      outcome: 'ACCEPTED',
      files: [`${base(1)}.xml`, `${base(1)}.pdf`],
      invoice: { supplierId: COMPANY, invoiceType: 'FACTURA' },
    });
    expect(table.results.get(resultKeyOf(base(2)))).toMatchObject({
      outcome: 'REFUSED',
      reason: { code: 'ERROR_INVALID_RUC', message: 'El RUC del XML no es el suyo.' },
    });
    expect(table.results.get(resultKeyOf(base(3)))).toMatchObject({
      outcome: 'ALREADY_EXISTS',
      invoice: { supplierId: COMPANY, invoiceType: 'FACTURA', invoiceId: 'F001-00000003' },
    });
    // A PDF without its XML is refused alone, in Spanish, without reaching the intake.
    expect(table.results.get(resultKeyOf(base(9)))).toMatchObject({
      outcome: 'REFUSED',
      reason: { code: 'ERROR_ZIP_DOCUMENT_WITHOUT_XML', message: expect.stringContaining('Falta el XML') },
    });
    expect(deleted).toEqual([batch.key]);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toBe(
      'Se procesó su ZIP «marzo.zip»: 2 comprobantes aceptados, 1 ya existía y 2 rechazados. ' +
        'Vea el detalle en Mis comprobantes › Cargas de ZIP.',
    );
    expect(disposed()).toBe(1);
  });

  it('refuses a hostile zip whole: nothing registered, the zip deleted, the reason in Spanish', async () => {
    const good = await documentsZip(1);
    // The same length as the XML's name, so that the entry is renamed in place to climb out of its folder.
    const name = `${base(1)}.xml`;
    const hostile = `../${'x'.repeat(name.length - 7)}.xml`;
    let zip = Buffer.from(good);
    for (let at = zip.indexOf(name); at >= 0; at = zip.indexOf(name, at + 1)) Buffer.from(hostile).copy(zip, at);
    zip = Buffer.from(zip);
    const { runner, table, deleted, notices, calls } = setUp(zip, accept);

    await runner.run(message, false);

    expect(calls).toEqual([]);
    expect(table.results.size).toBe(0);
    const batch = table.current();
    expect(batch.status).toBe('REFUSED');
    expect(batch.error).toMatchObject({
      code: 'ERROR_ZIP_UNSAFE_NAME',
      message: expect.stringContaining('no está permitido'),
    });
    expect(deleted).toEqual([batch.key]);
    expect(notices.map((notice) => notice.text)).toEqual([
      expect.stringMatching(/^No se procesó su ZIP «marzo.zip»: /),
    ]);
  });

  it('refuses a zip whose last entry lies about its size before registering any of its documents', async () => {
    const zip = await documentsZip(3);
    // The central directory record of the last XML: its declared uncompressed size cut to 10 bytes.
    const name = Buffer.from(`${base(3)}.xml`);
    const record = zip.lastIndexOf(name) - 46;
    expect(zip.readUInt32LE(record)).toBe(0x02014b50);
    zip.writeUInt32LE(10, record + 24);
    const { runner, table, deleted, notices, calls } = setUp(zip, accept);

    // A verdict, not a failure: the run ends normally, so the queue does not deliver it again.
    await runner.run(message, false);

    expect(calls).toEqual([]);
    expect(table.results.size).toBe(0);
    expect(table.current()).toMatchObject({ status: 'REFUSED', error: { code: 'ERROR_ZIP_ENTRY_CORRUPT' } });
    expect(deleted).toHaveLength(1);
    expect(notices.map((notice) => notice.text)).toEqual([
      `No se procesó su ZIP «marzo.zip»: El archivo «${base(3)}.xml» del ZIP está dañado (tiene más datos de los ` +
        'que declara): no se registró ningún comprobante del ZIP. Vuelva a generar el ZIP y cárguelo de nuevo.',
    ]);
  });

  it('ends the batch REFUSED at once when its zip turns out bad while documents are read', async () => {
    const zip = await documentsZip(3);
    const table = fakeBatches(storedBatch());
    const notices: BatchNotice[] = [];
    const runner = makeIntakeBatchRunner({
      batches: table.repository,
      fetchZip: async () => ({ source: zip, dispose: async () => undefined }),
      deleteZip: async () => undefined,
      intakeOfBatch: () => accept,
      documentOf: () => ({ supplierId: COMPANY, type: 'FACTURA' }),
      notify: async (notice) => void notices.push(notice),
      clock: () => new Date('2026-03-05T15:01:00.000Z'),
      // The second document's read fails as a corrupt entry would.
      openZip: async (source) => {
        const documents = await openZipDocuments(source);
        return {
          ...documents,
          close: () => documents.close(),
          async *[Symbol.asyncIterator]() {
            let read = 0;
            for await (const document of documents) {
              if (++read === 2) throw new ZipRefusedError('ERROR_ZIP_INVALID', { detail: 'CRC-32' });
              yield document;
            }
          },
        };
      },
    });

    await runner.run(message, false);

    expect(table.current()).toMatchObject({ status: 'REFUSED', error: { code: 'ERROR_ZIP_INVALID' } });
    expect(notices).toHaveLength(1);
  });

  it('after a crash, the redelivery registers only what was not recorded, and the counts are exact', async () => {
    const zip = await documentsZip(6);
    let down = true;
    const { runner, table, deleted, notices, calls } = setUp(
      zip,
      async (caller, files) => {
        if (down && files.sourceKey.endsWith(base(4))) throw new Error('DynamoDB is down');
        return accept(caller, files);
      },
      1,
    );

    await expect(runner.run(message, false)).rejects.toThrow('DynamoDB is down');
    expect(table.current()).toMatchObject({ status: 'PROCESSING', processed: 3 });
    expect(deleted).toEqual([]);
    expect(notices).toEqual([]);

    down = false;
    await runner.run(message, false);

    expect(table.current()).toMatchObject({ status: 'DONE', total: 6, processed: 6, accepted: 6, attempts: 2 });
    const attempts = calls.map((files) => files.sourceKey.slice(-8));
    // Documents 1–3 once, the 4th twice (its first attempt failed), 5 and 6 once.
    expect(attempts.sort()).toEqual([
      '00000001',
      '00000002',
      '00000003',
      '00000004',
      '00000004',
      '00000005',
      '00000006',
    ]);
    expect(notices).toHaveLength(1);
  });

  describe('its lease', () => {
    it('leaves alone a batch another run holds and renews', async () => {
      const { runner, table, calls, notices } = setUp(await documentsZip(2), accept);
      table.leftBy('another-run', '2026-03-05T15:01:10.000Z');

      await runner.run(message, false);

      expect(calls).toEqual([]);
      expect(notices).toEqual([]);
      expect(table.current()).toMatchObject({ status: 'PROCESSING', leaseOwner: 'another-run', resumedAt: null });
    });

    it('takes over a batch whose run stopped, registers only what was left and says it resumed', async () => {
      const zip = await documentsZip(4);
      let stopped = true;
      const { runner, table, calls, notices } = setUp(
        zip,
        async (caller, files) => {
          if (stopped && files.sourceKey.endsWith(base(3))) throw new Error('the instance was stopped');
          return accept(caller, files);
        },
        1,
      );
      await expect(runner.run(message, false)).rejects.toThrow('the instance was stopped');
      // As a crash leaves it: PROCESSING, two results recorded, the lease held by a run that is gone.
      table.leftBy('crashed-run', '2026-03-05T15:00:59.000Z');
      stopped = false;

      await runner.run(message, false);

      expect(table.current()).toMatchObject({
        status: 'DONE',
        processed: 4,
        accepted: 4,
        resumedAt: '2026-03-05T15:01:00.000Z',
        leaseOwner: undefined,
      });
      expect(calls.map((files) => files.sourceKey.slice(-8)).sort()).toEqual([
        '00000001',
        '00000002',
        '00000003',
        '00000003',
        '00000004',
      ]);
      expect(notices).toHaveLength(1);
    });

    it('stops a run whose lease another run took, without ending the batch', async () => {
      const zip = await documentsZip(6);
      const table = fakeBatches(storedBatch());
      const calls: string[] = [];
      const runner = makeIntakeBatchRunner({
        batches: table.repository,
        fetchZip: async () => ({ source: zip, dispose: async () => undefined }),
        deleteZip: async () => undefined,
        intakeOfBatch: () => async (caller, files) => {
          calls.push(files.sourceKey);
          // After the first document the lease passes to another run (this one seemed stopped to the sweeper).
          if (calls.length === 1) table.leftBy('the-other-run', '2026-03-05T15:02:00.000Z');
          await new Promise((resolve) => setTimeout(resolve, 40));
          return accept(caller, files);
        },
        documentOf: () => ({ supplierId: COMPANY, type: 'FACTURA' }),
        notify: async () => undefined,
        clock: () => new Date('2026-03-05T15:01:00.000Z'),
        concurrency: 1,
        leaseMs: 30,
      });

      await runner.run(message, false);

      expect(calls.length).toBeLessThan(6);
      expect(table.current()).toMatchObject({ status: 'PROCESSING', leaseOwner: 'the-other-run' });
    });
  });

  it('writes the progress a few results at a time (one write per interval), and every result is counted', async () => {
    const zip = await documentsZip(12);
    const { runner, table } = setUp(zip, accept, 4, 60_000);
    await runner.run(message, false);

    // The first result at once (the screen shows progress), the rest when the interval passes or the zip ends.
    expect(table.counterWrites()).toBe(2);
    expect(table.current()).toMatchObject({ status: 'DONE', processed: 12, accepted: 12 });
  });

  it('counts what was recorded before a failure, so a batch that ends FAILED shows what it did', async () => {
    const zip = await documentsZip(5);
    const { runner, table } = setUp(
      zip,
      async (caller, files) => {
        if (files.sourceKey.endsWith(base(4))) throw new Error('DynamoDB is down');
        return accept(caller, files);
      },
      1,
      60_000,
    );
    await expect(runner.run(message, true)).rejects.toThrow('DynamoDB is down');
    expect(table.current()).toMatchObject({ status: 'FAILED', processed: 3, accepted: 3 });
  });

  it('a redelivery of an ended batch registers nothing again', async () => {
    const zip = await documentsZip(3);
    const { runner, table, calls } = setUp(zip, accept);
    await runner.run(message, false);
    await runner.run(message, false);
    expect(calls).toHaveLength(3);
    expect(table.current()).toMatchObject({ status: 'DONE', processed: 3, accepted: 3, attempts: 1 });
  });

  it('on the last delivery a failure ends the batch FAILED, says so in Spanish and deletes the zip', async () => {
    const zip = await documentsZip(2);
    const { runner, table, deleted, notices } = setUp(zip, async () => {
      throw new Error('S3 is down');
    });
    await expect(runner.run(message, true)).rejects.toThrow('S3 is down');
    const batch = table.current();
    expect(batch.status).toBe('FAILED');
    expect(batch.error).toMatchObject({
      code: 'ERROR_INTAKE_BATCH_FAILED',
      message: expect.stringContaining('Cárguelo nuevamente'),
    });
    expect(deleted).toEqual([batch.key]);
    expect(notices).toHaveLength(1);
  });

  it('registers a few documents at once, never more than its bound', async () => {
    const zip = await documentsZip(20);
    let inFlight = 0;
    let most = 0;
    let waiting: (() => void)[] = [];
    const { runner, table } = setUp(
      zip,
      async (caller, files) => {
        inFlight++;
        most = Math.max(most, inFlight);
        // Each waits until four are under way (20 documents: five rounds), then all four end.
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          if (waiting.length === 4) {
            for (const release of waiting) release();
            waiting = [];
          }
        });
        inFlight--;
        return accept(caller, files);
      },
      4,
    );
    await runner.run(message, false);
    expect(most).toBe(4);
    expect(table.current()).toMatchObject({ status: 'DONE', accepted: 20 });
  });

  it('a zip that is gone ends the batch FAILED with the upload missing', async () => {
    const { runner, table, calls } = setUp(null, accept);
    await runner.run(message, false);
    expect(calls).toEqual([]);
    expect(table.current()).toMatchObject({ status: 'FAILED', error: { code: 'ERROR_UPLOAD_NOT_FOUND' } });
  });
});

describe('the documents a stage takes in at once', () => {
  it('is what the stage configured, a whole number from 1 to 32', () => {
    expect(concurrencyOf('4')).toBe(4);
    expect(concurrencyOf(' 1 ')).toBe(1);
    expect(concurrencyOf('32')).toBe(32);
  });

  it('falls back to the default when unset or out of range, never to zero or a fraction', () => {
    for (const value of [undefined, '', '0', '-3', '33', '2.5', 'cuatro', 'Infinity']) {
      expect(concurrencyOf(value)).toBe(DEFAULT_CONCURRENCY);
    }
  });
});

import { HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import {
  HEADERS,
  keys,
  routes,
  withCheckDigit,
  type IntakeBatch,
  type IntakeBatchList,
  type IntakeBatchSummary,
  type IntakeDocumentResult,
  type Notification,
} from '@portal/shared';
import { CLIENTS, SUPPLIERS } from '../support/tenant.js';
import { LOCAL_CREDENTIALS } from '../../local/stand-ins/types.js';
import { call, idTokenOf } from '../support/api.js';
import { mailbox, sendToQueue, stageDocumentClient, table } from '../support/fixtures.js';
import { makeIntakeBatchRepository } from '../../functions/src/repositories/intake-batches.js';
import { freshCorrelative, listedAt, supplierToken, ublFactura } from '../support/invoices.js';
import { runSchedule } from '../support/schedules.js';
import { demoAccount, demoUser, stage } from '../support/stage.js';
import { MINIMAL_PDF, uploadAs, zipOf } from '../support/uploads.js';
import { until } from '../support/until.js';

/**
 * 'Cargar ZIP' on the local stage: a zip uploaded presigned, POST /intake-batches, the intake-batches
 * queue's poller and worker, the intake of each document (DynamoDB Local, s3rver, the SUNAT simulator), the results
 * read through the API, the uploader's notice.
 */
const SUPPLIER = SUPPLIERS[0]!;
const OTHER_SUPPLIER = SUPPLIERS[1]!;
const COMPANY = CLIENTS[0]!;
const DOCUMENTS = 200;

type Entry = [name: string, bytes: Buffer];

/** Correlatives of this run, each one the SUNAT simulator answers valid at once. */
const correlatives = (count: number): string[] => Array.from({ length: count }, freshCorrelative);

const baseOf = (invoiceId: string) => `${SUPPLIER.taxId}-01-${invoiceId}`;

interface Lot {
  zip: Buffer;
  /** The invoice ids of the documents meant to be accepted. */
  good: string[];
  /** The base names of the three bad documents, by what is wrong with them. */
  bad: { anotherSupplier: string; unknownClient: string; malformed: string };
}

/** 200 documents of the supplier, each its XML and PDF; three of them bad. */
async function lotOf(count: number): Promise<Lot> {
  const entries: Entry[] = [];
  const good: string[] = [];
  const numbers = correlatives(count);
  const bad = { anotherSupplier: '', unknownClient: '', malformed: '' };
  numbers.forEach((correlative, i) => {
    const { bytes, invoiceId } = ublFactura(correlative);
    let xml = bytes;
    const base = baseOf(invoiceId);
    if (i === 10) {
      // Another supplier's document: its RUC is not the uploader's.
      xml = Buffer.from(bytes.toString('utf8').replaceAll(SUPPLIER.taxId, OTHER_SUPPLIER.taxId));
      bad.anotherSupplier = base;
    } else if (i === 50) {
      // Addressed to a RUC that is no company of the portal.
      xml = Buffer.from(bytes.toString('utf8').replaceAll(COMPANY.taxId, withCheckDigit('2099999999')));
      bad.unknownClient = base;
    } else if (i === 120) {
      xml = bytes.subarray(0, Math.floor(bytes.length / 2));
      bad.malformed = base;
    } else {
      good.push(invoiceId);
    }
    entries.push([`${base}.xml`, xml], [`${base}.pdf`, MINIMAL_PDF]);
  });
  return { zip: await zipOf(entries), good, bad };
}

async function submit(token: string, zip: Buffer, fileName = 'lote.zip') {
  const key = await uploadAs(token, 'INVOICE_ZIP', zip, 'application/zip', fileName);
  const created = await call<IntakeBatchSummary>(routes.createIntakeBatch, { token, body: { url: key } });
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  return { key, batch: created.body };
}

/** Puts a zip back under `key` in the documents bucket, as it was before its worker removed it. */
async function putZipBack(key: string, zip: Buffer): Promise<void> {
  await s3().send(
    new PutObjectCommand({ Bucket: stage().documentsBucket, Key: key, Body: zip, ContentType: 'application/zip' }),
  );
}

async function readBatch(token: string, batchId: string) {
  return call<IntakeBatch>(routes.getIntakeBatch, { token, path: { batchId }, query: { limit: 500 } });
}

async function ended(token: string, batchId: string): Promise<IntakeBatch> {
  const batch = await until(
    async () => {
      const read = await readBatch(token, batchId);
      expect(read.status).toBe(200);
      return ['DONE', 'REFUSED', 'FAILED'].includes(read.body.status) && read.body;
    },
    { timeout: 240_000, interval: 500, message: `batch ${batchId} to end` },
  );
  endedBatches.add(batchId);
  return batch;
}

const listed = (token: string, ids: readonly string[]) => listedAt(token, COMPANY.taxId, ids);

const countListed = async (token: string, ids: readonly string[]) => (await listed(token, ids)).length;

/** The invoices this file's zips registered: their SUNAT checks are waited for before the file ends. */
const registered: string[] = [];
/** The batches this file saw end, each of which leaves the supplier one notice. */
const endedBatches = new Set<string>();

const byOutcome = (results: IntakeDocumentResult[], outcome: IntakeDocumentResult['outcome']) =>
  results.filter((result) => result.outcome === outcome);

function s3() {
  const { endpoints, region } = stage();
  return new S3Client({ region, endpoint: endpoints.s3, credentials: LOCAL_CREDENTIALS, forcePathStyle: true });
}

async function exists(key: string): Promise<boolean> {
  try {
    await s3().send(new HeadObjectCommand({ Bucket: stage().documentsBucket, Key: key }));
    return true;
  } catch {
    return false;
  }
}

/** Every key of the documents bucket that names the batch (the intake stores a zip's files under its sourceKey). */
async function keysNaming(batchId: string): Promise<string[]> {
  const found: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3().send(
      new ListObjectsV2Command({ Bucket: stage().documentsBucket, ContinuationToken: token }),
    );
    for (const object of page.Contents ?? []) if (object.Key?.includes(batchId)) found.push(object.Key);
    token = page.NextContinuationToken;
  } while (token);
  return found;
}

/** Waits until SUNAT answered every invoice this file's zips registered; returns them as the list shows them. */
async function sunatAnswered(token: string) {
  return until(
    async () => {
      const invoices = await listed(token, registered);
      return invoices.every((invoice) => invoice.certStatus !== 'PENDING') && invoices;
    },
    { timeout: 150_000, interval: 500, message: "SUNAT's answers on the zips' invoices" },
  );
}

describe('Cargar ZIP on the local stage', () => {
  // The zips' notices reach the supplier's own feed; they go, so that its feed stays as the other tests know it.
  afterAll(async () => {
    // What the zips' hundreds of invoices set off (their SUNAT checks, and the notices of SUNAT's answers) ends here,
    // not in the feed of the next file on this tenant. Other files' messages share the queues: this file waits for its
    // own invoices' answers, never for a queue to empty.
    const token = await supplierToken();
    await sunatAnswered(token);
    const sub = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string }).sub;
    const db = table();
    const notices = async () =>
      (await db.partition(`FEED#USER#${sub}`)).filter((item) => String(item.message).includes('ZIP'));
    await until(async () => (await notices()).length >= endedBatches.size, {
      timeout: 60_000,
      interval: 500,
      message: `the notices of ${endedBatches.size} zips in the feed`,
    });
    for (const item of await notices()) await db.delete({ pk: String(item.pk), sk: String(item.sk) });
  }, 180_000);

  it('takes 200 documents with three bad ones: 197 accepted and three clear reasons; the same zip again doubles nothing; a redelivery and a crash mid-way double nothing either', async () => {
    const token = await supplierToken();
    const lot = await lotOf(DOCUMENTS);
    registered.push(...lot.good);
    const first = await submit(token, lot.zip, 'marzo.zip');
    expect(first.batch).toMatchObject({ status: 'QUEUED', fileName: 'marzo.zip', company: SUPPLIER.taxId });

    const done = await ended(token, first.batch.id);
    expect(done).toMatchObject({
      status: 'DONE',
      progress: 1,
      counts: { total: 200, processed: 200, accepted: 197, alreadyExisting: 0, refused: 3 },
    });
    const results = done.results.items;
    expect(results).toHaveLength(200);
    for (const accepted of byOutcome(results, 'ACCEPTED')) {
      expect(accepted.invoice).toMatchObject({ supplierId: SUPPLIER.taxId, invoiceType: 'FACTURA' });
    }
    const reasonOf = (base: string) => results.find((result) => result.base === base)!;
    expect(reasonOf(lot.bad.anotherSupplier)).toMatchObject({ outcome: 'REFUSED', invoice: null });
    expect(reasonOf(lot.bad.unknownClient)).toMatchObject({ outcome: 'REFUSED', invoice: null });
    expect(reasonOf(lot.bad.malformed)).toMatchObject({ outcome: 'REFUSED', invoice: null });
    for (const base of Object.values(lot.bad)) {
      // A clear reason in Spanish, not a code.
      expect(reasonOf(base).reason!.message).toMatch(/^[A-ZÁÉÍÓÚÑ¿]/);
      expect(reasonOf(base).reason!.message).not.toMatch(/ERROR_/);
    }
    expect(await countListed(token, lot.good)).toBe(197);
    // The zip is gone once read; the uploader is told, in the feed and by e-mail (their reception is on).
    expect(await exists(first.key)).toBe(false);
    const feed = await call<{ items: Notification[] }>(routes.listNotifications, { token });
    expect(feed.body.items.map((item) => item.message)).toContain(
      'Se procesó su ZIP «marzo.zip»: 197 comprobantes aceptados, 0 ya existían y 3 rechazados. ' +
        'Vea el detalle en Mis comprobantes › Cargas de ZIP.',
    );
    const mails = await until(
      async () =>
        (await mailbox()).find(
          (mail) => mail.to.includes(demoUser('SUPPLIER').username) && mail.text.includes('«marzo.zip»'),
        ),
      { message: 'the e-mail' },
    );
    expect(mails.text).toContain(`/invoices?zip=${first.batch.id}`);

    // The same message delivered again: the batch has ended, nothing is registered again.
    await sendToQueue('intakeBatches', { batchId: first.batch.id });
    // A crash mid-way, simulated: the zip back, the batch still processing, 50 results never recorded (their invoices
    // were committed). The redelivery finds their own invoices through their sourceKey: accepted, not duplicated.
    await putZipBack(first.key, lot.zip);
    const db = table();
    const forgotten = byOutcome(results, 'ACCEPTED').slice(0, 50);
    for (const result of forgotten) await db.delete(keys.intakeResult(first.batch.id, result.base.toLowerCase()));
    const stored = (await db.get(keys.intakeBatch(first.batch.id)))!;
    await db.put({ ...stored, status: 'PROCESSING', finishedAt: null });
    await sendToQueue('intakeBatches', { batchId: first.batch.id });
    const again = await ended(token, first.batch.id);
    expect(again.counts).toEqual({ total: 200, processed: 200, accepted: 197, alreadyExisting: 0, refused: 3 });
    expect(await countListed(token, lot.good)).toBe(197);

    // The same zip uploaded again: every document says it exists already; the bad ones are refused again.
    const second = await submit(token, lot.zip, 'marzo.zip');
    const repeated = await ended(token, second.batch.id);
    expect(repeated.counts).toEqual({ total: 200, processed: 200, accepted: 0, alreadyExisting: 197, refused: 3 });
    for (const existing of byOutcome(repeated.results.items, 'ALREADY_EXISTS')) {
      expect(existing.reason?.message).toBe('Ya existe un comprobante con el mismo código para este proveedor.');
      expect(existing.invoice).toMatchObject({ supplierId: SUPPLIER.taxId, invoiceType: 'FACTURA' });
    }
    expect(await countListed(token, lot.good)).toBe(197);

    // Kept to be seen later, newest first.
    const recent = await call<IntakeBatchList>(routes.listIntakeBatches, { token });
    expect(recent.body.items.slice(0, 2).map((batch) => batch.id)).toEqual([second.batch.id, first.batch.id]);
  }, 600_000);

  it('resumes a batch whose worker stopped mid-way within a minute, with no message left: each document once', async () => {
    const token = await supplierToken();
    const lot = await lotOf(6);
    const first = await submit(token, lot.zip, 'abril.zip');
    expect((await ended(token, first.batch.id)).status).toBe('DONE');
    registered.push(...lot.good);
    // As a worker killed mid-way leaves it: the zip still there, three results not recorded (their invoices were
    // committed), the batch PROCESSING under the lease of a run that is gone, which lapsed ten seconds ago; and no
    // queue message (it is in flight, invisible for the queue's visibility timeout).
    await putZipBack(first.key, lot.zip);
    const db = table();
    const done = await readBatch(token, first.batch.id);
    for (const result of done.body.results.items.slice(0, 3)) {
      await db.delete(keys.intakeResult(first.batch.id, result.base.toLowerCase()));
    }
    const stored = (await db.get(keys.intakeBatch(first.batch.id)))!;
    const lapsedAt = new Date(Date.now() - 10_000).toISOString();
    const crashedAt = Date.now();
    await db.put({
      ...stored,
      status: 'PROCESSING',
      finishedAt: null,
      leaseOwner: 'a-run-that-crashed',
      leaseUntil: lapsedAt,
      gsi1pk: keys.jobLeases,
      gsi1sk: `${lapsedAt}#${keys.intakeBatch(first.batch.id).pk}`,
    });

    // The outbox sweeper's next run (every minute in AWS; driven here) finds the lapsed lease and hands it over.
    await runSchedule('OutboxSweeper');
    const resumed = await ended(token, first.batch.id);
    expect(Date.now() - crashedAt).toBeLessThan(60_000);
    expect(resumed.status).toBe('DONE');
    expect(resumed.resumedAt).not.toBeNull();
    expect(resumed.counts).toEqual({ total: 6, processed: 6, accepted: 6, alreadyExisting: 0, refused: 0 });
    expect(resumed.results.items).toHaveLength(6);
    expect(await countListed(token, lot.good)).toBe(6);
    expect(await exists(first.key)).toBe(false);
  }, 300_000);

  it('is never DONE with fewer results than its zip holds documents', async () => {
    const token = await supplierToken();
    const lot = await lotOf(2);
    const first = await submit(token, lot.zip, 'mayo.zip');
    expect((await ended(token, first.batch.id)).status).toBe('DONE');
    registered.push(...lot.good);
    // A run about to end the batch with one result lost (as a write that never landed would leave it).
    const db = table();
    const done = (await readBatch(token, first.batch.id)).body;
    const lost = done.results.items[0]!;
    await db.delete(keys.intakeResult(first.batch.id, lost.base.toLowerCase()));
    const stored = (await db.get(keys.intakeBatch(first.batch.id)))!;
    await db.put({ ...stored, status: 'PROCESSING', finishedAt: null });

    const batches = makeIntakeBatchRepository(stageDocumentClient(), stage().tableName);
    const now = new Date().toISOString();
    await expect(batches.finish(first.batch.id, now)).rejects.toThrow('1 results for 2 documents');
    expect((await readBatch(token, first.batch.id)).body.status).toBe('PROCESSING');
    // The run tried again records what was missing, and only then the batch ends, its counts those of its documents.
    expect(await batches.record({ id: first.batch.id, createdAt: done.createdAt }, lost)).toBe(true);
    expect(await batches.finish(first.batch.id, now)).toBe(true);
    const again = (await readBatch(token, first.batch.id)).body;
    expect(again).toMatchObject({ status: 'DONE', counts: { total: 2, processed: 2, accepted: 2 } });
    expect(again.results.items).toHaveLength(2);
  });

  it('refuses a hostile zip whole, with nothing stored: a name that climbs out of its folder, a zip bomb', async () => {
    const token = await supplierToken();
    const [correlative, other] = correlatives(2);
    const good = ublFactura(correlative!);
    const base = baseOf(good.invoiceId);

    // A name of the same length as the PDF's, renamed in place to '../…' (a writer refuses to write it).
    const pdfName = `${base}.pdf`;
    const climbing = `../${'x'.repeat(pdfName.length - 7)}.pdf`;
    const traversal = await zipOf([
      [`${base}.xml`, good.bytes],
      [pdfName, MINIMAL_PDF],
    ]);
    for (let at = traversal.indexOf(pdfName); at >= 0; at = traversal.indexOf(pdfName, at + 1)) {
      Buffer.from(climbing).copy(traversal, at);
    }
    // 1.5 MB of blanks inside an XML: it inflates about a thousand times its compressed size.
    const bombed = ublFactura(other!);
    const bomb = await zipOf([
      [`${baseOf(bombed.invoiceId)}.xml`, Buffer.concat([bombed.bytes, Buffer.alloc(1_500_000, 0x20)])],
    ]);

    for (const [zip, code] of [
      [traversal, 'ERROR_ZIP_UNSAFE_NAME'],
      [bomb, 'ERROR_ZIP_SUSPICIOUS_RATIO'],
    ] as const) {
      const { key, batch } = await submit(token, zip, 'peligroso.zip');
      const refused = await ended(token, batch.id);
      expect(refused.status).toBe('REFUSED');
      expect(refused.error?.code).toBe(code);
      expect(refused.error?.message).not.toMatch(/ERROR_/);
      expect(refused.results.items).toEqual([]);
      expect(refused.counts).toMatchObject({ total: null, processed: 0 });
      expect(await exists(key)).toBe(false);
      expect(await keysNaming(batch.id)).toEqual([]);
    }
    expect(await countListed(token, [good.invoiceId, bombed.invoiceId])).toBe(0);
  }, 300_000);

  it('refuses three zips that lie about an entry in a row, each whole and at once, and takes the next zip', async () => {
    const token = await supplierToken();
    const kept: string[] = [];
    for (let lie = 0; lie < 3; lie++) {
      const documents = correlatives(3).map((correlative) => ublFactura(correlative));
      kept.push(...documents.map((document) => document.invoiceId));
      const zip = await zipOf(
        documents.flatMap((document): Entry[] => [
          [`${baseOf(document.invoiceId)}.xml`, document.bytes],
          [`${baseOf(document.invoiceId)}.pdf`, MINIMAL_PDF],
        ]),
      );
      // The last XML's central directory record declares 10 bytes: only inflating it shows the lie.
      const name = Buffer.from(`${baseOf(documents[2]!.invoiceId)}.xml`);
      const record = zip.lastIndexOf(name) - 46;
      expect(zip.readUInt32LE(record)).toBe(0x02014b50);
      zip.writeUInt32LE(10, record + 24);
      const { key, batch } = await submit(token, zip, `mentiroso-${lie}.zip`);
      const refused = await ended(token, batch.id);
      expect(refused).toMatchObject({ status: 'REFUSED', error: { code: 'ERROR_ZIP_ENTRY_CORRUPT' } });
      expect(refused.error?.message).toContain('no se registró ningún comprobante del ZIP');
      expect(refused.results.items).toEqual([]);
      expect(await exists(key)).toBe(false);
    }
    expect(await countListed(token, kept)).toBe(0);

    // Refused batches hold no slot of the supplier's batches at once: the next zip is taken and done.
    const [correlative] = correlatives(1);
    const good = ublFactura(correlative!);
    const zip = await zipOf([
      [`${baseOf(good.invoiceId)}.xml`, good.bytes],
      [`${baseOf(good.invoiceId)}.pdf`, MINIMAL_PDF],
    ]);
    const { batch } = await submit(token, zip, 'bueno.zip');
    expect((await ended(token, batch.id)).status).toBe('DONE');
    registered.push(good.invoiceId);
  }, 300_000);

  it('refuses at once an upload that is no zip, and shows a batch to its uploader only', async () => {
    const token = await supplierToken();
    const notZip = await uploadAs(token, 'INVOICE_PDF', MINIMAL_PDF, 'application/pdf', 'lote.pdf');
    const wrong = await call(routes.createIntakeBatch, { token, body: { url: notZip } });
    expect(wrong.status).toBe(400);

    const [correlative] = correlatives(1);
    const { bytes, invoiceId } = ublFactura(correlative!);
    registered.push(invoiceId);
    const { batch } = await submit(
      token,
      await zipOf([
        [`${baseOf(invoiceId)}.xml`, bytes],
        [`${baseOf(invoiceId)}.pdf`, MINIMAL_PDF],
      ]),
    );
    const other = demoAccount('proveedor2@demo.pe');
    const otherToken = await idTokenOf(other.username, other.password);
    const theirs = await call<{ message: string }>(routes.getIntakeBatch, {
      token: otherToken,
      path: { batchId: batch.id },
    });
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe('No se encontró la carga de ZIP solicitada.');
    const otherList = await call<IntakeBatchList>(routes.listIntakeBatches, { token: otherToken });
    expect(otherList.body.items.map((item) => item.id)).not.toContain(batch.id);
    // Staff send no documents: the routes are not theirs.
    const manager = demoUser('MANAGER');
    const managerRead = await readBatch(await idTokenOf(manager.username, manager.password), batch.id);
    expect(managerRead.status).toBe(403);
    // An administrator reads it.
    const admin = demoUser('ADMIN');
    const adminRead = await call(routes.getIntakeBatch, {
      token: await idTokenOf(admin.username, admin.password),
      path: { batchId: batch.id },
      headers: { [HEADERS.companyId]: SUPPLIER.taxId },
    });
    expect(adminRead.status).toBe(200);
    await ended(token, batch.id);
  }, 300_000);

  it("tells the supplier SUNAT's confirmation of a zip's documents by the zip's one notice, not one per document", async () => {
    const token = await supplierToken();
    const invoices = await sunatAnswered(token);
    const valid = new Set(invoices.filter((invoice) => invoice.certStatus === 'VALID').map((invoice) => invoice.id));
    expect(valid.size).toBeGreaterThan(100);
    // The supplier's feed holds no SUNAT_VALID of them; the staff's digest log has each, for the day's summary.
    const supplierFeed = await table().partition(`FEED#SUPPLIER#${SUPPLIER.taxId}`);
    const confirmations = supplierFeed.filter(
      (item) =>
        item.event === 'SUNAT_VALID' && valid.has(String((item.reference as { invoiceId?: string })?.invoiceId)),
    );
    expect(confirmations).toEqual([]);
    const digest = await table().partition(`DIGEST#CLIENT#${COMPANY.taxId}`);
    const logged = digest.filter(
      (item) =>
        item.event === 'SUNAT_VALID' && valid.has(String((item.reference as { invoiceId?: string })?.invoiceId)),
    );
    expect(logged.length).toBe(valid.size);
  }, 200_000);
});

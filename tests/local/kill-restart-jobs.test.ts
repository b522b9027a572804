import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  keys,
  routes,
  withCheckDigit,
  type ExportJob,
  type IntakeBatch,
  type IntakeBatchSummary,
} from '@portal/shared';
import type { LaunchedStage } from '../../local/runtime/launch.js';
import type { LocalOutputs } from '../../local/runtime/outputs.js';
import { acquireSlot, releaseSlot } from '../setup/local-stage.js';
import { call } from '../support/api.js';
import { bulkInvoice, mailbox, putInvoicesIn } from '../support/fixtures.js';
import { freshCorrelative, listedAt, ublFactura } from '../support/invoices.js';
import { sendMail } from '../support/mail.js';
import { CLIENTS, SUPPLIERS } from '../support/tenant.js';
import { MINIMAL_PDF, uploadAs, zipOf } from '../support/uploads.js';
import { demoToken, launchOwnStage, stageTable } from './helpers.js';

/**
 * The stage SIGKILLed while three long jobs are under way (docs/intake-channels.md#lease-and-resume): a zip of 50
 * documents, an export of 10,000 rows and an e-mail with 20. After a restart on the same data each ends within two
 * minutes, its documents registered once and each result recorded, by the outbox sweeper taking over the lapsed
 * leases (the queue messages of the jobs died with the SQS stand-in's memory).
 */
const ZIP_DOCUMENTS = 50;
const EXPORT_ROWS = 10_000;
const MAIL_DOCUMENTS = 20;
const RESTART_BUDGET_MS = 120_000;

const SUPPLIER = SUPPLIERS[0]!;
const COMPANY = CLIENTS[0]!;
/** The exported invoices' supplier, of this stage only. */
const EXPORTED_SUPPLIER = {
  taxId: withCheckDigit(`208${String(Date.now() % 10_000_000).padStart(7, '0')}`),
  name: 'Proveedora de la Exportación Interrumpida S.A.C.',
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `count` facturas of the demo supplier to the first company, each its XML and PDF, as entries of a zip. */
function documents(count: number): { ids: string[]; entries: [string, Buffer][] } {
  const ids: string[] = [];
  const entries: [string, Buffer][] = [];
  for (let i = 0; i < count; i += 1) {
    const { bytes, invoiceId } = ublFactura(freshCorrelative());
    const base = `${SUPPLIER.taxId}-01-${invoiceId}`;
    ids.push(invoiceId);
    entries.push([`${base}.xml`, bytes], [`${base}.pdf`, MINIMAL_PDF]);
  }
  return { ids, entries };
}

/** The e-mail's record and its documents' results, as the table holds them. */
async function mailRecord(db: DynamoDBDocumentClient, outputs: LocalOutputs, messageId: string) {
  const record = await db.send(
    new GetCommand({ TableName: outputs.tableName, Key: keys.inboundMessage(messageId), ConsistentRead: true }),
  );
  const results = await db.send(
    new QueryCommand({
      TableName: outputs.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :results)',
      ExpressionAttributeValues: {
        ':pk': keys.inboundMessage(messageId).pk,
        ':results': keys.inboundMessageResultPrefix,
      },
      ConsistentRead: true,
    }),
  );
  return { record: record.Item, results: results.Items ?? [] };
}

describe('the local stage killed during long jobs', () => {
  it(
    `finishes a zip of ${ZIP_DOCUMENTS}, an export of ${EXPORT_ROWS.toLocaleString('en')} rows and an e-mail ` +
      `of ${MAIL_DOCUMENTS} after a restart: each document once, each result recorded, «reanudado» shown`,
    { timeout: 600_000 },
    async () => {
      const slot = await acquireSlot({ extraStage: true });
      const launch = (keepData: boolean) => launchOwnStage(slot, { keepData });
      let stage: LaunchedStage | null = null;
      try {
        const launching = Date.now();
        stage = await launch(false);
        console.info(`kill-restart-jobs: stage up in ${((Date.now() - launching) / 1000).toFixed(1)} s`);
        let outputs = stage.outputs;
        let db = stageTable(outputs);
        const seeding = Date.now();
        await putInvoicesIn(
          db,
          outputs.tableName,
          Array.from({ length: EXPORT_ROWS }, (_, n) =>
            bulkInvoice(n, { prefix: 'KX01', supplier: EXPORTED_SUPPLIER, company: COMPANY, status: 'PENDING' }),
          ),
          { only: 'supplierAtCompany' },
        );
        console.info(
          `kill-restart-jobs: ${EXPORT_ROWS} invoices seeded in ${((Date.now() - seeding) / 1000).toFixed(1)} s`,
        );
        const supplier = await demoToken(outputs, 'SUPPLIER');
        // The supplier's account: its address sends the e-mail and gets the answer.
        const sender = outputs.demoUsers.find((user) => user.role === 'SUPPLIER' && user.taxId === SUPPLIER.taxId)!;
        const admin = await demoToken(outputs, 'ADMIN');
        const zipped = documents(ZIP_DOCUMENTS);
        const mailed = documents(MAIL_DOCUMENTS);
        const zip = await zipOf(zipped.entries);
        const zipKey = await uploadAs(supplier, 'INVOICE_ZIP', zip, 'application/zip', 'lote.zip', outputs.apiUrl);

        // The three jobs at once.
        const subject = `Facturas del lote ${mailed.ids[0]}`;
        const [{ messageId }, exported, batch] = await Promise.all([
          sendMail(
            {
              from: sender.username,
              toCompany: COMPANY.taxId,
              subject,
              attachments: [{ filename: 'facturas.zip', content: await zipOf(mailed.entries) }],
            },
            outputs,
          ),
          call<ExportJob>(routes.createExport, {
            apiUrl: outputs.apiUrl,
            token: admin,
            body: {
              list: 'invoices',
              format: 'xlsx',
              filters: { client: COMPANY.taxId, issuer: EXPORTED_SUPPLIER.taxId },
            },
            headers: { 'company-id': COMPANY.taxId },
          }),
          call<IntakeBatchSummary>(routes.createIntakeBatch, {
            apiUrl: outputs.apiUrl,
            token: supplier,
            body: { url: zipKey },
          }),
        ]);
        expect(exported.status, JSON.stringify(exported.body)).toBe(202);
        expect(exported.body.total).toBe(EXPORT_ROWS);
        expect(batch.status, JSON.stringify(batch.body)).toBe(202);

        const readBatch = async () =>
          (
            await call<IntakeBatch>(routes.getIntakeBatch, {
              apiUrl: outputs.apiUrl,
              token: supplier,
              path: { batchId: batch.body.id },
              query: { limit: 500 },
            })
          ).body;
        const readExport = async () =>
          (
            await call<ExportJob>(routes.getExport, {
              apiUrl: outputs.apiUrl,
              token: admin,
              path: { exportId: exported.body.id },
            })
          ).body;

        // Killed once a worker holds each of them and the zip is part-way: none may have ended by then.
        const deadline = Date.now() + 60_000;
        let seen: string;
        for (;;) {
          const [zipNow, exportNow, mailNow] = await Promise.all([
            readBatch(),
            readExport(),
            mailRecord(db, outputs, messageId),
          ]);
          seen =
            `zip ${zipNow.status} ${zipNow.counts.processed}/${ZIP_DOCUMENTS}, export ${exportNow.status} ` +
            `${exportNow.rows}/${EXPORT_ROWS}, e-mail ${mailNow.record?.state ?? 'not received'} ` +
            `${mailNow.results.length}/${MAIL_DOCUMENTS}`;
          expect(['QUEUED', 'PROCESSING'], `the zip ended before the kill: ${seen}`).toContain(zipNow.status);
          expect(['QUEUED', 'RUNNING'], `the export ended before the kill: ${seen}`).toContain(exportNow.status);
          expect(mailNow.record?.state, `the e-mail ended before the kill: ${seen}`).not.toBe('DONE');
          if (
            zipNow.status === 'PROCESSING' &&
            zipNow.counts.processed > 0 &&
            exportNow.status === 'RUNNING' &&
            mailNow.record?.state === 'PROCESSING'
          )
            break;
          if (Date.now() > deadline) throw new Error(`the jobs never were all under way: ${seen}`);
          await sleep(25);
        }
        await stage.kill('SIGKILL');
        console.info(`kill-restart-jobs: killed with ${seen}`);
        db.destroy();

        // The same data directory; the queues' messages died with the stand-in.
        const relaunching = Date.now();
        stage = await launch(true);
        console.info(`kill-restart-jobs: stage up again in ${((Date.now() - relaunching) / 1000).toFixed(1)} s`);
        outputs = stage.outputs;
        db = stageTable(outputs);
        const restartedAt = Date.now();
        let zipEnd: IntakeBatch;
        let exportEnd: ExportJob;
        let mailEnd: Awaited<ReturnType<typeof mailRecord>>;
        for (;;) {
          [zipEnd, exportEnd, mailEnd] = await Promise.all([
            readBatch(),
            readExport(),
            mailRecord(db, outputs, messageId),
          ]);
          const ended =
            ['DONE', 'REFUSED', 'FAILED'].includes(zipEnd.status) &&
            ['READY', 'FAILED'].includes(exportEnd.status) &&
            mailEnd.record?.state === 'DONE' &&
            mailEnd.record.answered === true;
          if (ended) break;
          if (Date.now() - restartedAt > RESTART_BUDGET_MS)
            throw new Error(
              `not ended ${RESTART_BUDGET_MS / 1000} s after the restart: zip ${zipEnd.status}, ` +
                `export ${exportEnd.status}, e-mail ${mailEnd.record?.state}`,
            );
          await sleep(500);
        }
        console.info(
          `kill-restart-jobs: all three ended ${((Date.now() - restartedAt) / 1000).toFixed(1)} s after the restart`,
        );

        // The zip: DONE with a result for each document, each ACCEPTED (the resumed run recognises its own).
        expect(zipEnd).toMatchObject({
          status: 'DONE',
          counts: { total: ZIP_DOCUMENTS, accepted: ZIP_DOCUMENTS, refused: 0 },
        });
        expect(zipEnd.resumedAt).not.toBeNull();
        expect(zipEnd.results.items.map((result) => result.outcome)).toEqual(Array(ZIP_DOCUMENTS).fill('ACCEPTED'));

        // The export: every row that matched when it was asked, once.
        expect(exportEnd).toMatchObject({
          status: 'READY',
          rows: EXPORT_ROWS,
          total: EXPORT_ROWS,
          totalChanged: false,
        });
        expect(exportEnd.resumedAt).not.toBeNull();
        const file = await fetch(exportEnd.url!);
        expect(file.status).toBe(200);
        const book = new ExcelJS.Workbook();
        await book.xlsx.load(await file.arrayBuffer());
        const sheet = book.worksheets[0]!;
        const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
        const idColumn = header.indexOf('Serie-Número') + 1;
        const exportedIds = new Set<string>();
        for (let r = 2; r <= sheet.rowCount; r += 1) exportedIds.add(String(sheet.getRow(r).getCell(idColumn).value));
        expect(sheet.rowCount).toBe(EXPORT_ROWS + 1);
        expect(exportedIds.size).toBe(EXPORT_ROWS);

        // The e-mail: REGISTERED, a result per document, one answer saying it was resumed.
        expect(mailEnd.record).toMatchObject({ state: 'DONE', outcome: 'REGISTERED' });
        expect(mailEnd.results).toHaveLength(MAIL_DOCUMENTS);
        const answers = (await mailbox(outputs.endpoints)).filter(
          (mail) => mail.to.includes(sender.username) && mail.subject.includes(subject),
        );
        expect(answers).toHaveLength(1);
        expect(answers[0]!.text).toContain('se interrumpió y se reanudó');
        for (const id of mailed.ids) expect(answers[0]!.text).toContain(id);

        // Each document registered once, in the supplier's own list.
        const invoices = await listedAt(supplier, COMPANY.taxId, [...zipped.ids, ...mailed.ids], outputs.apiUrl);
        expect(invoices.map((invoice) => invoice.id).sort()).toEqual([...zipped.ids, ...mailed.ids].sort());
        db.destroy();
      } finally {
        await stage?.stop();
        await releaseSlot(slot);
      }
    },
  );
});

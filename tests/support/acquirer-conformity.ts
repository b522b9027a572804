import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import {
  QUEUES,
  addDays,
  conformityClockRecord,
  limaDayOf,
  openAcquirerConformity,
  computePayment,
  keys,
  type Invoice,
  type InvoicePayment,
} from '@portal/shared';
import { offsetFileClock } from '../../functions/src/adapters/clock.js';
import { runAcquirerConformityClock } from '../../functions/src/jobs/acquirer-conformity-clock.js';
import { makeConformityClocks } from '../../functions/src/repositories/acquirer-conformity-clocks.js';
import { makeInvoiceStore } from '../../functions/src/repositories/invoice-store.js';
import { makeOutgoing, type QueueKey } from '../../functions/src/repositories/outgoing.js';
import { advanceStageClock, resetStageClock, stageClockFile, stageNow } from '../../local/runtime/stage-clock.js';
import { aStatusEntry, anInvoice, between } from './builders.js';
import { queuesDrained, stageDocumentClient, table } from './fixtures.js';
import { stage } from './stage.js';
import { tenantFixture } from './tenant.js';
import { runSchedule } from './schedules.js';

const DAY_MS = 86_400_000;
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** The test stage's "now" (real time plus the offset `npm run clock` sets). */
export const stageTime = (): Date => stageNow(stage().dataDir);

/** Moves the test stage's clock forward by whole days (every handler, worker, job and simulator reads it). */
export async function moveStageClock(days: number): Promise<void> {
  await advanceStageClock(stage().dataDir, days * 86_400);
}

/**
 * Puts the test stage's clock back on real time, and takes out of the feeds what was registered while it ran ahead.
 * The feeds show their newest notices first, RECENT_LIMIT of them: notices dated days ahead (the conformity job's
 * reminders for every open clock of the table, other files' invoices among them) would stay on top of the demo
 * staff's feed and hide the notices other test files wait for. A real stage's clock never goes back, so none of its
 * notices is ever dated ahead.
 */
export async function putStageClockBack(): Promise<void> {
  await resetStageClock(stage().dataDir);
  // The stage's job never runs twice at once: once a run asked now has ended, none that read the clock ahead is left,
  // and once the notifications queue is empty, none of its notices is left to be written after the sweep below.
  await runConformityClock();
  await queuesDrained(['notifications']);
  const { tableName } = stage();
  const db = stageDocumentClient();
  const items = table();
  const now = new Date().toISOString();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: 'begins_with(sk, :notice) AND registeredAt > :now',
        ExpressionAttributeValues: { ':notice': keys.notificationPrefix, ':now': now },
        ProjectionExpression: 'pk, sk',
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) await items.delete(item as { pk: string; sk: string });
    start = page.LastEvaluatedKey;
  } while (start);
  db.destroy();
}

/** Runs the stage's AcquirerConformityClock job now (it also runs on its timer) and waits for that run to end. */
export function runConformityClock(): Promise<void> {
  return runSchedule('AcquirerConformityClock');
}

/**
 * The job built in the test's own process against the stage's table and queues, on the stage's clock: two of them
 * run at once as two overlapping scheduled invocations would in AWS (the stage's own timer never overlaps runs).
 */
export function conformityClockJob() {
  const { endpoints, region, tableName, queues } = stage();
  const db = stageDocumentClient();
  const sqs = new SQSClient({ region, endpoint: endpoints.sqs, credentials });
  const queueOf = (key: QueueKey) => ({
    async send(body: unknown) {
      await sqs.send(new SendMessageCommand({ QueueUrl: queues[key]!.url, MessageBody: JSON.stringify(body) }));
    },
  });
  const clock = offsetFileClock(stageClockFile(stage().dataDir));
  const quiet = { info: () => undefined, error: () => undefined };
  const outgoing = makeOutgoing(
    db,
    tableName,
    Object.fromEntries((Object.keys(QUEUES) as QueueKey[]).map((key) => [key, queueOf(key)])) as Record<
      QueueKey,
      ReturnType<typeof queueOf>
    >,
    quiet,
    clock,
  );
  const deps = {
    clocks: makeConformityClocks(db, tableName),
    store: makeInvoiceStore(db, tableName),
    outgoing,
    clock,
    log: quiet,
  };
  return { run: (txId?: string) => runAcquirerConformityClock(deps, txId) };
}

let sequence = (Date.now() % 900_000) + 100_000;

/** The payment of a factura al crédito in soles, in two cuotas 30 and 60 days after the issue, as intake computes it. */
export function creditTerms(issuedAt: string, amount: number, receivedAt: string): InvoicePayment {
  const half = Math.round((amount / 2) * 100) / 100;
  return computePayment({
    type: 'FACTURA',
    currency: 'PEN',
    amount,
    taxAmount: Math.round((amount - amount / 1.18) * 100) / 100,
    method: 'CREDITO',
    installments: [
      { number: 1, amount: half, dueDate: addDays(issuedAt, 30) },
      { number: 2, amount: Math.round((amount - half) * 100) / 100, dueDate: addDays(issuedAt, 60) },
    ],
    declaredPendingAmount: amount,
    dueDates: [],
    detraction: null,
    receivedAt,
    company: {},
    supplierExemption: null,
  });
}

/**
 * A factura al crédito received `receivedDaysAgo` days ago (the stage's clock) with its running clock and clock
 * record, as its intake would have left it; each test its own number.
 */
export async function creditInvoiceFixture(options: {
  client: { taxId: string; name: string };
  supplier: { taxId: string; name: string };
  receivedDaysAgo: number;
  responsible?: { id: string; fullName: string; office: string } | null;
}): Promise<Invoice> {
  const now = stageTime();
  const receivedAt = new Date(now.getTime() - options.receivedDaysAgo * DAY_MS).toISOString();
  const issuedAt = addDays(limaDayOf(receivedAt), -1);
  const numericId = String(sequence++);
  const conformity = openAcquirerConformity({ receivedAt });
  const invoice = anInvoice({
    prefixId: 'F002',
    numericId,
    ...between(options.supplier, options.client),
    responsible: options.responsible ?? null,
    issuedAt,
    receivedAt,
    statusHistory: [aStatusEntry('PENDING', { additionalMessage: 'Comprobante recibido', date: receivedAt })],
    payment: creditTerms(issuedAt, 1180, receivedAt),
    acquirerConformity: conformity,
  });
  await table().putInvoice(invoice);
  await table().put(conformityClockRecord(invoice, conformity, { revision: 1, at: now }));
  return invoice;
}

/**
 * The corpus' factura al crédito (two cuotas, SUNAT's FormaPago terms) as the demo supplier issues it to the demo
 * company, with its own number, issued `issuedAt` and payable 30 and 60 days later; or, `cash`, al contado.
 */
export function creditFacturaXml(options: { numericId: string; issuedAt: string; cash?: boolean }): Buffer {
  let xml = tenantFixture('ubl/factura-ubl21-credito.xml')
    .replace('<cbc:ID>F001-00000458</cbc:ID>', `<cbc:ID>F001-${options.numericId}</cbc:ID>`)
    .replace('<cbc:IssueDate>2025-03-14</cbc:IssueDate>', `<cbc:IssueDate>${options.issuedAt}</cbc:IssueDate>`)
    .replace('<cbc:DueDate>2025-05-13</cbc:DueDate>', `<cbc:DueDate>${addDays(options.issuedAt, 60)}</cbc:DueDate>`)
    .replaceAll('2025-04-13', addDays(options.issuedAt, 30))
    .replaceAll('2025-05-13', addDays(options.issuedAt, 60));
  if (options.cash) {
    xml = xml
      .replace(
        /<cac:PaymentTerms>\s*<cbc:ID>FormaPago<\/cbc:ID>\s*<cbc:PaymentMeansID>Cuota\d+[\s\S]*?<\/cac:PaymentTerms>/g,
        '',
      )
      .replace(
        /<cbc:PaymentMeansID>Credito<\/cbc:PaymentMeansID>\s*<cbc:Amount[^>]*>[^<]*<\/cbc:Amount>/,
        '<cbc:PaymentMeansID>Contado</cbc:PaymentMeansID>',
      );
  }
  return Buffer.from(xml, 'utf8');
}

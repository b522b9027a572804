import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import yazl from 'yazl';
import { routes, type IntakeBatch, type IntakeBatchSummary, type UploadTicket } from '@portal/shared';
import { ROOT_DIR } from '../../local/runtime/config.js';
import type { LocalOutputs } from '../../local/runtime/outputs.js';
import { LOCAL_CREDENTIALS } from '../../local/stand-ins/types.js';
import { freshCorrelative } from '../../tests/support/invoices.js';
import type { BenchSuite, Figure } from '../lib/figures.js';
import { supplierToken } from '../lib/sign-in.js';
import { until } from '../../tests/support/until.js';

/** A full zip: 500 documents, done within a minute on 2 cores (the target). */
const DOCUMENTS = { full: 500, quick: 50 };
/** The zip sent once before the measured ones, not counted. */
const WARM_UP_DOCUMENTS = { full: 50, quick: 10 };
const MAX_SECONDS = 60;
const SUPPLIER = 'proveedor@demo.pe';

const MINIMAL_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);

/**
 * A zip of `count` facturas of the demo supplier (the corpus document of the tests, each with a correlative of its
 * own that the SUNAT simulator answers valid at once), each with its PDF.
 */
async function documentsZip(count: number, supplierRuc: string): Promise<Buffer> {
  const xml = readFileSync(path.join(ROOT_DIR, 'tests/fixtures/ubl/factura-ubl21-credito.xml'), 'utf8');
  const zip = new yazl.ZipFile();
  for (let added = 0; added < count; added++) {
    const id = `F001-${freshCorrelative().padStart(8, '0')}`;
    const base = `${supplierRuc}-01-${id}`;
    zip.addBuffer(Buffer.from(xml.replaceAll('F001-00000458', id)), `${base}.xml`);
    zip.addBuffer(MINIMAL_PDF, `${base}.pdf`);
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function api<T>(apiUrl: string, token: string, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${apiUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await response.json()) as T;
  if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

interface Run {
  readonly seconds: number;
  readonly processingSeconds: number;
  readonly accepted: number;
  /** The stage's AWS SDK calls during the run, by `Service.Command` (with BENCH_SDK_CALLS_FILE only). */
  readonly calls: Record<string, number> | null;
}

type Calls = Record<string, number>;

/**
 * The local stage's SDK calls so far, when the stage counts them (bench/lib/sdk-calls.mjs, loaded by
 * BENCH_STAGE_NODE_ARGS="--import ./bench/lib/sdk-calls.mjs" with BENCH_SDK_CALLS_FILE set): null otherwise.
 */
function stageCalls(): Calls | null {
  const file = process.env.BENCH_SDK_CALLS_FILE;
  if (!file) return null;
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Calls) : {};
}

/** Idle pollers' long polls go on whatever the stage does: they do not make it busy. */
const busy = (calls: Calls) => Object.entries(calls).filter(([name]) => name !== 'SQS.ReceiveMessage');

/**
 * The counts once the stage is quiet: unchanged (but for idle long polls) for three seconds, so that what a batch
 * sets off after it ends (its SUNAT checks, notices and e-mails, in other workers) is counted with it; at most a
 * minute.
 */
async function settledCalls(): Promise<Calls | null> {
  const wait = () => new Promise((resolve) => setTimeout(resolve, 1000));
  let last = stageCalls();
  if (!last) return null;
  let quiet = 0;
  for (let second = 0; second < 60 && quiet < 3; second++) {
    await wait();
    const now = stageCalls()!;
    quiet = JSON.stringify(busy(now)) === JSON.stringify(busy(last)) ? quiet + 1 : 0;
    last = now;
  }
  return last;
}

/**
 * Waits until the stage's queues have held nothing, visible or in flight, for three seconds in a row (at most five
 * minutes): what the previous zip set off (its SUNAT checks, notices and e-mails) is done before the next one is
 * timed, so that each zip is measured beside its own follow-up work only, not beside the backlog of the one before.
 */
async function queuesQuiet(outputs: LocalOutputs): Promise<void> {
  const sqs = new SQSClient({
    region: outputs.region,
    endpoint: outputs.endpoints.sqs,
    credentials: LOCAL_CREDENTIALS,
  });
  let quiet = 0;
  const quietThrice = async () => {
    let held = 0;
    for (const queue of Object.values(outputs.queues)) {
      const { Attributes } = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: queue.url,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
      );
      held +=
        Number(Attributes?.ApproximateNumberOfMessages) + Number(Attributes?.ApproximateNumberOfMessagesNotVisible);
    }
    quiet = held === 0 ? quiet + 1 : 0;
    return quiet >= 3;
  };
  try {
    await until(quietThrice, { timeout: 5 * 60_000, interval: 1000, message: "the stage's queues to empty" });
  } finally {
    sqs.destroy();
  }
}

function callsBetween(before: Calls | null, after: Calls | null): Calls | null {
  if (!before || !after) return null;
  return Object.fromEntries(
    Object.entries(after)
      .map(([name, count]) => [name, count - (before[name] ?? 0)] as const)
      .filter(([, count]) => count > 0)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

const SERVICES = ['DynamoDB', 'S3', 'SQS'] as const;
const ofService = (calls: Calls, service: string) =>
  Object.entries(calls).reduce((sum, [name, count]) => (name.startsWith(`${service}.`) ? sum + count : sum), 0);

/** 'Cargar ZIP' as the web app does it, timed from the upload ticket to the batch's end. */
async function runOnce(outputs: LocalOutputs, apiUrl: string, token: string, zip: Buffer, count: number): Promise<Run> {
  await queuesQuiet(outputs);
  const callsBefore = await settledCalls();
  const started = performance.now();
  const ticket = await api<UploadTicket>(apiUrl, token, 'POST', routes.createUpload.path, {
    purpose: 'INVOICE_ZIP',
    fileName: 'bench.zip',
    contentType: 'application/zip',
    size: zip.length,
  });
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.fields)) form.append(name, value);
  form.append('file', new Blob([zip], { type: 'application/zip' }), 'bench.zip');
  const stored = await fetch(ticket.url, { method: 'POST', body: form });
  await stored.arrayBuffer();
  if (stored.status >= 300) throw new Error(`The bucket refused the zip: ${stored.status}`);
  const queued = performance.now();
  const created = await api<IntakeBatchSummary>(apiUrl, token, 'POST', routes.createIntakeBatch.path, {
    url: ticket.key,
  });
  const batch = await until(
    async () => {
      const batch = await api<IntakeBatch>(apiUrl, token, 'GET', `/intake-batches/${created.id}?limit=1`);
      return (batch.status === 'DONE' || batch.status === 'REFUSED' || batch.status === 'FAILED') && batch;
    },
    { timeout: 10 * 60_000 - (performance.now() - started), interval: 250, message: `the batch ${created.id} to end` },
  );
  const ended = performance.now();
  if (batch.status !== 'DONE' || batch.counts.accepted !== count) {
    throw new Error(`The batch ended ${batch.status}: ${JSON.stringify(batch.counts)} ${JSON.stringify(batch.error)}`);
  }
  return {
    seconds: (ended - started) / 1000,
    processingSeconds: (ended - queued) / 1000,
    accepted: batch.counts.accepted,
    calls: callsBetween(callsBefore, await settledCalls()),
  };
}

const round = (value: number) => Math.round(value * 100) / 100;

/**
 * 'Cargar ZIP' end to end on the local stage, against its one-minute target: a zip of 500 documents, each its
 * XML and PDF, uploaded presigned, registered by POST /intake-batches, read by the intake-batches worker behind the
 * stage's poller (every check of 'Cargar XML' per document, a few at once), until the batch is DONE with 500
 * accepted. Each repetition sends new documents (the same ones again would all be 'ya existe').
 */
export const suite: BenchSuite = {
  name: 'zip-intake',
  async run(context) {
    const count = context.quick ? DOCUMENTS.quick : DOCUMENTS.full;
    const stage = await context.stage();
    const token = await supplierToken(stage.outputs);
    const ruc = stage.outputs.demoUsers.find((user) => user.username === SUPPLIER)!.taxId!;
    // Once through, not counted (as the api, cost and intake-latency suites do): the stage's handlers and workers
    // make their first calls and open their connections, and DynamoDB Local's JVM compiles its hot paths, which the
    // first measured zip otherwise pays for (a deployed stage's DynamoDB has no JIT to warm).
    const warmUpCount = context.quick ? WARM_UP_DOCUMENTS.quick : WARM_UP_DOCUMENTS.full;
    const warmUp = await runOnce(stage.outputs, stage.apiUrl, token, await documentsZip(warmUpCount, ruc), warmUpCount);
    context.log(`warm-up, not counted: a zip of ${warmUpCount} documents, ${warmUp.seconds.toFixed(1)} s`);
    const runs: Run[] = [];
    for (let index = 0; index < context.repeats; index += 1) {
      const zip = await documentsZip(count, ruc);
      const run = await runOnce(stage.outputs, stage.apiUrl, token, zip, count);
      runs.push(run);
      context.log(
        `zip of ${count} documents (${(zip.length / 1e6).toFixed(1)} MB): ${run.seconds.toFixed(1)} s end to end, ` +
          `${run.processingSeconds.toFixed(1)} s from POST /intake-batches, ${run.accepted} accepted`,
      );
      if (run.calls) context.log(`the stage's SDK calls during the run: ${JSON.stringify(run.calls)}`);
    }
    const figures: Figure[] = [
      {
        id: `zip-intake.${count}.time`,
        label: `Cargar ZIP: ${count} documents (XML + PDF), upload to DONE`,
        unit: 's',
        samples: runs.map((run) => round(run.seconds)),
        target: { max: MAX_SECONDS },
      },
      {
        id: `zip-intake.${count}.rate`,
        label: `Cargar ZIP: documents registered per second (${count} documents)`,
        unit: 'docs/s',
        samples: runs.map((run) => round(count / run.processingSeconds)),
      },
    ];
    const counted = runs.flatMap((run) => (run.calls ? [run.calls] : []));
    if (counted.length === runs.length) {
      for (const service of SERVICES) {
        figures.push({
          id: `zip-intake.${count}.calls.${service.toLowerCase()}`,
          label: `Cargar ZIP: ${service} requests of the whole stage per document (every worker until quiet, the screen's polling)`,
          unit: 'count',
          samples: counted.map((calls) => round(ofService(calls, service) / count)),
          inSummary: true,
        });
      }
    }
    return figures;
  },
};

import path from 'node:path';
import { QUEUES, ROUTES, SCHEDULES, type QueueKey } from '@portal/shared';
import { ROOT_DIR } from '../../local/runtime/config.js';
import type { LocalOutputs } from '../../local/runtime/outputs.js';
import { costFigures, round } from '../lib/cost-figures.js';
import type { BenchContext, BenchSuite } from '../lib/figures.js';
import { livesOfInvoices, mailboxSize, openSession, sendDailyDigest, waitForMail } from '../lib/cost-journey.js';
import {
  fixedCost,
  loadPriceTable,
  total,
  variableCost,
  type Scenario,
  type VariableUsage,
} from '../lib/cost-model.js';
import {
  countCalls,
  invocationsOf,
  readSpans,
  tracesRecorded,
  type Invocation,
  type StoredSpan,
} from '../lib/cost-spans.js';
import { synthesizeStage } from '../lib/cost-infra.js';

/**
 * Money: what AWS bills for one invoice's whole life, per 1,000 invoices and by service, and what the
 * stage costs by the month whatever the invoices. Method and figures: docs/cost.md.
 *
 * Measured on the local stage: invoices driven through their life and the views of a month (bench/lib/cost-journey.ts);
 * every function invocation, its duration and its AWS calls read back from the stage's trace store, DynamoDB's
 * consumed capacity as DynamoDB Local reports it (ReturnConsumedCapacity on every call). Read from the prod stage's
 * synthesized templates: each function's memory and architecture, and what is billed by the month. Priced with the
 * dated table of the prod stage's region (bench/prices). What cannot be measured here is a stated assumption below.
 */

const PRICE_DIR = path.join(ROOT_DIR, 'bench/prices');
/** The stage whose region, memory settings and monthly items are priced. */
const PRICED_STAGE = 'prod';
const TARGET_USD_PER_1000 = 1.0;
const INVOICES = { full: 20, quick: 4 };
/** The cost scenario: a group receiving 10,000 invoices a month from 500 suppliers, with 50 staff. */
const SCENARIO: Scenario = { invoicesPerMonth: 10_000, suppliers: 500, supplierUsersPerSupplier: 2, staff: 50 };

/**
 * Assumptions (docs/cost.md, "What is assumed"): what the local stage cannot show.
 * - Cold starts: share of invocations that start a new execution environment, and the INIT each one bills (the bundle's
 *   import, ~100-130 ms on this machine per the functions suite, plus the ADOT collector extension starting).
 * - Log lines: Lambda's platform records (JSON format: start and report) per invocation, the "request served" line
 *   of every API request, the EMF metrics line of a worker or job, and WAF's record of every request it inspects.
 * - The web app's own requests through CloudFront per invoice (index.html and config.json per session; hashed assets
 *   cached a year by the browser), and their bytes.
 */
const ASSUMED = {
  coldStartShare: 0.2,
  initMs: 400,
  platformLogBytesPerInvocation: 700,
  requestServedLogBytes: 350,
  metricsLogBytesPerWorkerInvocation: 450,
  wafLogBytesPerRequest: 2000,
  webRequestsPerInvoice: 6,
  webBytesPerInvoice: 60 * 1024,
  /** Lambda's event source mapping: 5 long polls of 20 s at a time per queue, around the clock. */
  emptyReceivesPerQueueMonth: 5 * 3 * 60 * 24 * 30,
  /** Functions that read SUNAT's or SAP's credentials from Secrets Manager once per execution environment. */
  secretReaders: ['worker-sunat-validation', 'worker-miro-requests', 'job-sync-payments'],
} as const;

/** API Gateway's access log line, as the stage's format writes it, with typical values (bytes). */
function accessLogBytes(): number {
  return Buffer.byteLength(
    JSON.stringify({
      requestId: 'Ab1Cd2Ef3Gh4Ij5=',
      ip: '190.233.123.45',
      time: '27/Nov/2026:14:03:12 +0000',
      routeKey: 'GET /suppliers/{supplierId}/invoices/{invoiceType}/{invoiceId}',
      status: '200',
      responseLength: '2345',
      latencyMs: '48',
      integrationLatencyMs: '45',
      integrationError: '-',
      authorizerError: '-',
      userAgent:
        'Mozilla/5.0 (Linux; Android 13; SM-A145M) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36',
    }),
  );
}

/** Names each invocation span after the function that ran it (as PortalFunction tags them). */
function functionNamer(outputs: LocalOutputs): (span: StoredSpan) => string {
  const routeByKey = new Map(ROUTES.map((def) => [`${def.method} ${def.path}`, def.id]));
  const queueByName = new Map<string, QueueKey>();
  for (const [key, queue] of Object.entries(outputs.queues)) {
    queueByName.set(queue.url.split('/').pop()!, key as QueueKey);
  }
  const jobById = new Map<string, string>(Object.values(SCHEDULES).map((def) => [def.id, def.handler]));
  return (span) => {
    const trigger = span.attributes['faas.trigger'];
    if (trigger === 'http')
      return routeByKey.get(span.name) ?? (span.name === '$default' ? 'routeNotFound' : span.name);
    if (trigger === 'pubsub') {
      const key = queueByName.get(String(span.attributes['messaging.destination.name']));
      const consumer = key ? QUEUES[key].consumer : null;
      return consumer ? `worker-${consumer}` : span.name;
    }
    if (trigger === 'timer') {
      const handler = jobById.get(span.name.replace(/^scheduled /, ''));
      return handler ? `job-${handler}` : span.name;
    }
    return span.name;
  };
}

/** The jobs that run on their timer whatever the invoices: their runs are the fixed part. */
const BACKGROUND_JOBS = new Set([
  'job-sweep-outbox',
  'job-run-acquirer-conformity-clock',
  // Once a day whatever the invoices: priced as a fixed item, from its run in the last repetition.
  'job-send-daily-digest',
]);

interface Run {
  readonly invoices: number;
  readonly usage: VariableUsage;
  readonly invocations: Invocation[];
  readonly background: Invocation[];
  readonly emailsDelivered: number;
  readonly unmeteredDynamoCalls: number;
}

const gbSeconds = (invocation: Invocation, memoryMb: number) =>
  (Math.ceil(invocation.durationMs) / 1000) * (memoryMb / 1024);

/** What the synthesized stage says of each function and of the web ACL, as usageOf prices it. */
interface Priced {
  readonly memory: (fn: string) => number;
  readonly traceRatio: (fn: string) => number;
  readonly wafLogsAllowedRequests: boolean;
}

function usageOf(
  invocations: readonly Invocation[],
  { memory, traceRatio, wafLogsAllowedRequests }: Priced,
  invoices: number,
  traffic: { apiRequests: number; apiBytes: number; s3Posts: number; s3Gets: number },
): VariableUsage {
  const http = invocations.filter((invocation) => invocation.trigger === 'http');
  const workers = invocations.filter((invocation) => invocation.trigger === 'pubsub');
  const jobs = invocations.filter((invocation) => invocation.trigger === 'timer');
  const meanMemoryMb =
    invocations.reduce((sum, invocation) => sum + memory(invocation.fn), 0) / Math.max(1, invocations.length);
  const cold = invocations.length * ASSUMED.coldStartShare;
  const edgeRequests = traffic.apiRequests + traffic.s3Gets + ASSUMED.webRequestsPerInvoice * invoices;
  const secretReads = invocations.filter((invocation) =>
    (ASSUMED.secretReaders as readonly string[]).includes(invocation.fn),
  ).length;
  return {
    invoices,
    lambdaInvocations: invocations.length,
    lambdaGbSeconds: invocations.reduce((sum, invocation) => sum + gbSeconds(invocation, memory(invocation.fn)), 0),
    lambdaInitGbSeconds: cold * (ASSUMED.initMs / 1000) * (meanMemoryMb / 1024),
    apiRequests: http.length,
    edgeRequests,
    edgeBytesOut: traffic.apiBytes + ASSUMED.webBytesPerInvoice * invoices,
    dynamodbReadUnits: invocations.reduce((sum, invocation) => sum + invocation.readUnits, 0),
    dynamodbWriteUnits: invocations.reduce((sum, invocation) => sum + invocation.writeUnits, 0),
    // What the functions send, and per worker invocation the event source mapping's receive and batch delete.
    sqsRequests: countCalls(invocations, (call) => call.startsWith('SQS.')) + 2 * workers.length,
    s3PutRequests:
      countCalls(invocations, (call) =>
        /^S3\.(PutObject|CopyObject|CreateMultipartUpload|UploadPart|CompleteMultipartUpload|ListObjects)/.test(call),
      ) + traffic.s3Posts,
    s3GetRequests: countCalls(invocations, (call) => /^S3\.(GetObject|HeadObject)/.test(call)) + traffic.s3Gets,
    emails: countCalls(invocations, (call) => /^SES(v2)?\.Send/.test(call)),
    logBytes:
      invocations.length * ASSUMED.platformLogBytesPerInvocation +
      http.length * (ASSUMED.requestServedLogBytes + accessLogBytes()) +
      (workers.length + jobs.length) * ASSUMED.metricsLogBytesPerWorkerInvocation +
      // The journey's requests are all let through: logged only if the web ACL logs what it allows.
      (wafLogsAllowedRequests ? edgeRequests * ASSUMED.wafLogBytesPerRequest : 0),
    tracesRecorded: tracesRecorded(invocations, traceRatio),
    kmsRequests: countCalls(invocations, (call) => call.startsWith('KMS.')),
    secretsManagerCalls:
      countCalls(invocations, (call) => call.startsWith('SecretsManager.')) + secretReads * ASSUMED.coldStartShare,
    scheduledInvocations: jobs.length,
  };
}

/** Per function, from the last run: where the time and the capacity go. */
function logPerFunction(context: BenchContext, last: Run, memory: (fn: string) => number): void {
  const perFunction = new Map<string, { invocations: number; ms: number; rru: number; wru: number }>();
  for (const invocation of last.invocations) {
    const entry = perFunction.get(invocation.fn) ?? { invocations: 0, ms: 0, rru: 0, wru: 0 };
    entry.invocations += 1;
    entry.ms += invocation.durationMs;
    entry.rru += invocation.readUnits;
    entry.wru += invocation.writeUnits;
    perFunction.set(invocation.fn, entry);
  }
  for (const [fn, entry] of [...perFunction].sort((a, b) => b[1].ms - a[1].ms)) {
    context.log(
      `  ${fn}: ${round(entry.invocations / last.invoices)} per invoice, ${round(entry.ms / entry.invocations, 1)} ms mean, ` +
        `${round(entry.rru / last.invoices)} RRU and ${round(entry.wru / last.invoices)} WRU per invoice (${memory(fn)} MB)`,
    );
  }
}

/** The background jobs' idle runs, at AWS's schedule: each job's mean over the runs it was seen in. */
function idleJobRuns(
  runs: readonly Run[],
  memory: (fn: string) => number,
): Record<string, { gbSeconds: number; readUnits: number; writeUnits: number }> {
  const idleJobRun: Record<string, { gbSeconds: number; readUnits: number; writeUnits: number }> = {};
  for (const def of Object.values(SCHEDULES)) {
    const fn = `job-${def.handler}`;
    const seen = runs.flatMap((run) => run.background).filter((invocation) => invocation.fn === fn);
    if (seen.length === 0) continue;
    idleJobRun[def.id] = {
      gbSeconds: seen.reduce((sum, invocation) => sum + gbSeconds(invocation, memory(fn)), 0) / seen.length,
      readUnits: seen.reduce((sum, invocation) => sum + invocation.readUnits, 0) / seen.length,
      writeUnits: seen.reduce((sum, invocation) => sum + invocation.writeUnits, 0) / seen.length,
    };
  }
  return idleJobRun;
}

export const suite: BenchSuite = {
  name: 'cost',
  async run(context) {
    context.log(`synthesizing the ${PRICED_STAGE} stage (memory, architecture, monthly items)…`);
    const infra = synthesizeStage(PRICED_STAGE);
    const { table: prices, file: priceFile } = loadPriceTable(PRICE_DIR, infra.region);
    context.log(
      `${infra.inventory.functions} functions (${infra.architectures.join(', ')}), prices of ${prices.region} as of ${prices.date} (${path.relative(ROOT_DIR, priceFile)})`,
    );
    const unknownMemory = new Set<string>();
    const memory = (fn: string) => {
      const mb = infra.memoryMb[fn];
      if (mb !== undefined) return mb;
      unknownMemory.add(fn);
      return 512;
    };

    const priced: Priced = {
      memory,
      traceRatio: (fn) => infra.traceSampleRatio[fn] ?? 1,
      wafLogsAllowedRequests: infra.wafLogsAllowedRequests,
    };
    context.log(
      `traced: API reads ${infra.traceSampleRatio.listInvoices ?? 1} of their invocations, the rest all; ` +
        `the web ACL logs ${infra.wafLogsAllowedRequests ? 'every request' : 'only what a rule acted on'}`,
    );

    const stage = await context.stage();
    const { outputs } = stage;
    const session = await openSession(outputs);
    const nameOf = functionNamer(outputs);
    const count = context.quick ? INVOICES.quick : INVOICES.full;
    const repetitions = context.quick ? 1 : Math.min(context.repeats, 3);

    // Once through, unmeasured: the stage's handlers and the SDK clients warm (cold starts are priced apart).
    await livesOfInvoices(session, 1, 1);

    const runs: Run[] = [];
    let digestEmails = 0;
    for (let repetition = 0; repetition < repetitions; repetition++) {
      session.traffic.apiRequests = 0;
      session.traffic.apiBytes = 0;
      session.traffic.s3Posts = 0;
      session.traffic.s3Gets = 0;
      const mailBefore = await mailboxSize(outputs);
      const from = Date.now();
      await livesOfInvoices(session, count);
      // Each invoice e-mails its supplier three times (received, approved, paid; ADR 0039), the staff not at all.
      const mailAfter = await waitForMail(outputs, mailBefore + 3 * count);
      if (repetition === repetitions - 1) {
        // The staff's daily digest, once: one e-mail per staff account with reception on (the fixed part prices it).
        await sendDailyDigest(outputs);
        digestEmails = (await waitForMail(outputs, mailAfter + 1)) - mailAfter;
      }
      // The last spans are flushed at the end of their invocation and written a moment later.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const to = Date.now();
      const { invocations: all } = invocationsOf(readSpans(outputs.dataDir, from, to), nameOf);
      const background = all.filter((invocation) => BACKGROUND_JOBS.has(invocation.fn));
      const invocations = all.filter((invocation) => !BACKGROUND_JOBS.has(invocation.fn));
      const usage = usageOf(invocations, priced, count, { ...session.traffic });
      const unmetered = all.reduce((sum, invocation) => sum + invocation.unmeteredDynamoCalls, 0);
      if (usage.dynamodbReadUnits + usage.dynamodbWriteUnits === 0) {
        throw new Error('No DynamoDB capacity reported: is ReturnConsumedCapacity set on the functions’ client?');
      }
      if (usage.apiRequests !== session.traffic.apiRequests) {
        context.log(
          `warning: ${session.traffic.apiRequests} API requests made, ${usage.apiRequests} invocations traced`,
        );
      }
      runs.push({
        invoices: count,
        usage,
        invocations,
        background,
        emailsDelivered: mailAfter - mailBefore,
        unmeteredDynamoCalls: unmetered,
      });
      const lines = variableCost(usage, prices);
      context.log(
        `${count} invoices: ${invocations.length} invocations, ${usage.apiRequests} API requests, ` +
          `${round(usage.dynamodbReadUnits)} RRU, ${round(usage.dynamodbWriteUnits)} WRU, ${usage.emails} e-mails ` +
          `(${mailAfter - mailBefore} delivered), ${unmetered} DynamoDB calls without capacity → ` +
          `US$${total(lines).toFixed(4)} per 1,000 invoices`,
      );
    }
    context.log(`the staff's daily digest: ${digestEmails} e-mail(s) for the demo's staff with reception on`);
    if (unknownMemory.size > 0) context.log(`memory not found for ${[...unknownMemory].join(', ')} (512 MB assumed)`);

    logPerFunction(context, runs.at(-1)!, memory);

    // The fixed part: the stage's monthly items, and the background jobs' idle runs at AWS's schedule.
    const idleJobRun = idleJobRuns(runs, memory);
    // PaymentSync runs every 15 minutes in AWS, mostly with nothing to move: priced like the sweeper's idle run.
    idleJobRun[SCHEDULES.paymentSync.id] ??= idleJobRun[SCHEDULES.outboxSweeper.id]!;
    const fixed = fixedCost(
      {
        inventory: infra.inventory,
        scenario: SCENARIO,
        idleJobRun,
        emptyReceivesPerQueueMonth: ASSUMED.emptyReceivesPerQueueMonth,
      },
      prices,
    );
    for (const entry of fixed) {
      context.log(`  fixed ${entry.service} — ${entry.item}: US$${entry.usd.toFixed(2)}/month (${entry.buys})`);
    }

    return costFigures({
      runs,
      prices,
      fixed,
      scenario: SCENARIO,
      pricedStage: PRICED_STAGE,
      targetUsdPer1000: TARGET_USD_PER_1000,
    });
  },
};

import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * What AWS bills for the portal, from what the cost suite counted (bench/suites/cost.ts) and a dated price table of
 * the stage's region (bench/prices/<region>-<date>.json). Pure arithmetic: every count comes in, dollars come out,
 * each line with the quantity it priced and the price it used.
 */

export interface Price {
  readonly usd: number;
  /** How many units `usd` buys (1,000,000 requests, 1 GB …). */
  readonly per: number;
  readonly unit: string;
  /** Whether the regional factor applies (a us-east-1 list price standing for the stage's region). */
  readonly regional: boolean;
  readonly source: string;
  readonly assumption?: boolean;
  readonly note?: string;
}

export interface PriceTable {
  readonly region: string;
  readonly date: string;
  readonly currency: 'USD';
  readonly disclaimer: string;
  readonly regionalFactor: { readonly value: number; readonly assumption: boolean; readonly note: string };
  readonly prices: Readonly<Record<string, Price>>;
}

/** The newest price table of `region` in `dir` (files named <region>-<yyyy-mm-dd>.json). */
export function loadPriceTable(dir: string, region: string): { table: PriceTable; file: string } {
  const files = readdirSync(dir)
    .filter((file) => file.startsWith(`${region}-`) && /-\d{4}-\d{2}-\d{2}\.json$/.test(file))
    .sort();
  const file = files.at(-1);
  if (!file) throw new Error(`No price table for ${region} in ${dir}`);
  const table = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as PriceTable;
  if (table.region !== region) throw new Error(`${file} is the price table of ${table.region}, not ${region}`);
  return { table, file: path.join(dir, file) };
}

/** Dollars for `quantity` units of `key`, with the regional factor where it applies. */
export function priced(table: PriceTable, key: string, quantity: number): number {
  const price = table.prices[key];
  if (!price) throw new Error(`The price table of ${table.region} (${table.date}) has no price ${key}`);
  const factor = price.regional ? table.regionalFactor.value : 1;
  return (quantity / price.per) * price.usd * factor;
}

/** One line of a bill: a service, what was counted, and what it costs. */
export interface CostLine {
  readonly service: string;
  readonly item: string;
  readonly quantity: number;
  readonly priceKey: string;
  readonly usd: number;
}

export function line(table: PriceTable, service: string, item: string, priceKey: string, quantity: number): CostLine {
  return { service, item, quantity, priceKey, usd: priced(table, priceKey, quantity) };
}

/** What one run of invoices used, counted on the local stage (and the stated per-request assumptions). */
export interface VariableUsage {
  readonly invoices: number;
  /** Lambda invocations, and billed GB-seconds (durations rounded up to the ms × configured memory). */
  readonly lambdaInvocations: number;
  readonly lambdaGbSeconds: number;
  /** INIT phases billed (cold starts), in GB-seconds. */
  readonly lambdaInitGbSeconds: number;
  readonly apiRequests: number;
  /** Requests through CloudFront (and the WAF web ACL): the API's and the web app's own. */
  readonly edgeRequests: number;
  readonly edgeBytesOut: number;
  readonly dynamodbReadUnits: number;
  readonly dynamodbWriteUnits: number;
  readonly sqsRequests: number;
  readonly s3PutRequests: number;
  readonly s3GetRequests: number;
  readonly emails: number;
  readonly logBytes: number;
  readonly tracesRecorded: number;
  readonly kmsRequests: number;
  readonly secretsManagerCalls: number;
  readonly scheduledInvocations: number;
}

/** The variable bill of a run, scaled to `per` invoices (1,000 for the target). */
export function variableCost(usage: VariableUsage, table: PriceTable, per = 1000): CostLine[] {
  const scale = per / usage.invoices;
  const s = (value: number) => value * scale;
  const GB = 1024 ** 3;
  return [
    line(table, 'Lambda', 'invocations', 'lambda.requests', s(usage.lambdaInvocations)),
    line(table, 'Lambda', 'duration (GB-s, Arm)', 'lambda.armGbSecond', s(usage.lambdaGbSeconds)),
    line(table, 'Lambda', 'INIT of cold starts (GB-s, Arm)', 'lambda.armGbSecond', s(usage.lambdaInitGbSeconds)),
    line(table, 'API Gateway', 'HTTP API requests', 'apigateway.httpRequests', s(usage.apiRequests)),
    line(table, 'DynamoDB', 'read request units', 'dynamodb.readRequestUnits', s(usage.dynamodbReadUnits)),
    line(table, 'DynamoDB', 'write request units', 'dynamodb.writeRequestUnits', s(usage.dynamodbWriteUnits)),
    line(table, 'SQS', 'requests', 'sqs.requests', s(usage.sqsRequests)),
    line(table, 'S3', 'PUT/POST/COPY/LIST requests', 's3.putRequests', s(usage.s3PutRequests)),
    line(table, 'S3', 'GET/HEAD requests', 's3.getRequests', s(usage.s3GetRequests)),
    line(table, 'SES', 'e-mails sent', 'ses.emails', s(usage.emails)),
    line(table, 'CloudFront', 'HTTPS requests', 'cloudfront.httpsRequests', s(usage.edgeRequests)),
    line(table, 'CloudFront', 'data transfer out (GB)', 'cloudfront.dataTransferGb', s(usage.edgeBytesOut) / GB),
    line(table, 'WAF', 'requests inspected', 'waf.requests', s(usage.edgeRequests)),
    line(table, 'WAF', 'requests inspected by Bot Control', 'waf.botControlRequests', s(usage.edgeRequests)),
    line(table, 'CloudWatch Logs', 'ingested (GB)', 'cloudwatch.logsIngestedGb', s(usage.logBytes) / GB),
    line(table, 'X-Ray', 'traces recorded', 'xray.tracesRecorded', s(usage.tracesRecorded)),
    line(table, 'KMS', 'requests', 'kms.requests', s(usage.kmsRequests)),
    line(table, 'Secrets Manager', 'API calls', 'secretsmanager.apiCalls', s(usage.secretsManagerCalls)),
    line(
      table,
      'EventBridge',
      'scheduled invocations',
      'eventbridge.scheduledRuleInvocations',
      s(usage.scheduledInvocations),
    ),
  ];
}

/** Dollars per service, largest first. */
export function byService(lines: readonly CostLine[]): { service: string; usd: number }[] {
  const totals = new Map<string, number>();
  for (const entry of lines) totals.set(entry.service, (totals.get(entry.service) ?? 0) + entry.usd);
  return [...totals].map(([service, usd]) => ({ service, usd })).sort((a, b) => b.usd - a.usd);
}

export function total(lines: readonly { usd: number }[]): number {
  return lines.reduce((sum, entry) => sum + entry.usd, 0);
}

/** What the stage deploys that costs by the month, whatever the invoices (read from the synthesized templates). */
export interface Inventory {
  readonly functions: number;
  readonly alarmMetrics: number;
  readonly alarms: number;
  readonly dashboards: number;
  readonly kmsKeys: number;
  readonly secrets: number;
  readonly webAcls: number;
  /** Rules and rule groups of the web ACLs (Bot Control among them, billed again as a subscription). */
  readonly wafRules: number;
  readonly botControl: boolean;
  readonly queuesWithConsumers: number;
  readonly schedules: readonly { readonly id: string; readonly everyMinutes: number }[];
  readonly customMetrics: number;
  readonly threatProtection: string;
  readonly logRetentionDays: number;
}

/** The scenario the fixed costs are stated for. */
export interface Scenario {
  readonly invoicesPerMonth: number;
  readonly suppliers: number;
  readonly supplierUsersPerSupplier: number;
  readonly staff: number;
}

export interface FixedInputs {
  readonly inventory: Inventory;
  readonly scenario: Scenario;
  /** A scheduled job's run with nothing to do, measured on the local stage: billed GB-seconds and RRUs. */
  readonly idleJobRun: Readonly<Record<string, { gbSeconds: number; readUnits: number; writeUnits: number }>>;
  /** Long polls a queue's event source mapping makes in a month with no message (5 pollers, 20 s each). */
  readonly emptyReceivesPerQueueMonth: number;
}

/** What is paid by the month, itemized with what each item buys. */
export interface FixedLine extends CostLine {
  readonly buys: string;
}

export function fixedCost(inputs: FixedInputs, table: PriceTable): FixedLine[] {
  const { inventory, scenario } = inputs;
  const fixed = (service: string, item: string, priceKey: string, quantity: number, buys: string): FixedLine => ({
    ...line(table, service, item, priceKey, quantity),
    buys,
  });
  const monthMinutes = 30 * 24 * 60;
  const lines: FixedLine[] = [
    fixed(
      'Cognito',
      `monthly active users (${scenario.suppliers} suppliers × ${scenario.supplierUsersPerSupplier} + ${scenario.staff} staff)`,
      'cognito.plusMau',
      scenario.suppliers * scenario.supplierUsersPerSupplier + scenario.staff,
      `sign-in for every supplier user and the staff (corporate SSO), on the Plus plan that threat protection (${inventory.threatProtection}) needs: compromised-credential and risk-based checks`,
    ),
    fixed(
      'WAF',
      `web ACL (${inventory.webAcls})`,
      'waf.webAclMonth',
      inventory.webAcls,
      'the firewall in front of CloudFront (web app, API and documents)',
    ),
    fixed(
      'WAF',
      `rules and managed rule groups (${inventory.wafRules})`,
      'waf.ruleMonth',
      inventory.wafRules,
      'rate limits per IP and per API client, IP reputation, common rule set, known bad inputs, Bot Control',
    ),
    ...(inventory.botControl
      ? [
          fixed(
            'WAF',
            'Bot Control subscription',
            'waf.botControlMonth',
            1,
            'bot detection (common level) on every request',
          ),
        ]
      : []),
    fixed(
      'CloudWatch',
      `alarm metrics (${inventory.alarms} alarms)`,
      'cloudwatch.alarmMetricMonth',
      inventory.alarmMetrics,
      'someone is told of dead letters, API errors and latency, function errors and throttles, SUNAT/SAP failures',
    ),
    fixed(
      'CloudWatch',
      `dashboards (${inventory.dashboards})`,
      'cloudwatch.dashboardMonth',
      inventory.dashboards,
      'the operations dashboard',
    ),
    fixed(
      'CloudWatch',
      `custom metrics (${inventory.customMetrics})`,
      'cloudwatch.customMetricMonth',
      inventory.customMetrics,
      'SUNAT, SAP, payment sync and inbound mail call and failure counts (what the alarms read)',
    ),
    fixed(
      'KMS',
      `customer managed keys (${inventory.kmsKeys})`,
      'kms.keyMonth',
      inventory.kmsKeys,
      'the alarm topic encrypted with a key CloudWatch may use',
    ),
    fixed(
      'Secrets Manager',
      `secrets (${inventory.secrets})`,
      'secretsmanager.secretMonth',
      inventory.secrets,
      'SUNAT and SAP credentials, the CloudFront origin-verify secret',
    ),
    fixed(
      'SQS',
      `empty long polls of ${inventory.queuesWithConsumers} event source mappings`,
      'sqs.requests',
      inventory.queuesWithConsumers * inputs.emptyReceivesPerQueueMonth,
      'the workers start within a second of a message (Lambda polls each queue continuously)',
    ),
  ];
  lines.push(
    fixed(
      'SES',
      `staff daily digests (${scenario.staff} staff × 30 days)`,
      'ses.emails',
      scenario.staff * 30,
      "each staff member's «Resumen diario» of what arrived, SUNAT's answers and what was paid, instead of an e-mail per invoice event (ADR 0039); fewer on days with nothing",
    ),
  );
  for (const schedule of inventory.schedules) {
    const runs = monthMinutes / schedule.everyMinutes;
    const idle = inputs.idleJobRun[schedule.id] ?? { gbSeconds: 0, readUnits: 0, writeUnits: 0 };
    const buys = `the ${schedule.id} job every ${schedule.everyMinutes} min (${Math.round(runs).toLocaleString('en-US')} runs)`;
    lines.push(
      fixed('Lambda', `${schedule.id}: invocations`, 'lambda.requests', runs, buys),
      fixed('Lambda', `${schedule.id}: duration (GB-s)`, 'lambda.armGbSecond', runs * idle.gbSeconds, buys),
      fixed('DynamoDB', `${schedule.id}: read units`, 'dynamodb.readRequestUnits', runs * idle.readUnits, buys),
      fixed('DynamoDB', `${schedule.id}: write units`, 'dynamodb.writeRequestUnits', runs * idle.writeUnits, buys),
      fixed('X-Ray', `${schedule.id}: traces`, 'xray.tracesRecorded', runs, buys),
    );
  }
  return lines;
}

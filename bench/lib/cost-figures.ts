import { VIEWS } from './cost-journey.js';
import {
  byService,
  total,
  variableCost,
  type FixedLine,
  type PriceTable,
  type Scenario,
  type VariableUsage,
} from './cost-model.js';
import type { Figure } from './figures.js';

export const usd = (value: number) => Math.round(value * 10_000) / 10_000;
export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** One measured repetition of the cost journey, as its figures read it. */
export interface CostRun {
  readonly invoices: number;
  readonly usage: VariableUsage;
}

/** What the cost suite's figures are made of: its runs, priced, and the stage's fixed part. */
export interface CostInputs {
  readonly runs: readonly CostRun[];
  readonly prices: PriceTable;
  readonly fixed: readonly FixedLine[];
  readonly scenario: Scenario;
  /** The stage whose region, memory settings and monthly items are priced. */
  readonly pricedStage: string;
  readonly targetUsdPer1000: number;
}

/** The per-invoice counts: figure id, label, the usage it counts, and its decimals. */
const PER_INVOICE: readonly (readonly [string, string, (usage: VariableUsage) => number, number?])[] = [
  ['invocations', 'Lambda invocations per invoice', (usage) => usage.lambdaInvocations],
  [
    'gb-seconds',
    'Lambda GB-seconds per invoice (measured durations × configured memory)',
    (usage) => usage.lambdaGbSeconds,
    3,
  ],
  [
    'api-requests',
    `API requests per invoice (steps and views: ${VIEWS.supplierListViews + VIEWS.staffListViews} list, ${VIEWS.supplierDetailViews + VIEWS.staffDetailViews} detail)`,
    (usage) => usage.apiRequests,
  ],
  ['read-units', 'DynamoDB read request units per invoice (consumed, as reported)', (usage) => usage.dynamodbReadUnits],
  [
    'write-units',
    'DynamoDB write request units per invoice (consumed, as reported)',
    (usage) => usage.dynamodbWriteUnits,
  ],
  ['emails', 'E-mails sent per invoice', (usage) => usage.emails],
  [
    'sqs-requests',
    'SQS requests per invoice (sends, and receive + delete per worker batch)',
    (usage) => usage.sqsRequests,
  ],
  [
    's3-requests',
    'S3 requests per invoice (PUT/POST and GET/HEAD, browsers included)',
    (usage) => usage.s3PutRequests + usage.s3GetRequests,
  ],
];

const slug = (service: string) => service.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/** The cost suite's figures: variable cost per 1,000 invoices and by service, the fixed month, per-invoice counts. */
export function costFigures({ runs, prices, fixed, scenario, pricedStage, targetUsdPer1000 }: CostInputs): Figure[] {
  const variable = runs.map((run) => variableCost(run.usage, prices));
  const services = byService(variable.at(-1)!).map((entry) => entry.service);
  const monthlyVariable = variable.map((lines) => total(lines) * (scenario.invoicesPerMonth / 1000));
  return [
    {
      id: 'cost.variable.per-1000-invoices',
      label: `AWS variable cost per 1,000 invoices, whole life (intake to paid, e-mails, views), ${prices.region} prices of ${prices.date}`,
      unit: 'USD',
      samples: variable.map((lines) => usd(total(lines))),
      target: { max: targetUsdPer1000 },
    },
    {
      id: 'cost.variable.per-1000-invoices.list-prices',
      label: `  the same at the published list prices, without the regional factor (${prices.regionalFactor.value}×, an assumption)`,
      unit: 'USD',
      samples: runs.map((run) =>
        usd(total(variableCost(run.usage, { ...prices, regionalFactor: { ...prices.regionalFactor, value: 1 } }))),
      ),
    },
    ...services.map((service): Figure => ({
      id: `cost.variable.per-1000-invoices.${slug(service)}`,
      label: `  of which ${service}`,
      unit: 'USD',
      samples: variable.map((lines) => usd(total(lines.filter((entry) => entry.service === service)))),
    })),
    {
      id: 'cost.fixed.monthly',
      label: `AWS fixed cost per month (${pricedStage} stage, ${scenario.suppliers} suppliers, ${scenario.staff} staff)`,
      unit: 'USD',
      samples: [round(total(fixed))],
      inSummary: true,
    },
    ...byService(fixed).map((entry): Figure => ({
      id: `cost.fixed.monthly.${slug(entry.service)}`,
      label: `  of which ${entry.service}`,
      unit: 'USD',
      samples: [round(entry.usd)],
    })),
    {
      id: 'cost.monthly.scenario',
      label: `AWS cost per month at ${scenario.invoicesPerMonth.toLocaleString('en-US')} invoices (fixed + variable)`,
      unit: 'USD',
      samples: monthlyVariable.map((value) => round(value + total(fixed))),
      inSummary: true,
    },
    ...PER_INVOICE.map(([id, label, pick, digits = 2]): Figure => ({
      id: `cost.per-invoice.${id}`,
      label,
      unit: 'count',
      samples: runs.map((run) => round(pick(run.usage) / run.invoices, digits)),
    })),
  ];
}

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { HEADERS, TABLE, dashboardMonth, keys } from '@portal/shared';
import { planInvoiceQuery, type InvoiceFilter } from '../../functions/src/repositories/invoice-queries.js';
import type { LocalOutputs } from '../../infra/local/outputs.js';
import { CLIENTS, EMPLOYEES, OFFICE_LOCATIONS } from '../../infra/local/seed-data.js';
import { LOCAL_CREDENTIALS } from '../../infra/local/services/types.js';
import { corporateSignIn } from '../../tests/support/corporate-sign-in.js';
import { BENCH_CLIENT, BENCH_SUPPLIER, addBenchInvoices, poolInvoices } from '../lib/api-seed.js';
import type { BenchContext, BenchSuite, Figure } from '../lib/figures.js';
import { runCalls, runLoad, type LoadRequest, type LoadResult } from '../lib/load.js';

/** The issue's load: 20 connections on loopback. */
const CONNECTIONS = 20;
/** Seconds of each read window (endpoint, then its raw DynamoDB call), per repetition. */
const WINDOW_S = { full: 4, quick: 1 };
/** The table sizes compared: the issue's 1,000 and 100,000 invoices (10,000 in a quick run). */
const SIZES = { full: [1_000, 100_000], quick: [1_000, 10_000] };
/** Invoices of the review pool completed (PUT) per repetition, then approved once each. */
const REVIEW_POOL = { full: 1_000, quick: 200 };
/** The issue's targets. */
const SIZE_RATIO_MAX = 1.3;
const FLOOR_RATIO_MAX = 3;
const MANAGER = 'gestor@grupoandino.pe';
/** A business-name prefix of the header search that matches the review pool's supplier. */
const SEARCH = BENCH_SUPPLIER.name.split(' ')[0]!;

type Endpoint = 'list' | 'search' | 'detail' | 'dashboard' | 'complete' | 'approve';

const LABELS: Record<Endpoint, { endpoint: string; raw: string }> = {
  list: { endpoint: 'GET /invoices?invoiceStatus=PENDING&limit=50', raw: 'Query on the status index, Limit 50' },
  search: {
    endpoint: `GET /invoices?search=${SEARCH}&limit=50`,
    raw: 'Query on the name index, begins_with, Limit 50',
  },
  detail: { endpoint: 'GET invoice detail', raw: 'GetItem of the invoice' },
  dashboard: { endpoint: 'GET /dashboard', raw: "GetItem of the company's counters" },
  complete: {
    endpoint: 'PUT invoice (completion)',
    raw: 'TransactWriteItems: the invoice and both counters',
  },
  approve: {
    endpoint: 'POST approve',
    raw: 'TransactWriteItems: the invoice, outbox, outgoing message and both counters',
  },
};

/** Endpoints whose cost must not grow with the table (the issue's 100k/1k ratio). */
const SIZE_INDEPENDENT: readonly Endpoint[] = ['list', 'search', 'dashboard'];

const sizeLabel = (size: number) => (size >= 1000 ? `${size / 1000}k` : String(size));
const round2 = (value: number) => Math.round(value * 100) / 100;

/** A DynamoDB JSON string value. */
const S = (value: string) => ({ S: value });

interface Api {
  readonly origin: string;
  readonly prefix: string;
  readonly headers: Readonly<Record<string, string>>;
}

interface Raw {
  readonly origin: string;
  headers(target: string): Record<string, string>;
}

/**
 * Calls to DynamoDB Local as the SDK makes them (JSON protocol). DynamoDB Local reads the access key and region
 * of the Authorization header to pick its database and does not check the signature, so a fixed one serves
 * every request.
 */
function rawDynamo(outputs: LocalOutputs): Raw {
  const date = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
  const scope = `${date.slice(0, 8)}/${outputs.region}/dynamodb/aws4_request`;
  return {
    origin: outputs.endpoints.dynamodb,
    headers: (target) => ({
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': `DynamoDB_20120810.${target}`,
      'x-amz-date': date,
      authorization: `AWS4-HMAC-SHA256 Credential=${LOCAL_CREDENTIALS.accessKeyId}/${scope}, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=${'0'.repeat(64)}`,
    }),
  };
}

/**
 * A raw DynamoDB call, two ways: `sdk` is the call as the handlers make it (the AWS SDK's document client, same
 * input), `wire` the same request sent by autocannon straight to DynamoDB Local (no client at all).
 */
interface Floor {
  readonly sdk: () => Promise<unknown>;
  readonly wire: () => LoadRequest;
}

type AttributeValue = { S: string } | { N: string };

/** DynamoDB JSON of the plain values the floors use (strings and numbers). */
function marshal(value: Record<string, unknown>): Record<string, AttributeValue> {
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [
      name,
      typeof item === 'number' ? { N: String(item) } : S(String(item)),
    ]),
  );
}

/** The raw Query of the partition the API's planner reads for `filter` in the company (unfiltered, one page). */
function queryFloor(db: DynamoDBDocumentClient, outputs: LocalOutputs, raw: Raw, filter: InvoiceFilter): Floor {
  const plan = planInvoiceQuery({ kind: 'COMPANY', client: BENCH_CLIENT.taxId }, filter);
  const partition = plan.partitions[0]!;
  if (plan.partitions.length !== 1 || plan.filters.length > 0) {
    throw new Error(`The planner no longer reads one unfiltered partition for ${JSON.stringify(filter)}`);
  }
  const index = TABLE.indexes[partition.index];
  const input = {
    TableName: outputs.tableName,
    IndexName: index.name,
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
    ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey },
    ExpressionAttributeValues: { ':pk': partition.partition, ':prefix': partition.sortKeyPrefix },
    ScanIndexForward: false,
    Limit: 50,
  };
  const body = JSON.stringify({ ...input, ExpressionAttributeValues: marshal(input.ExpressionAttributeValues) });
  return {
    sdk: () => db.send(new QueryCommand(input)),
    wire: () => ({ method: 'POST', path: '/', headers: raw.headers('Query'), body }),
  };
}

/** GetItem, consistent when the handler reads consistently (the invoice) as it does. */
function getFloor(
  db: DynamoDBDocumentClient,
  outputs: LocalOutputs,
  raw: Raw,
  nextKey: () => { pk: string; sk: string },
  consistent: boolean,
): Floor {
  const input = (key: { pk: string; sk: string }) => ({
    TableName: outputs.tableName,
    Key: key,
    ...(consistent ? { ConsistentRead: true } : {}),
  });
  return {
    sdk: () => db.send(new GetCommand(input(nextKey()))),
    wire: () => {
      const request = input(nextKey());
      return {
        method: 'POST',
        path: '/',
        headers: raw.headers('GetItem'),
        body: JSON.stringify({ ...request, Key: marshal(request.Key) }),
      };
    },
  };
}

/** Numbers the raw approve transactions' new items across the whole run. */
let sequence = 0;

/**
 * The smallest transaction of the same items the endpoint writes: the invoice (kept as it is, a marker attribute
 * set under an existence condition), the company's counters of the month and of all time, and for approve two new
 * items (in place of its outbox record and outgoing message). The counter items get a benchmark-only attribute.
 */
function transactionFloor(
  db: DynamoDBDocumentClient,
  outputs: LocalOutputs,
  raw: Raw,
  nextInvoice: () => { id: string; issuedAt: string },
  withOutbox: boolean,
): Floor {
  const table = outputs.tableName;
  const items = () => {
    const invoice = nextInvoice();
    const counter = (period: string) => ({
      Update: {
        TableName: table,
        Key: keys.dashboard(BENCH_CLIENT.taxId, period),
        UpdateExpression: 'ADD benchFloorWrites :one',
        ExpressionAttributeValues: { ':one': 1 },
      },
    });
    const list: Record<string, { TableName: string } & Record<string, unknown>>[] = [
      {
        Update: {
          TableName: table,
          Key: keys.invoice(BENCH_SUPPLIER.taxId, 'FACTURA', invoice.id),
          UpdateExpression: 'SET benchFloorAt = :now',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':now': new Date().toISOString() },
        },
      },
      counter(dashboardMonth(invoice.issuedAt)),
      counter('ALL'),
    ];
    if (withOutbox) {
      sequence += 1;
      for (const kind of ['OUTBOX', 'OUTGOING']) {
        list.push({
          Put: {
            TableName: table,
            Item: { pk: `BENCHFLOOR#${sequence}`, sk: kind, invoiceId: invoice.id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        });
      }
    }
    return list;
  };
  const toWire = (item: Record<string, Record<string, unknown>>) =>
    Object.fromEntries(
      Object.entries(item).map(([action, body]) => {
        const converted: Record<string, unknown> = { ...body };
        for (const field of ['Key', 'Item', 'ExpressionAttributeValues']) {
          if (body[field]) converted[field] = marshal(body[field] as Record<string, unknown>);
        }
        return [action, converted];
      }),
    );
  return {
    sdk: () => db.send(new TransactWriteCommand({ TransactItems: items() as never })),
    wire: () => ({
      method: 'POST',
      path: '/',
      headers: raw.headers('TransactWriteItems'),
      body: JSON.stringify({ TransactItems: items().map(toWire) }),
    }),
  };
}

async function managerToken(outputs: LocalOutputs): Promise<string> {
  const account = outputs.demoUsers.find((user) => user.username === MANAGER);
  if (!account) throw new Error(`The stage has no demo user ${MANAGER}`);
  const tokens = await corporateSignIn({
    hostedUi: outputs.cognitoEndpoint,
    clientId: outputs.userPoolClientId,
    redirectUri: `${outputs.webUrl}/login`,
    providerName: outputs.corporateIdp.providerName,
    email: account.username,
    password: account.password,
  });
  return tokens.idToken;
}

/** Invoices in the table: every company's invoices, counted on the company index. */
async function countInvoices(outputs: LocalOutputs): Promise<number> {
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: outputs.region,
      endpoint: outputs.endpoints.dynamodb,
      credentials: LOCAL_CREDENTIALS,
    }),
  );
  let count = 0;
  try {
    for (const client of CLIENTS) {
      let start: Record<string, unknown> | undefined;
      do {
        const page = await db.send(
          new QueryCommand({
            TableName: outputs.tableName,
            IndexName: TABLE.indexes.byClient.name,
            KeyConditionExpression: '#pk = :pk',
            ExpressionAttributeNames: { '#pk': TABLE.indexes.byClient.partitionKey },
            ExpressionAttributeValues: { ':pk': keys.clientInvoices(client.taxId) },
            Select: 'COUNT',
            ExclusiveStartKey: start,
          }),
        );
        count += page.Count ?? 0;
        start = page.LastEvaluatedKey;
      } while (start);
    }
  } finally {
    db.destroy();
  }
  return count;
}

/** Round robin over `values`. */
function cycle<T>(values: readonly T[]): () => T {
  let next = 0;
  return () => values[next++ % values.length]!;
}

interface Sample {
  readonly endpoint: LoadResult;
  /** The same DynamoDB call through the SDK, and straight on the wire. */
  readonly sdk: LoadResult;
  readonly wire: LoadResult;
}

type Samples = Record<Endpoint, Sample[]>;

function describe(result: LoadResult): string {
  const failures = Object.entries(result.failures).map(([code, count]) => `${count}×${code}`);
  return `p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ${result.rps}/s${
    result.errors > 0 ? `, ${result.errors} errors ${failures.join(' ')}` : ''
  }`;
}

interface Bound {
  readonly durationS?: number;
  readonly amount?: number;
}

/** Measures every endpoint, each beside its raw DynamoDB call, with the table as it is now. */
async function measure(
  context: BenchContext,
  outputs: LocalOutputs,
  api: Api,
  raw: Raw,
  pool: readonly { id: string; issuedAt: string }[],
): Promise<Samples> {
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: outputs.region,
      endpoint: outputs.endpoints.dynamodb,
      credentials: LOCAL_CREDENTIALS,
    }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  try {
    const duration = context.quick ? WINDOW_S.quick : WINDOW_S.full;
    const client = BENCH_CLIENT.taxId;
    const invoicePath = (id: string) => `${api.prefix}/suppliers/${BENCH_SUPPLIER.taxId}/invoices/FACTURA/${id}`;
    const get = (path: string): LoadRequest => ({ method: 'GET', path, headers: api.headers });
    const invoiceKey = (id: string) => keys.invoice(BENCH_SUPPLIER.taxId, 'FACTURA', id);
    const samples: Samples = { list: [], search: [], detail: [], dashboard: [], complete: [], approve: [] };

    const sample = async (name: Endpoint, endpoint: () => LoadRequest, floor: Floor, bound: Bound): Promise<Sample> => {
      const result: Sample = {
        endpoint: await runLoad({ origin: api.origin, connections: CONNECTIONS, request: endpoint, ...bound }),
        sdk: await runCalls({ concurrency: CONNECTIONS, call: floor.sdk, ...bound }),
        wire: await runLoad({ origin: raw.origin, connections: CONNECTIONS, request: floor.wire, ...bound }),
      };
      context.log(
        `${name}: ${describe(result.endpoint)} · sdk ${describe(result.sdk)} · wire ${describe(result.wire)}`,
      );
      samples[name].push(result);
      return result;
    };

    const nextDetail = cycle(pool);
    const nextDetailFloor = cycle(pool);
    const reads: Record<'list' | 'search' | 'detail' | 'dashboard', { endpoint: () => LoadRequest; floor: Floor }> = {
      list: {
        endpoint: () => get(`${api.prefix}/invoices?client=${client}&invoiceStatus=PENDING&limit=50`),
        floor: queryFloor(db, outputs, raw, { statuses: ['PENDING'] }),
      },
      search: {
        endpoint: () => get(`${api.prefix}/invoices?client=${client}&search=${encodeURIComponent(SEARCH)}&limit=50`),
        floor: queryFloor(db, outputs, raw, { search: SEARCH }),
      },
      detail: {
        endpoint: () => get(invoicePath(nextDetail().id)),
        floor: getFloor(db, outputs, raw, () => invoiceKey(nextDetailFloor().id), true),
      },
      dashboard: {
        endpoint: () => get(`${api.prefix}/dashboard?client=${client}`),
        floor: getFloor(db, outputs, raw, () => keys.dashboard(client, 'ALL'), false),
      },
    };

    for (const name of Object.keys(reads) as (keyof typeof reads)[]) {
      // Warm-up: the handler's first calls, the SDK's connections, DynamoDB Local's JIT.
      await runLoad({ origin: api.origin, connections: CONNECTIONS, request: reads[name].endpoint, durationS: 1 });
      await runCalls({ concurrency: CONNECTIONS, call: reads[name].floor.sdk, durationS: 1 });
      for (let index = 0; index < context.repeats; index += 1) {
        await sample(name, reads[name].endpoint, reads[name].floor, { durationS: duration });
      }
    }

    // Completion: every pool invoice once per repetition (PENDING → COMPLETED the first time, then kept COMPLETED).
    const employee = EMPLOYEES[client]![0]!;
    const office = OFFICE_LOCATIONS[client]![0]!;
    const completion = JSON.stringify({
      operationType: 'WITHOUT_PURCHASE_ORDER',
      responsibleId: employee.id,
      officeId: office.office,
      locationId: office.id,
      attachments: ['bench/sustento.pdf'],
    });
    for (let index = 0; index < context.repeats; index += 1) {
      const next = cycle(pool);
      await sample(
        'complete',
        () => ({
          method: 'PUT',
          path: invoicePath(next().id),
          headers: { ...api.headers, 'content-type': 'application/json' },
          body: completion,
        }),
        transactionFloor(db, outputs, raw, cycle(pool), false),
        { amount: pool.length },
      );
    }

    // Approval: each completed pool invoice once; the pool is split among the repetitions.
    const slice = Math.floor(pool.length / context.repeats);
    for (let index = 0; index < context.repeats; index += 1) {
      const part = pool.slice(index * slice, (index + 1) * slice);
      const next = cycle(part);
      await sample(
        'approve',
        () => ({ method: 'POST', path: `${invoicePath(next().id)}/approve`, headers: api.headers }),
        transactionFloor(db, outputs, raw, cycle(part), true),
        { amount: part.length },
      );
    }
    return samples;
  } finally {
    db.destroy();
  }
}

function sizeFigures(endpoint: Endpoint, size: number, samples: readonly Sample[], inReadme: boolean): Figure[] {
  const tag = sizeLabel(size);
  const { endpoint: what, raw } = LABELS[endpoint];
  const at = `${tag} invoices, ${CONNECTIONS} connections`;
  const ms = (pick: (sample: Sample) => number) => samples.map((sample) => round2(pick(sample)));
  return [
    {
      id: `api.${endpoint}.p50.${tag}`,
      label: `API ${what} p50 (${at})`,
      unit: 'ms',
      samples: ms((x) => x.endpoint.p50),
    },
    {
      id: `api.${endpoint}.p99.${tag}`,
      label: `API ${what} p99 (${at})`,
      unit: 'ms',
      samples: ms((x) => x.endpoint.p99),
    },
    {
      id: `api.${endpoint}.rps.${tag}`,
      label: `API ${what} throughput (${at})`,
      unit: 'req/s',
      samples: samples.map((sample) => sample.endpoint.rps),
      readme: inReadme,
    },
    {
      id: `api.${endpoint}.sdk.p50.${tag}`,
      label: `Raw DynamoDB Local call through the SDK, ${raw} p50 (${at})`,
      unit: 'ms',
      samples: ms((x) => x.sdk.p50),
    },
    {
      id: `api.${endpoint}.wire.p50.${tag}`,
      label: `Raw DynamoDB Local call on the wire, ${raw} p50 (${at})`,
      unit: 'ms',
      samples: ms((x) => x.wire.p50),
    },
    {
      id: `api.${endpoint}.floorRatio.${tag}`,
      label: `API ${what} p50 ÷ raw DynamoDB call p50 through the SDK (${tag} invoices)`,
      unit: 'ratio',
      samples: ms((x) => x.endpoint.p50 / x.sdk.p50),
      target: { max: FLOOR_RATIO_MAX },
    },
    {
      id: `api.${endpoint}.errors.${tag}`,
      label: `API ${what} errors (${at})`,
      unit: 'count',
      samples: samples.map((sample) => sample.endpoint.errors + sample.sdk.errors + sample.wire.errors),
      target: { max: 0 },
      // The README shows their sum (api.errors).
      readme: false,
    },
  ];
}

/**
 * Issue 8, API under load: autocannon on loopback against the local stage's gateway (the handlers as deployed,
 * JWT checks included) with 1,000 and then 100,000 invoices in the table, each endpoint beside the raw DynamoDB
 * Local call with the same key condition, measured in the same run.
 */
export const suite: BenchSuite = {
  name: 'api',
  async run(context) {
    const stage = await context.stage();
    const outputs = stage.outputs;
    const apiUrl = new URL(stage.apiUrl);
    const token = await managerToken(outputs);
    const api: Api = {
      origin: apiUrl.origin,
      prefix: apiUrl.pathname.replace(/\/$/, ''),
      headers: { authorization: `Bearer ${token}`, [HEADERS.companyId]: BENCH_CLIENT.taxId },
    };
    const raw = rawDynamo(outputs);
    const sizes = context.quick ? SIZES.quick : SIZES.full;
    const poolSize = context.quick ? REVIEW_POOL.quick : REVIEW_POOL.full;

    const figures: Figure[] = [];
    const bySize = new Map<number, Samples>();
    let generated = 0;
    for (const size of sizes) {
      const existing = await countInvoices(outputs);
      const missing = size - existing;
      if (missing > 0) {
        context.log(`adding ${missing} invoices to the ${existing} in the table`);
        const started = Date.now();
        await addBenchInvoices(outputs, generated, generated + missing, (written) =>
          context.log(`  ${written} of ${missing} written`),
        );
        context.log(`  done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
      }
      // The newest pool invoices of this size's invoices: untouched, so completion starts from PENDING.
      const pool = poolInvoices(generated, generated + Math.max(missing, 0)).slice(-poolSize);
      generated += Math.max(missing, 0);
      if (pool.length < CONNECTIONS * context.repeats) {
        throw new Error(`Only ${pool.length} review-pool invoices for ${size} invoices`);
      }
      context.log(`${await countInvoices(outputs)} invoices in the table; review pool of ${pool.length}`);
      const samples = await measure(context, outputs, api, raw, pool);
      bySize.set(size, samples);
      for (const endpoint of Object.keys(samples) as Endpoint[]) {
        figures.push(...sizeFigures(endpoint, size, samples[endpoint], size === sizes.at(-1)));
      }
    }

    const [small, large] = sizes as [number, number];
    for (const endpoint of Object.keys(LABELS) as Endpoint[]) {
      const before = bySize.get(small)![endpoint];
      const after = bySize.get(large)![endpoint];
      figures.push({
        id: `api.${endpoint}.sizeRatio`,
        label: `API ${LABELS[endpoint].endpoint} p50 with ${sizeLabel(large)} ÷ with ${sizeLabel(small)} invoices`,
        unit: 'ratio',
        samples: before.map((sample, index) => round2(after[index]!.endpoint.p50 / sample.endpoint.p50)),
        ...(SIZE_INDEPENDENT.includes(endpoint) ? { target: { max: SIZE_RATIO_MAX } } : {}),
      });
    }
    const errors = figures.filter((figure) => /^api\.\w+\.errors\./.test(figure.id));
    figures.push({
      id: 'api.errors',
      label: `API errors, every endpoint at ${sizes.map(sizeLabel).join(' and ')} invoices (with their raw calls)`,
      unit: 'count',
      samples: errors[0]!.samples.map((_, index) => errors.reduce((sum, figure) => sum + figure.samples[index]!, 0)),
      target: { max: 0 },
    });
    return figures;
  },
};

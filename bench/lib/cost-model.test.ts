import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../../local/runtime/config.js';
import {
  byService,
  loadPriceTable,
  priced,
  total,
  variableCost,
  type PriceTable,
  type VariableUsage,
} from './cost-model.js';
import { invocationsOf, tracesRecorded, type StoredSpan } from './cost-spans.js';

const TABLE: PriceTable = {
  region: 'sa-east-1',
  date: '2026-11-27',
  currency: 'USD',
  disclaimer: 'test',
  regionalFactor: { value: 1.5, assumption: true, note: 'test' },
  prices: {
    'lambda.requests': {
      usd: 0.2,
      per: 1_000_000,
      unit: 'requests',
      regional: true,
      source: 'https://aws.amazon.com/lambda/pricing/',
    },
    'ses.emails': {
      usd: 0.1,
      per: 1000,
      unit: 'e-mails',
      regional: false,
      source: 'https://aws.amazon.com/ses/pricing/',
    },
  },
};

describe('prices', () => {
  it('apply the regional factor to regional prices only', () => {
    expect(priced(TABLE, 'lambda.requests', 1_000_000)).toBeCloseTo(0.3);
    expect(priced(TABLE, 'ses.emails', 5000)).toBeCloseTo(0.5);
  });

  it('refuse a price the table does not have, rather than count it as free', () => {
    expect(() => priced(TABLE, 'sns.sms', 1)).toThrow('has no price sns.sms');
  });

  it('come from the newest table of the region, and never from another region’s', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'prices-'));
    writeFileSync(path.join(dir, 'sa-east-1-2026-01-01.json'), JSON.stringify({ ...TABLE, date: '2026-01-01' }));
    writeFileSync(path.join(dir, 'sa-east-1-2026-11-27.json'), JSON.stringify(TABLE));
    writeFileSync(path.join(dir, 'us-east-1-2027-01-01.json'), JSON.stringify({ ...TABLE, region: 'us-east-1' }));
    expect(loadPriceTable(dir, 'sa-east-1').table.date).toBe('2026-11-27');
    writeFileSync(path.join(dir, 'eu-west-1-2026-11-27.json'), JSON.stringify(TABLE));
    expect(() => loadPriceTable(dir, 'eu-west-1')).toThrow('not eu-west-1');
    expect(() => loadPriceTable(dir, 'ap-south-1')).toThrow('No price table');
  });

  it('checked in name a source for every price, and say they must be checked', () => {
    const { table } = loadPriceTable(path.join(ROOT_DIR, 'bench/prices'), 'sa-east-1');
    expect(table.disclaimer).toMatch(/must|check/i);
    for (const [key, price] of Object.entries(table.prices)) {
      expect(price.source, key).toMatch(/^https:\/\//);
      expect(price.per, key).toBeGreaterThan(0);
      expect(price.usd, key).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('the variable cost', () => {
  const usage: VariableUsage = {
    invoices: 20,
    lambdaInvocations: 1000,
    lambdaGbSeconds: 0,
    lambdaInitGbSeconds: 0,
    apiRequests: 0,
    edgeRequests: 0,
    edgeBytesOut: 0,
    dynamodbReadUnits: 0,
    dynamodbWriteUnits: 0,
    sqsRequests: 0,
    s3PutRequests: 0,
    s3GetRequests: 0,
    emails: 100,
    logBytes: 0,
    tracesRecorded: 0,
    kmsRequests: 0,
    secretsManagerCalls: 0,
    scheduledInvocations: 0,
  };
  const table: PriceTable = {
    ...TABLE,
    prices: Object.fromEntries(
      [
        'lambda.requests',
        'lambda.armGbSecond',
        'apigateway.httpRequests',
        'dynamodb.readRequestUnits',
        'dynamodb.writeRequestUnits',
        'sqs.requests',
        's3.putRequests',
        's3.getRequests',
        'ses.emails',
        'cloudfront.httpsRequests',
        'cloudfront.dataTransferGb',
        'waf.requests',
        'waf.botControlRequests',
        'cloudwatch.logsIngestedGb',
        'xray.tracesRecorded',
        'kms.requests',
        'secretsmanager.apiCalls',
        'eventbridge.scheduledRuleInvocations',
      ].map((key) => [
        key,
        TABLE.prices[key] ?? { usd: 1, per: 1, unit: 'unit', regional: false, source: 'https://x' },
      ]),
    ),
  };

  it('is scaled to 1,000 invoices from what a run of any size used', () => {
    const lines = variableCost(usage, table);
    // 1,000 invocations for 20 invoices = 50,000 per 1,000; 100 e-mails = 5,000 per 1,000.
    expect(lines.find((entry) => entry.priceKey === 'lambda.requests')!.quantity).toBe(50_000);
    expect(byService(lines)).toEqual(
      expect.arrayContaining([
        { service: 'SES', usd: expect.closeTo(0.5, 6) },
        { service: 'Lambda', usd: expect.closeTo(0.015, 6) },
      ]),
    );
    expect(total(lines)).toBeCloseTo(0.515, 6);
  });
});

describe('the trace store as a meter', () => {
  const span = (
    spanId: string,
    parentSpanId: string | null,
    name: string,
    attributes: Record<string, unknown> = {},
    ms = 10,
  ): StoredSpan => ({
    traceId: 'a'.repeat(32),
    spanId,
    parentSpanId,
    name,
    kind: 1,
    startTimeUnixNano: '1000000000',
    endTimeUnixNano: String(1_000_000_000 + ms * 1_000_000),
    attributes,
  });

  it('gives each invocation the calls made under it, however deep, and stops at the next invocation', () => {
    const spans = [
      span('0000000000000001', null, 'POST /invoices', { 'faas.trigger': 'http' }, 42),
      span('0000000000000002', '0000000000000001', 'DynamoDB.TransactWriteItems', {
        'aws.dynamodb.consumed_read_units': 0,
        'aws.dynamodb.consumed_write_units': 6,
      }),
      span('0000000000000003', '0000000000000001', 'outbox delivery'),
      span('0000000000000004', '0000000000000003', 'SQS.SendMessage'),
      // The worker continues the API's trace: its calls are its own.
      span('0000000000000005', '0000000000000004', 'process sunat', { 'faas.trigger': 'pubsub' }, 80),
      span('0000000000000006', '0000000000000005', 'DynamoDB.GetItem', {
        'aws.dynamodb.consumed_read_units': 0.5,
        'aws.dynamodb.consumed_write_units': 0,
      }),
      span('0000000000000007', '0000000000000005', 'DynamoDB.DescribeTable'),
      span('0000000000000008', 'ffffffffffffffff', 'S3.GetObject'),
    ];
    const { invocations, orphanCalls } = invocationsOf(spans, (s) => s.name);
    expect(invocations).toEqual([
      expect.objectContaining({
        fn: 'POST /invoices',
        durationMs: 42,
        calls: { 'DynamoDB.TransactWriteItems': 1, 'SQS.SendMessage': 1 },
        readUnits: 0,
        writeUnits: 6,
        unmeteredDynamoCalls: 0,
      }),
      expect.objectContaining({
        fn: 'process sunat',
        durationMs: 80,
        calls: { 'DynamoDB.GetItem': 1, 'DynamoDB.DescribeTable': 1 },
        readUnits: 0.5,
        unmeteredDynamoCalls: 1,
      }),
    ]);
    expect(orphanCalls).toBe(1);
  });

  it("counts a trace by the sampling ratio of the function that began it, and a worker's in its request's", () => {
    const trace = (id: string, fn: string, startsTrace: boolean) => ({
      fn,
      trigger: fn.startsWith('GET') ? 'http' : 'pubsub',
      traceId: id.repeat(32),
      startsTrace,
      durationMs: 1,
      calls: {},
      readUnits: 0,
      writeUnits: 0,
      unmeteredDynamoCalls: 0,
    });
    const ratio = (fn: string) => (fn.startsWith('GET') ? 0.05 : 1);
    const invocations = [
      // A worker listed before the write that queued its message: one trace, recorded.
      trace('a', 'worker', false),
      trace('a', 'POST /invoices', true),
      // Twenty reads, each its own trace, traced one time in twenty.
      ...Array.from({ length: 20 }, (_, i) => trace(`r${i}`, 'GET /invoices', true)),
      // A worker whose trace began before the window: counted whole.
      trace('z', 'worker', false),
    ];
    expect(tracesRecorded(invocations, ratio)).toBeCloseTo(1 + 20 * 0.05 + 1);
    expect(tracesRecorded(invocations.slice(0, 2), ratio)).toBe(1);
  });
});

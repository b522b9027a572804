import { Readable } from 'node:stream';
import { DescribeTableCommand, DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { HttpResponse, type HttpRequest as SdkRequest } from '@smithy/core/protocols';
import { beforeEach, describe, expect, it } from 'vitest';
import { createTelemetry } from '../observability/telemetry.js';
import {
  ATTR_CONSUMED_READ_UNITS,
  ATTR_CONSUMED_WRITE_UNITS,
  consumedCapacity,
  meterConsumedCapacity,
  resetConsumedCapacity,
  unitsOf,
} from './dynamodb-capacity.js';

/** DynamoDB's place: records what each request asked for and answers as the service would. */
function fakeDynamoDb(answer: (target: string, body: Record<string, unknown>) => { status: number; body: unknown }) {
  const requests: { target: string; body: Record<string, unknown> }[] = [];
  const handler = {
    async handle(request: SdkRequest) {
      const raw = request.body as string | Uint8Array | undefined;
      const body = JSON.parse(typeof raw === 'string' ? raw : Buffer.from(raw ?? []).toString('utf8')) as Record<
        string,
        unknown
      >;
      const target = String(request.headers['x-amz-target']).split('.').pop()!;
      requests.push({ target, body });
      const answered = answer(target, body);
      return {
        response: new HttpResponse({
          statusCode: answered.status,
          headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'req-1' },
          body: Readable.from([Buffer.from(JSON.stringify(answered.body))]),
        }),
      };
    },
  };
  return { requests, handler };
}

const TABLE = 'portal-prod';

function client(answer: Parameters<typeof fakeDynamoDb>[0]) {
  const exporter = new InMemorySpanExporter();
  const telemetry = createTelemetry({ exporter, exportEachSpan: true, env: {} });
  const dynamodb = fakeDynamoDb(answer);
  const raw = meterConsumedCapacity(
    telemetry.instrumentClient(
      new DynamoDBClient({
        region: 'sa-east-1',
        credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
        requestHandler: dynamodb.handler,
        maxAttempts: 1,
      }),
    ),
  );
  return { raw, document: DynamoDBDocumentClient.from(raw), requests: dynamodb.requests, exporter };
}

beforeEach(() => resetConsumedCapacity());

describe('consumed capacity of every DynamoDB call', () => {
  it('asks for the TOTAL on reads and transactions, and counts the units DynamoDB reports per operation', async () => {
    const { document, requests, exporter } = client((target) =>
      target === 'GetItem'
        ? {
            status: 200,
            body: {
              Item: { pk: { S: 'a' } },
              ConsumedCapacity: { TableName: TABLE, CapacityUnits: 0.5, ReadCapacityUnits: 0.5 },
            },
          }
        : {
            status: 200,
            body: {
              ConsumedCapacity: [{ TableName: TABLE, CapacityUnits: 6, ReadCapacityUnits: 0, WriteCapacityUnits: 6 }],
            },
          },
    );

    const { Item } = await document.send(new GetCommand({ TableName: TABLE, Key: { pk: 'a' } }));
    await document.send(new GetCommand({ TableName: TABLE, Key: { pk: 'a' } }));
    await document.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: TABLE, Item: { pk: 'a' } } },
          { Put: { TableName: TABLE, Item: { pk: 'b' } } },
        ],
      }),
    );

    // The caller's answer is unchanged (the item unmarshalled as before).
    expect(Item).toEqual({ pk: 'a' });
    expect(requests.map((r) => [r.target, r.body.ReturnConsumedCapacity])).toEqual([
      ['GetItem', 'TOTAL'],
      ['GetItem', 'TOTAL'],
      ['TransactWriteItems', 'TOTAL'],
    ]);
    expect(consumedCapacity()).toEqual({
      GetItem: { calls: 2, readUnits: 1, writeUnits: 0 },
      TransactWriteItems: { calls: 1, readUnits: 0, writeUnits: 6 },
    });
    // Each call's span carries what it consumed.
    const transaction = exporter.getFinishedSpans().find((span) => span.name === 'DynamoDB.TransactWriteItems')!;
    expect(transaction.attributes).toMatchObject({ [ATTR_CONSUMED_READ_UNITS]: 0, [ATTR_CONSUMED_WRITE_UNITS]: 6 });
  });

  it("keeps a caller's INDEXES, and sends operations that take no ReturnConsumedCapacity as they are", async () => {
    const { raw, requests } = client((target) =>
      target === 'Query'
        ? { status: 200, body: { Items: [], Count: 0, ConsumedCapacity: { TableName: TABLE, CapacityUnits: 0.5 } } }
        : { status: 200, body: { Table: { TableName: TABLE } } },
    );

    await raw.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': { S: 'a' } },
        ReturnConsumedCapacity: 'INDEXES',
      }),
    );
    await raw.send(new DescribeTableCommand({ TableName: TABLE }));

    expect(requests[0]!.body.ReturnConsumedCapacity).toBe('INDEXES');
    expect(requests[1]!.body).not.toHaveProperty('ReturnConsumedCapacity');
    // CapacityUnits alone, on a read: read units.
    expect(consumedCapacity()).toEqual({ Query: { calls: 1, readUnits: 0.5, writeUnits: 0 } });
  });

  it('counts nothing for a refused call, and lets its error through', async () => {
    const { document } = client(() => ({
      status: 400,
      body: {
        __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
        message: 'Transaction cancelled',
        CancellationReasons: [{ Code: 'ConditionalCheckFailed' }],
      },
    }));

    await expect(
      document.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: TABLE, Item: { pk: 'a' } } }] })),
    ).rejects.toThrow('Transaction cancelled');
    expect(consumedCapacity()).toEqual({});
  });

  it('instruments a client once however many times it is metered', async () => {
    const { raw, requests } = client(() => ({
      status: 200,
      body: { ConsumedCapacity: { TableName: TABLE, CapacityUnits: 1, WriteCapacityUnits: 1 } },
    }));
    meterConsumedCapacity(raw);

    await DynamoDBDocumentClient.from(raw).send(new TransactWriteCommand({ TransactItems: [] }));

    expect(requests).toHaveLength(1);
    expect(consumedCapacity().TransactWriteItems).toEqual({ calls: 1, readUnits: 0, writeUnits: 1 });
  });
});

describe('unitsOf', () => {
  it('adds the tables of a batch, and puts bare CapacityUnits on the side of the operation', () => {
    expect(
      unitsOf('BatchWriteItem', [
        { CapacityUnits: 2, WriteCapacityUnits: 2 },
        { CapacityUnits: 3, WriteCapacityUnits: 3 },
      ]),
    ).toEqual({ readUnits: 0, writeUnits: 5 });
    expect(unitsOf('UpdateItem', { CapacityUnits: 1 })).toEqual({ readUnits: 0, writeUnits: 1 });
    expect(unitsOf('TransactGetItems', [{ CapacityUnits: 4 }])).toEqual({ readUnits: 4, writeUnits: 0 });
    expect(unitsOf('GetItem', undefined)).toEqual({ readUnits: 0, writeUnits: 0 });
  });
});

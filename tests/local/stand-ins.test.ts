import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  TransactWriteItemsCommand,
  type TransactWriteItem,
} from '@aws-sdk/client-dynamodb';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SetQueueAttributesCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { localName, QUEUES, TABLE } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBucket, ensureQueues, ensureTable } from '../../local/runtime/provision/aws-resources.js';
import { startDynamoDb } from '../../local/stand-ins/dynamodb.js';
import { S3_CLIENT_COMPAT, startS3 } from '../../local/stand-ins/s3.js';
import { makeStreamUploads } from '../../functions/src/adapters/s3-uploads.js';
import { startSqs } from '../../local/stand-ins/sqs.js';
import { assertPortFree, LOCAL_CREDENTIALS, type RunningService } from '../../local/stand-ins/types.js';
import { freePort, makeTempDir, removeDir } from './helpers.js';

const REGION = 'us-east-1';
const HOST = '127.0.0.1';
const WEB_ORIGIN = 'http://127.0.0.1:4700';
const TABLE_NAME = 'portal-test-table';
const BUCKET = 'portal-test-documents';

let dataDir: string;
let dynamo: RunningService;
let s3Service: RunningService;
let sqsService: RunningService;
let ddb: DynamoDBClient;
let s3: S3Client;
let sqs: SQSClient;

beforeAll(async () => {
  dataDir = makeTempDir('portal-stand-ins');
  const [dynamoPort, s3Port, sqsPort] = [await freePort('0.0.0.0'), await freePort(), await freePort()];
  [dynamo, s3Service, sqsService] = await Promise.all([
    startDynamoDb({ port: dynamoPort, dataDir }),
    startS3({ port: s3Port, host: HOST, dataDir, corsOrigins: [WEB_ORIGIN] }),
    startSqs({ port: sqsPort, host: HOST }),
  ]);
  ddb = new DynamoDBClient({ endpoint: dynamo.endpoint, region: REGION, credentials: LOCAL_CREDENTIALS });
  s3 = s3Client(s3Service.endpoint);
  sqs = new SQSClient({ endpoint: sqsService.endpoint, region: REGION, credentials: LOCAL_CREDENTIALS });
}, 60_000);

afterAll(async () => {
  ddb?.destroy();
  s3?.destroy();
  sqs?.destroy();
  await Promise.all([dynamo?.stop(), s3Service?.stop(), sqsService?.stop()]);
  if (dataDir) removeDir(dataDir);
}, 30_000);

function s3Client(
  endpoint: string,
  credentials: { accessKeyId: string; secretAccessKey: string } = LOCAL_CREDENTIALS,
): S3Client {
  return new S3Client({
    endpoint,
    region: REGION,
    credentials,
    ...S3_CLIENT_COMPAT,
  });
}

describe('DynamoDB Local', () => {
  it('provisions the table idempotently, with every index of shared TABLE and TTL', async () => {
    await ensureTable(ddb, TABLE_NAME);
    await ensureTable(ddb, TABLE_NAME);

    const { Table } = await ddb.send(new DescribeTableCommand({ TableName: TABLE_NAME }));
    expect(Table?.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
    const indexes = (Table?.GlobalSecondaryIndexes ?? []).map((index) => ({
      name: index.IndexName,
      keys: index.KeySchema?.map((key) => key.AttributeName),
      projection: index.Projection?.ProjectionType,
    }));
    const byName = (a: { name?: string }, b: { name?: string }) => String(a.name).localeCompare(String(b.name));
    expect(indexes.sort(byName)).toEqual(
      Object.values(TABLE.indexes)
        .map((index) => ({ name: index.name, keys: [index.partitionKey, index.sortKey], projection: 'ALL' }))
        .sort(byName),
    );
    const ttl = await ddb.send(new DescribeTimeToLiveCommand({ TableName: TABLE_NAME }));
    expect(ttl.TimeToLiveDescription).toMatchObject({ AttributeName: TABLE.ttlAttribute, TimeToLiveStatus: 'ENABLED' });
  });

  it("turns TTL off for a benchmark's stage and on again for the next start (LOCAL_DYNAMODB_TTL)", async () => {
    const name = `${TABLE_NAME}-ttl`;
    const status = async () =>
      (await ddb.send(new DescribeTimeToLiveCommand({ TableName: name }))).TimeToLiveDescription?.TimeToLiveStatus;
    await ensureTable(ddb, name);
    expect(await status()).toBe('ENABLED');
    await ensureTable(ddb, name, { timeToLive: false });
    await ensureTable(ddb, name, { timeToLive: false });
    expect(await status()).toBe('DISABLED');
    await ensureTable(ddb, name);
    expect(await status()).toBe('ENABLED');
  });

  it('takes the retired indexes off a table of an earlier version, keeping its items (ADR 0044)', async () => {
    const name = `${TABLE_NAME}-earlier`;
    const all = [...Object.values(TABLE.indexes), ...Object.values(TABLE.retiredIndexes)];
    const attributes = [...new Set(['pk', 'sk', ...all.flatMap((index) => [index.partitionKey, index.sortKey])])];
    await ddb.send(
      new CreateTableCommand({
        TableName: name,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: attributes.map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: all.map((index) => ({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      }),
    );
    await ddb.send(
      new PutItemCommand({
        TableName: name,
        Item: { pk: { S: 'A' }, sk: { S: 'B' }, gsi1pk: { S: 'X' }, gsi1sk: { S: 'Y' } },
      }),
    );

    await ensureTable(ddb, name);
    await ensureTable(ddb, name);

    const { Table } = await ddb.send(new DescribeTableCommand({ TableName: name }));
    expect((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName).sort()).toEqual(
      Object.values(TABLE.indexes)
        .map((index) => index.name)
        .sort(),
    );
    const item = await ddb.send(new GetItemCommand({ TableName: name, Key: { pk: { S: 'A' }, sk: { S: 'B' } } }));
    expect(item.Item?.gsi1pk).toEqual({ S: 'X' });
    await ddb.send(new DeleteTableCommand({ TableName: name }));
  });

  it('commits a conditional transaction and cancels it entirely when a condition fails', async () => {
    await ensureTable(ddb, TABLE_NAME);
    const claim = (pk: string): TransactWriteItem => ({
      Put: {
        TableName: TABLE_NAME,
        Item: { pk: { S: pk }, sk: { S: 'CLAIM' } },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });

    await ddb.send(new TransactWriteItemsCommand({ TransactItems: [claim('DOC#1'), claim('DOC#2')] }));
    const second = ddb.send(new TransactWriteItemsCommand({ TransactItems: [claim('DOC#3'), claim('DOC#1')] }));

    await expect(second).rejects.toMatchObject({ name: 'TransactionCanceledException' });
    const read = (pk: string) =>
      ddb.send(new GetItemCommand({ TableName: TABLE_NAME, Key: { pk: { S: pk }, sk: { S: 'CLAIM' } } }));
    expect((await read('DOC#1')).Item).toBeDefined();
    expect((await read('DOC#2')).Item).toBeDefined();
    expect((await read('DOC#3')).Item).toBeUndefined();
  });

  it('keeps its data under the data directory', () => {
    expect(fs.readdirSync(path.join(dataDir, 'dynamodb')).some((file) => file.endsWith('.db'))).toBe(true);
    expect(fs.statSync(path.join(dataDir, 'logs', 'dynamodb.log')).isFile()).toBe(true);
  });
});

describe('s3rver', () => {
  it('creates the bucket idempotently and reads back what was put', async () => {
    await ensureBucket(s3, BUCKET);
    await ensureBucket(s3, BUCKET);
    const content = 'Factura F001-123 — ñandú';

    await s3.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: 'xml/F001-123.xml', Body: content, ContentType: 'text/xml' }),
    );
    const object = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'xml/F001-123.xml' }));

    expect(await object.Body?.transformToString()).toBe(content);
    expect(object.ContentType).toBe('text/xml');
  });

  it('stores streamed uploads byte for byte with the compatible client settings', async () => {
    await ensureBucket(s3, BUCKET);
    const bytes = Buffer.from('%PDF-1.7 streamed body');

    await s3.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: 'pdf/streamed.pdf',
        Body: Readable.from([bytes]),
        ContentLength: bytes.length,
      }),
    );
    const object = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'pdf/streamed.pdf' }));

    expect(Buffer.from(await object.Body!.transformToByteArray())).toEqual(bytes);
  });

  it('answers CORS preflights for the web origin only, and accepts a browser form upload', async () => {
    await ensureBucket(s3, BUCKET);
    const preflight = (origin: string) =>
      fetch(`${s3Service.endpoint}/${BUCKET}`, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type',
        },
      });

    const allowed = await preflight(WEB_ORIGIN);
    const denied = await preflight('http://evil.example');
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-methods')).toContain('POST');
    expect(denied.status).toBe(403);

    const post = await createPresignedPost(s3, {
      Bucket: BUCKET,
      Key: 'uploads/form.xml',
      Fields: { 'Content-Type': 'text/xml' },
      Conditions: [['eq', '$Content-Type', 'text/xml']],
    });
    const form = new FormData();
    for (const [name, value] of Object.entries(post.fields)) form.append(name, value);
    form.append('file', new Blob(['<Invoice/>'], { type: 'text/xml' }), 'form.xml');
    const upload = await fetch(post.url, {
      method: 'POST',
      headers: { Origin: WEB_ORIGIN },
      body: form,
    });
    expect(upload.status).toBe(204);
    expect(upload.headers.get('access-control-allow-origin')).toBe(WEB_ORIGIN);
    const object = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'uploads/form.xml' }));
    expect(await object.Body?.transformToString()).toBe('<Invoice/>');
  });

  it('keeps objects (and CORS) across a restart on the same data directory', async () => {
    const port = await freePort();
    const dir = makeTempDir('portal-s3-restart');
    try {
      let service = await startS3({ port, host: HOST, dataDir: dir, corsOrigins: [WEB_ORIGIN] });
      let client = s3Client(service.endpoint);
      await ensureBucket(client, 'restart-bucket');
      await client.send(new PutObjectCommand({ Bucket: 'restart-bucket', Key: 'a.txt', Body: 'persisted' }));
      client.destroy();
      await service.stop();

      service = await startS3({ port, host: HOST, dataDir: dir, corsOrigins: ['http://localhost:9999'] });
      client = s3Client(service.endpoint);
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: 'restart-bucket', Key: 'a.txt' }));
        expect(await object.Body?.transformToString()).toBe('persisted');
        const preflight = await fetch(`${service.endpoint}/restart-bucket`, {
          method: 'OPTIONS',
          headers: { Origin: 'http://localhost:9999', 'Access-Control-Request-Method': 'PUT' },
        });
        expect(preflight.status).toBe(200);
      } finally {
        client.destroy();
        await service.stop();
      }
    } finally {
      removeDir(dir);
    }
  });
});

describe('the S3 proxy, as strict as AWS', () => {
  const KEY = 'uploads/20456178325/2026/11/factura.pdf';
  const PDF = Buffer.from('%PDF-1.7 factura de prueba');

  /** A ticket like the upload use case's: exact key and type, a size range, a short life. */
  const ticket = (options: { key?: string; expires?: number; maxBytes?: number; client?: S3Client } = {}) =>
    createPresignedPost(options.client ?? s3, {
      Bucket: BUCKET,
      Key: options.key ?? KEY,
      Expires: options.expires ?? 300,
      Fields: { 'Content-Type': 'application/pdf', 'x-amz-meta-filename': 'factura.pdf' },
      Conditions: [
        { bucket: BUCKET },
        ['eq', '$key', options.key ?? KEY],
        ['eq', '$Content-Type', 'application/pdf'],
        ['content-length-range', 1, options.maxBytes ?? 1024],
      ],
    });

  /** Posts the form the way a browser does: the fields, then the file. */
  const upload = async (
    post: { url: string; fields: Record<string, string> },
    bytes: Buffer = PDF,
    change: (fields: Record<string, string>) => Record<string, string> = (fields) => fields,
  ) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(change({ ...post.fields }))) form.append(name, value);
    form.append('file', new Blob([bytes], { type: 'application/pdf' }), 'factura.pdf');
    const response = await fetch(post.url, { method: 'POST', body: form });
    return { status: response.status, body: await response.text() };
  };

  const codeOf = (xml: string) => /<Code>([^<]+)<\/Code>/.exec(xml)?.[1];

  const keys = async () =>
    ((await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'uploads/' }))).Contents ?? []).map(
      (object) => object.Key,
    );

  const emptyUploads = async () => {
    for (const key of await keys()) await s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: key }));
  };

  beforeAll(() => ensureBucket(s3, BUCKET));

  it('stores a form upload whose signed policy holds', async () => {
    await emptyUploads();
    const answer = await upload(await ticket());
    expect(answer.status).toBe(204);
    const object = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: KEY }));
    expect(Buffer.from(await object.Body!.transformToByteArray())).toEqual(PDF);
    expect(object.ContentType).toBe('application/pdf');
  });

  it.each([
    [
      'a changed key',
      (fields: Record<string, string>) => ({ ...fields, key: 'uploads/20608172352/2026/11/otra.pdf' }),
      403,
      'AccessDenied',
    ],
    [
      'a wrong content type',
      (fields: Record<string, string>) => ({ ...fields, 'Content-Type': 'text/html' }),
      403,
      'AccessDenied',
    ],
    [
      'a field the policy does not cover',
      (fields: Record<string, string>) => ({ ...fields, 'x-amz-meta-owner': '20608172352' }),
      403,
      'AccessDenied',
    ],
    [
      'a bad signature',
      (fields: Record<string, string>) => ({ ...fields, 'X-Amz-Signature': '0'.repeat(64) }),
      403,
      'SignatureDoesNotMatch',
    ],
    [
      'a policy rewritten without its signature',
      (fields: Record<string, string>) => {
        const policy = JSON.parse(Buffer.from(fields.Policy!, 'base64').toString()) as { conditions: unknown[] };
        policy.conditions = policy.conditions.filter((c) => !(Array.isArray(c) && c[1] === '$key'));
        return { ...fields, Policy: Buffer.from(JSON.stringify(policy)).toString('base64'), key: 'uploads/x.pdf' };
      },
      403,
      'SignatureDoesNotMatch',
    ],
    [
      'no policy at all',
      (fields: Record<string, string>) => ({ key: fields.key!, 'Content-Type': 'application/pdf' }),
      403,
      'AccessDenied',
    ],
  ] as const)('refuses a form upload with %s with S3’s error, and writes nothing', async (_, change, status, code) => {
    await emptyUploads();
    const answer = await upload(await ticket(), PDF, change);
    expect({ status: answer.status, code: codeOf(answer.body) }).toEqual({ status, code });
    expect(answer.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<Error><Code>/);
    expect(await keys()).toEqual([]);
  });

  it('refuses an upload larger than the policy allows (EntityTooLarge), and an expired policy', async () => {
    await emptyUploads();
    const tooLarge = await upload(await ticket({ maxBytes: 10 }));
    expect({ status: tooLarge.status, code: codeOf(tooLarge.body) }).toEqual({ status: 400, code: 'EntityTooLarge' });
    const expired = await upload(await ticket({ expires: -60 }));
    expect({ status: expired.status, code: codeOf(expired.body) }).toEqual({ status: 403, code: 'AccessDenied' });
    expect(expired.body).toContain('Policy expired');
    expect(await keys()).toEqual([]);
  });

  it('refuses a policy signed with another secret', async () => {
    await emptyUploads();
    const stranger = s3Client(s3Service.endpoint, { ...LOCAL_CREDENTIALS, secretAccessKey: 'otro-secreto' });
    try {
      const answer = await upload(await ticket({ client: stranger }));
      expect({ status: answer.status, code: codeOf(answer.body) }).toEqual({
        status: 403,
        code: 'SignatureDoesNotMatch',
      });
    } finally {
      stranger.destroy();
    }
    expect(await keys()).toEqual([]);
  });

  it('refuses anonymous PUT, GET and DELETE with 403 AccessDenied, and leaves the object as it was', async () => {
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: KEY, Body: PDF, ContentType: 'application/pdf' }));
    const url = `${s3Service.endpoint}/${BUCKET}/${KEY}`;

    for (const [method, body] of [
      ['PUT', 'reemplazado'],
      ['GET', undefined],
      ['DELETE', undefined],
    ] as const) {
      const response = await fetch(url, { method, body });
      const text = await response.text();
      expect({ method, status: response.status, code: codeOf(text) }).toEqual({
        method,
        status: 403,
        code: 'AccessDenied',
      });
    }
    const object = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: KEY }));
    expect(Buffer.from(await object.Body!.transformToByteArray())).toEqual(PDF);
  });

  it('pages a listing of more than 1,000 objects with continuation tokens, and refuses a token it did not give', async () => {
    // Prepare: 1,050 objects in two folders (s3rver's own tokens are DES, which Node 20's OpenSSL refuses: a 500)
    const prefix = 'uploads/pages/';
    const keys = Array.from(
      { length: 1050 },
      (_, i) => `${prefix}${i % 2 ? 'b' : 'a'}/${String(i).padStart(4, '0')}.xml`,
    );
    for (let i = 0; i < keys.length; i += 50) {
      await Promise.all(
        keys
          .slice(i, i + 50)
          .map((Key) => s3.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: PDF, ContentType: 'text/xml' }))),
      );
    }

    // Act: every page, then a page after a forged token, then the folders
    const first = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
    const second = await s3.send(
      new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix, ContinuationToken: first.NextContinuationToken }),
    );
    const forged = await s3
      .send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix, ContinuationToken: 'b3RybyBjdWJv' }))
      .catch((error: Error & { $metadata?: { httpStatusCode?: number } }) => error);
    const folders = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix, Delimiter: '/' }));
    const small = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${prefix}a/`, MaxKeys: 2 }));

    // Assess
    expect({ count: first.KeyCount, truncated: first.IsTruncated }).toEqual({ count: 1000, truncated: true });
    expect({ count: second.KeyCount, truncated: second.IsTruncated }).toEqual({ count: 50, truncated: false });
    expect([...first.Contents!, ...second.Contents!].map((object) => object.Key)).toEqual([...keys].sort());
    expect(first.Contents![0]).toMatchObject({ Size: PDF.length, StorageClass: 'STANDARD', ETag: expect.any(String) });
    expect(forged).toMatchObject({ name: 'InvalidArgument', $metadata: { httpStatusCode: 400 } });
    expect(folders.CommonPrefixes?.map((common) => common.Prefix)).toEqual([`${prefix}a/`, `${prefix}b/`]);
    expect(folders.Contents ?? []).toEqual([]);
    expect(small.Contents?.map((object) => object.Key)).toEqual([`${prefix}a/0000.xml`, `${prefix}a/0002.xml`]);
    expect(small.IsTruncated).toBe(true);
    await Promise.all(keys.map((Key) => s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key }))));
  }, 60_000);

  it('lists a bucket whole while another client deletes what it lists, as S3 does (s3rver answered 500)', async () => {
    // One try per listing: the SDK's own retries would hide a listing that failed.
    const lister = new S3Client({
      endpoint: s3Service.endpoint,
      region: REGION,
      credentials: LOCAL_CREDENTIALS,
      ...S3_CLIENT_COMPAT,
      maxAttempts: 1,
    });
    const prefix = 'uploads/listing/';
    try {
      // A race: s3rver failed about four listings in five of these rounds, so three rounds all but always met it.
      for (let round = 0; round < 3; round += 1) {
        // Prepare: objects in one folder, as the intake stores a supplier's files
        const keysToDelete = Array.from({ length: 500 }, (_, i) => `${prefix}documento-${round}-${i}.xml`);
        for (let i = 0; i < keysToDelete.length; i += 50) {
          await Promise.all(
            keysToDelete
              .slice(i, i + 50)
              .map((Key) => s3.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: PDF, ContentType: 'text/xml' }))),
          );
        }

        // Act: list again and again while every object is deleted, twenty at a time
        let deleting = true;
        const deletions = (async () => {
          for (let i = 0; i < keysToDelete.length; i += 20) {
            await Promise.all(
              keysToDelete.slice(i, i + 20).map((Key) => s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key }))),
            );
          }
          deleting = false;
        })();
        const listings: number[] = [];
        try {
          while (deleting) {
            const page = await lister.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix, MaxKeys: 1000 }));
            listings.push(page.Contents?.length ?? 0);
          }
        } finally {
          await deletions;
        }

        // Assess: every listing answered, fewer objects each time, none at the end
        expect(listings.length).toBeGreaterThan(1);
        expect(listings).toEqual([...listings].sort((a, b) => b - a));
        expect((await lister.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }))).KeyCount).toBe(0);
      }
    } finally {
      lister.destroy();
    }
  }, 60_000);

  it('deletes every object of a folder at once while another client writes into it, as S3 does (s3rver answered 500)', async () => {
    // One try per call: the SDK's own retries would hide a call that failed.
    const once = new S3Client({
      endpoint: s3Service.endpoint,
      region: REGION,
      credentials: LOCAL_CREDENTIALS,
      ...S3_CLIENT_COMPAT,
      maxAttempts: 1,
    });
    const prefix = 'uploads/folder-race/';
    try {
      // s3rver removed the folders it emptied and failed a deletion whose folder another one had just removed.
      for (let round = 0; round < 3; round += 1) {
        // Prepare: objects in two nested folders
        const old = Array.from({ length: 150 }, (_, i) => `${prefix}${i % 2 ? 'b/' : ''}viejo-${round}-${i}.xml`);
        for (let i = 0; i < old.length; i += 50) {
          await Promise.all(
            old
              .slice(i, i + 50)
              .map((Key) => s3.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: PDF, ContentType: 'text/xml' }))),
          );
        }
        const fresh = Array.from({ length: 30 }, (_, i) => `${prefix}${i % 2 ? 'b/' : ''}nuevo-${round}-${i}.xml`);

        // Act: every old object deleted at once, and new ones written into the same folders meanwhile
        const answers = await Promise.allSettled([
          ...old.map((Key) => once.send(new DeleteObjectCommand({ Bucket: BUCKET, Key }))),
          ...fresh.map((Key) =>
            once.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: PDF, ContentType: 'text/xml' })),
          ),
        ]);

        // Assess: every call answered, and the folders hold exactly the new objects
        expect(answers.filter((answer) => answer.status === 'rejected').map((answer) => String(answer.reason))).toEqual(
          [],
        );
        const listed = await once.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
        expect((listed.Contents ?? []).map((object) => object.Key).sort()).toEqual([...fresh].sort());
        for (const Key of fresh) {
          const object = await once.send(new GetObjectCommand({ Bucket: BUCKET, Key }));
          expect(Buffer.from(await object.Body!.transformToByteArray())).toEqual(PDF);
        }
        await Promise.all(fresh.map((Key) => once.send(new DeleteObjectCommand({ Bucket: BUCKET, Key }))));
      }
    } finally {
      once.destroy();
    }
  }, 60_000);

  it('answers hostile requests with S3’s 4xx errors, never a 500', async () => {
    const send = async (target: string, init: RequestInit) => {
      const response = await fetch(`${s3Service.endpoint}${target}`, init);
      return { status: response.status, code: codeOf(await response.text()) };
    };
    const garbage = { 'content-type': 'multipart/form-data; boundary=x' };
    expect(await send(`/${BUCKET}`, { method: 'POST', headers: garbage, body: '--x\r\nno headers' })).toEqual({
      status: 400,
      code: 'MalformedPOSTRequest',
    });
    expect(await send('/%E0%A4%A', { method: 'POST', headers: garbage, body: '--x--' })).toEqual({
      status: 400,
      code: 'InvalidURI',
    });
    expect(await send(`/${BUCKET}/a?x=%E0%A4%A`, { method: 'GET' })).toEqual({ status: 400, code: 'InvalidArgument' });
    const form = new FormData();
    form.append('key', KEY);
    const withoutFile = await fetch(`${s3Service.endpoint}/${BUCKET}`, { method: 'POST', body: form });
    expect({ status: withoutFile.status, code: codeOf(await withoutFile.text()) }).toEqual({
      status: 400,
      code: 'InvalidArgument',
    });
    expect(
      await send(`/${BUCKET}/${KEY}`, {
        method: 'GET',
        headers: { authorization: 'AWS4-HMAC-SHA256 Credential=S3RVER/2026/us-east-1/s3/aws4_request' },
      }),
    ).toEqual({ status: 400, code: 'InvalidRequest' });
  });

  it('serves signed SDK calls and presigned links, and refuses a link changed or expired, or a wrong secret', async () => {
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: KEY, Body: PDF, ContentType: 'application/pdf' }));
    expect((await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: KEY }))).ContentLength).toBe(PDF.length);

    const link = await getSignedUrl(s3, new GetObjectCommand({ Bucket: BUCKET, Key: KEY }), { expiresIn: 60 });
    const fetched = await fetch(link);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer())).toEqual(PDF);

    const changed = await fetch(link.replace('factura.pdf', 'otra.pdf'));
    expect({ status: changed.status, code: codeOf(await changed.text()) }).toEqual({
      status: 403,
      code: 'SignatureDoesNotMatch',
    });
    const old = await getSignedUrl(s3, new GetObjectCommand({ Bucket: BUCKET, Key: KEY }), {
      expiresIn: 60,
      signingDate: new Date(Date.now() - 3_600_000),
    });
    const expired = await fetch(old);
    expect({ status: expired.status, code: codeOf(await expired.text()) }).toEqual({
      status: 403,
      code: 'AccessDenied',
    });

    const stranger = s3Client(s3Service.endpoint, { ...LOCAL_CREDENTIALS, secretAccessKey: 'otro-secreto' });
    try {
      await expect(stranger.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: KEY }))).rejects.toMatchObject({
        name: 'SignatureDoesNotMatch',
        $metadata: expect.objectContaining({ httpStatusCode: 403 }),
      });
    } finally {
      stranger.destroy();
    }
    expect((await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: KEY }))).ContentLength).toBe(PDF.length);
  });
});

describe('multipart uploads through the S3 proxy, as AWS takes them', () => {
  const MiB = 1024 * 1024;
  const codeOf = (error: unknown) => (error as { name?: string }).name;
  /** The exports worker's uploader (functions/src/adapters/s3-uploads.ts) on this stand-in. */
  const uploader = () =>
    makeStreamUploads({
      name: BUCKET,
      endpoint: s3Service.endpoint,
      region: REGION,
      credentials: LOCAL_CREDENTIALS,
      pathStyle: true,
    });
  /** Writes `bytes` in 64 KiB chunks, as the file writer does, waiting for the stream to drain. */
  const writeAll = async (stream: NodeJS.WritableStream, bytes: Buffer) => {
    for (let start = 0; start < bytes.length; start += 64 * 1024) {
      if (!stream.write(bytes.subarray(start, start + 64 * 1024))) {
        await new Promise((resolve) => stream.once('drain', resolve));
      }
    }
  };
  const exists = (key: string) =>
    s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key })).then(
      () => true,
      () => false,
    );
  const previous = {
    request: process.env.AWS_REQUEST_CHECKSUM_CALCULATION,
    response: process.env.AWS_RESPONSE_CHECKSUM_VALIDATION,
  };

  beforeAll(async () => {
    await ensureBucket(s3, BUCKET);
    // What the local stage gives its functions (S3_CLIENT_COMPAT in the environment's form).
    process.env.AWS_REQUEST_CHECKSUM_CALCULATION = 'WHEN_REQUIRED';
    process.env.AWS_RESPONSE_CHECKSUM_VALIDATION = 'WHEN_REQUIRED';
  });
  afterAll(() => {
    for (const [name, value] of [
      ['AWS_REQUEST_CHECKSUM_CALCULATION', previous.request],
      ['AWS_RESPONSE_CHECKSUM_VALIDATION', previous.response],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('stores a streamed file of three parts byte for byte, and serves it through a presigned link', async () => {
    const key = 'exports/usuario/archivo-grande.csv';
    const bytes = Buffer.alloc(12 * MiB + 123);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 31 + (i >> 10)) % 251;
    const upload = uploader().upload(key, 'text/csv; charset=utf-8');
    await writeAll(upload.stream, bytes);
    upload.stream.end();
    await upload.done;

    const link = await getSignedUrl(s3, new GetObjectCommand({ Bucket: BUCKET, Key: key }), { expiresIn: 60 });
    const fetched = await fetch(link);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true);
  }, 60_000);

  it('leaves no object when the upload is aborted mid-file, and refuses its parts afterwards', async () => {
    const key = 'exports/usuario/a-medias.xlsx';
    const upload = uploader().upload(key, 'application/octet-stream');
    await writeAll(upload.stream, Buffer.alloc(11 * MiB, 7));
    await upload.abort();
    await expect(upload.done).rejects.toThrow();
    expect(await exists(key)).toBe(false);
  }, 60_000);

  it('refuses small parts but the last, parts out of order or never sent, and a part of an aborted upload', async () => {
    const key = 'exports/usuario/partes.csv';
    const started = await s3.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key }));
    const UploadId = started.UploadId!;
    const part = async (PartNumber: number, bytes: Buffer) => ({
      PartNumber,
      ETag: (await s3.send(new UploadPartCommand({ Bucket: BUCKET, Key: key, UploadId, PartNumber, Body: bytes })))
        .ETag,
    });
    const small = await part(1, Buffer.alloc(1024, 1));
    const last = await part(2, Buffer.alloc(1024, 2));
    const complete = (Parts: { PartNumber: number; ETag?: string }[]) =>
      s3.send(new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key: key, UploadId, MultipartUpload: { Parts } }));

    await expect(complete([small, last]).catch(codeOf)).resolves.toBe('EntityTooSmall');
    await expect(complete([last, small]).catch(codeOf)).resolves.toBe('InvalidPartOrder');
    await expect(complete([small, { PartNumber: 3, ETag: last.ETag }]).catch(codeOf)).resolves.toBe('InvalidPart');
    expect(await exists(key)).toBe(false);

    await s3.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key: key, UploadId }));
    await expect(part(3, Buffer.alloc(10)).catch(codeOf)).resolves.toBe('NoSuchUpload');
    await expect(complete([last]).catch(codeOf)).resolves.toBe('NoSuchUpload');
    expect(await exists(key)).toBe(false);

    // One small part alone is the last one: allowed, as in S3.
    const again = await s3.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key }));
    const only = await s3.send(
      new UploadPartCommand({ Bucket: BUCKET, Key: key, UploadId: again.UploadId!, PartNumber: 1, Body: 'fila;1\r\n' }),
    );
    await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: BUCKET,
        Key: key,
        UploadId: again.UploadId!,
        MultipartUpload: { Parts: [{ PartNumber: 1, ETag: only.ETag }] },
      }),
    );
    expect(await exists(key)).toBe(true);
  });
});

describe('fauxqs', () => {
  it('provisions every queue with its DLQ idempotently, with usable 127.0.0.1 URLs', async () => {
    const first = await ensureQueues(sqs, 'test');
    const second = await ensureQueues(sqs, 'test');

    expect(second).toEqual(first);
    expect(Object.keys(first).sort()).toEqual(Object.keys(QUEUES).sort());
    for (const [key, def] of Object.entries(QUEUES)) {
      const queue = first[key as keyof typeof QUEUES];
      expect(queue.url).toBe(`${sqsService.endpoint}/000000000000/${localName('test', def.id)}`);
      expect(queue.dlqArn).toMatch(new RegExp(`:${localName('test', `${def.id}-dlq`)}$`));
      const { Attributes } = await sqs.send(
        new GetQueueAttributesCommand({ QueueUrl: queue.url, AttributeNames: ['VisibilityTimeout', 'RedrivePolicy'] }),
      );
      expect(Attributes?.VisibilityTimeout).toBe(String(def.visibilityTimeoutSeconds));
      expect(JSON.parse(Attributes?.RedrivePolicy ?? '{}')).toEqual({
        deadLetterTargetArn: queue.dlqArn,
        maxReceiveCount: def.maxReceiveCount,
      });
    }
  });

  it('round-trips a message through a provisioned queue using only its URL', async () => {
    const { notifications } = await ensureQueues(sqs, 'test');
    // No endpoint: the SDK sends to the queue URL's own host, as a function would with only the URL.
    const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
    const plain = new SQSClient({ region: REGION, credentials: LOCAL_CREDENTIALS, logger: quiet });
    try {
      await plain.send(new SendMessageCommand({ QueueUrl: notifications.url, MessageBody: 'hola' }));
      const { Messages } = await plain.send(
        new ReceiveMessageCommand({ QueueUrl: notifications.url, WaitTimeSeconds: 1 }),
      );
      expect(Messages?.map((message) => message.Body)).toEqual(['hola']);
    } finally {
      plain.destroy();
    }
  });

  it('re-provisioning updates a queue whose definition changed', async () => {
    const name = localName('test', QUEUES.miroRequests.id);
    const { miroRequests } = await ensureQueues(sqs, 'test');
    // Simulate a queue left by an earlier definition.
    await sqs.send(
      new SetQueueAttributesCommand({ QueueUrl: miroRequests.url, Attributes: { VisibilityTimeout: '7' } }),
    );

    await ensureQueues(sqs, 'test');

    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: miroRequests.url, AttributeNames: ['VisibilityTimeout'] }),
    );
    expect(miroRequests.url.endsWith(name)).toBe(true);
    expect(Attributes?.VisibilityTimeout).toBe(String(QUEUES.miroRequests.visibilityTimeoutSeconds));
  });
});

describe('port checks', () => {
  it('refuse a taken port with a message saying what to do', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, HOST, resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      await expect(assertPortFree(port, HOST, 'S3')).rejects.toThrow(
        new RegExp(`El puerto ${port} \\(S3\\) está ocupado: cierre el proceso que lo usa o defina LOCAL_PORT_BASE`),
      );
      await expect(startSqs({ port, host: HOST })).rejects.toThrow(/está ocupado/);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});

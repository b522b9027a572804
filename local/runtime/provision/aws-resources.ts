/**
 * Creates the table, queues and buckets of the local stage on its stand-ins, from the same
 * definitions CDK uses. Every function here is idempotent: it runs on every start.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type AttributeDefinition,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, HeadBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  SetQueueAttributesCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { localName, QUEUES, TABLE, type QueueDef } from '@portal/shared';

const TABLE_READY_TIMEOUT_MS = 30_000;
/** DLQs keep messages for the SQS maximum, 14 days, so that a failure can be studied. */
const DLQ_RETENTION_SECONDS = 14 * 24 * 60 * 60;

// ---------------------------------------------------------------------------------------------
// DynamoDB

/**
 * Creates the table if missing (on demand, the three GSIs with ALL projection), adds any GSI a
 * later version of TABLE declares, and enables TTL on TABLE.ttlAttribute (or disables it: `timeToLive: false`).
 * DynamoDB Local accepts UpdateTimeToLive, reports it in DescribeTimeToLive and deletes expired items: a job that
 * every 11 s scans a page of the table under the table's write lock, which on a table of 100,000 invoices holds every
 * read and write for about a second (AWS deletes in the background without holding anything).
 */
export async function ensureTable(
  ddb: DynamoDBClient,
  tableName: string,
  options: { timeToLive?: boolean } = {},
): Promise<void> {
  const { timeToLive = true } = options;
  let table = await describeTable(ddb, tableName);
  if (!table) {
    try {
      await ddb.send(
        new CreateTableCommand({
          TableName: tableName,
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: attributeDefinitions(),
          KeySchema: [
            { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
            { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
          ],
          GlobalSecondaryIndexes: globalSecondaryIndexes(),
        }),
      );
    } catch (err) {
      // Another start created it in the meantime.
      if (!isError(err, 'ResourceInUseException')) throw err;
    }
    table = await waitForTable(ddb, tableName);
  }

  const existing = new Set((table.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  // A table of an earlier version holds the retired indexes (ADR 0044): empty, and a cost to every write here.
  for (const retired of Object.values(TABLE.retiredIndexes)) {
    if (!existing.has(retired.name)) continue;
    await ddb.send(
      new UpdateTableCommand({
        TableName: tableName,
        GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: retired.name } }],
      }),
    );
    await waitForTable(ddb, tableName);
  }
  for (const index of globalSecondaryIndexes()) {
    if (existing.has(index.IndexName)) continue;
    // One index per UpdateTable call, as DynamoDB requires.
    await ddb.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: attributeDefinitions(),
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
    await waitForTable(ddb, tableName);
  }

  const ttl = await ddb.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
  const ttlDescription = ttl.TimeToLiveDescription;
  const ttlEnabled =
    ttlDescription?.AttributeName === TABLE.ttlAttribute &&
    (ttlDescription.TimeToLiveStatus === 'ENABLED' || ttlDescription.TimeToLiveStatus === 'ENABLING');
  if (ttlEnabled !== timeToLive) {
    await ddb.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: timeToLive },
      }),
    );
  }
}

function attributeDefinitions(): AttributeDefinition[] {
  const names = new Set<string>([TABLE.partitionKey, TABLE.sortKey]);
  for (const index of Object.values(TABLE.indexes)) {
    names.add(index.partitionKey);
    names.add(index.sortKey);
  }
  return [...names].map((AttributeName) => ({ AttributeName, AttributeType: 'S' }));
}

function globalSecondaryIndexes(): GlobalSecondaryIndex[] {
  return Object.values(TABLE.indexes).map((index) => ({
    IndexName: index.name,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' },
      { AttributeName: index.sortKey, KeyType: 'RANGE' },
    ],
    Projection: { ProjectionType: 'ALL' },
  }));
}

async function describeTable(ddb: DynamoDBClient, tableName: string): Promise<TableDescription | undefined> {
  try {
    const output = await ddb.send(new DescribeTableCommand({ TableName: tableName }));
    return output.Table;
  } catch (err) {
    if (isError(err, 'ResourceNotFoundException')) return undefined;
    throw err;
  }
}

/** Waits until the table and all its indexes are ACTIVE (immediate on DynamoDB Local). */
async function waitForTable(ddb: DynamoDBClient, tableName: string): Promise<TableDescription> {
  const deadline = Date.now() + TABLE_READY_TIMEOUT_MS;
  for (;;) {
    const table = await describeTable(ddb, tableName);
    const active =
      table?.TableStatus === 'ACTIVE' &&
      (table.GlobalSecondaryIndexes ?? []).every((index) => index.IndexStatus === 'ACTIVE');
    if (table && active) return table;
    if (Date.now() > deadline) {
      throw new Error(
        `La tabla ${tableName} no quedó activa en ${TABLE_READY_TIMEOUT_MS / 1000} s (estado: ${table?.TableStatus ?? 'inexistente'}).`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// ---------------------------------------------------------------------------------------------
// SQS

export interface ProvisionedQueue {
  readonly url: string;
  readonly arn: string;
  readonly dlqUrl: string;
  readonly dlqArn: string;
}

export type ProvisionedQueues = { readonly [K in keyof typeof QUEUES]: ProvisionedQueue };

/**
 * Creates every queue of QUEUES and its DLQ, named `localName(stage, id)` and
 * `localName(stage, id + '-dlq')`, with the definition's visibility timeout and a RedrivePolicy
 * after maxReceiveCount receives. A queue that exists with other attributes (the definition
 * changed while the stand-in kept running) is updated to the definition.
 */
export async function ensureQueues(sqs: SQSClient, stage: string): Promise<ProvisionedQueues> {
  const entries = await Promise.all(
    (Object.entries(QUEUES) as Array<[keyof typeof QUEUES, QueueDef]>).map(
      async ([key, def]) => [key, await ensureQueue(sqs, stage, def)] as const,
    ),
  );
  return Object.fromEntries(entries) as ProvisionedQueues;
}

async function ensureQueue(sqs: SQSClient, stage: string, def: QueueDef): Promise<ProvisionedQueue> {
  const dlq = await ensureSqsQueue(sqs, localName(stage, `${def.id}-dlq`), {
    MessageRetentionPeriod: String(DLQ_RETENTION_SECONDS),
  });
  const queue = await ensureSqsQueue(sqs, localName(stage, def.id), {
    VisibilityTimeout: String(def.visibilityTimeoutSeconds),
    RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.arn, maxReceiveCount: def.maxReceiveCount }),
  });
  return { url: queue.url, arn: queue.arn, dlqUrl: dlq.url, dlqArn: dlq.arn };
}

async function ensureSqsQueue(
  sqs: SQSClient,
  name: string,
  attributes: Record<string, string>,
): Promise<{ url: string; arn: string }> {
  let url: string | undefined;
  try {
    url = (await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }))).QueueUrl;
  } catch (err) {
    if (!isError(err, 'QueueNameExists')) throw err;
    url = (await sqs.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl;
    if (url) await sqs.send(new SetQueueAttributesCommand({ QueueUrl: url, Attributes: attributes }));
  }
  if (!url) throw new Error(`SQS no devolvió la URL de la cola ${name}.`);
  const output = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }));
  const arn = output.Attributes?.QueueArn;
  if (!arn) throw new Error(`SQS no devolvió el ARN de la cola ${name}.`);
  return { url, arn };
}

// ---------------------------------------------------------------------------------------------
// S3

/** Creates the bucket if missing. On the local stage, startS3 gives every bucket its CORS rule. */
export async function ensureBucket(s3: S3Client, bucketName: string): Promise<void> {
  if (await bucketExists(s3, bucketName)) return;
  try {
    await s3.send(new CreateBucketCommand({ Bucket: bucketName }));
  } catch (err) {
    // s3rver answers BucketAlreadyExists for its own buckets; tolerate a concurrent creation.
    if (isError(err, 'BucketAlreadyOwnedByYou')) return;
    if (isError(err, 'BucketAlreadyExists') && (await bucketExists(s3, bucketName))) return;
    throw err;
  }
}

async function bucketExists(s3: S3Client, bucketName: string): Promise<boolean> {
  try {
    await s3.send(new HeadBucketCommand({ Bucket: bucketName }));
    return true;
  } catch (err) {
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (isError(err, 'NotFound') || isError(err, 'NoSuchBucket') || status === 404) return false;
    throw err;
  }
}

/** SQS errors may carry the legacy query code as name, e.g. `AWS.SimpleQueueService.QueueNameExists`. */
function isError(err: unknown, name: string): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { Code?: unknown }).Code;
  return err.name === name || err.name.endsWith(`.${name}`) || code === name;
}

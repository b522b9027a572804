import {
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { ExportFormat, ExportList, ExportStatus, TABLE, keys } from '@portal/shared';
import * as z from 'zod/mini';
import { CallerSnapshot } from './caller-snapshot.js';
import { outgoingItem, type OutgoingMessage } from './outgoing.js';

/** An export job as stored under its owner (keys.exportJob). */
export const StoredExportJob = z.object({
  id: z.string(),
  userId: z.string(),
  list: ExportList,
  format: ExportFormat,
  /** The list route's query, as strings (the worker parses them with the same schema). */
  filters: z.record(z.string(), z.string()),
  /** Who asked: the worker lists as this caller would. */
  requester: CallerSnapshot,
  status: ExportStatus,
  rows: z.number(),
  total: z.nullable(z.number()),
  /** Deliveries that started writing the file; each starts it again from the first row. */
  attempts: z.number(),
  key: z.string(),
  fileName: z.string(),
  createdAt: z.string(),
  startedAt: z.nullable(z.string()),
  finishedAt: z.nullable(z.string()),
  error: z.nullable(z.string()),
});
export type StoredExportJob = z.infer<typeof StoredExportJob>;

/** Days a job's item stays (its file goes after one, by the bucket's lifecycle rule). */
const JOB_DAYS = 2;

const NAMES = { '#status': 'status', '#rows': 'rows', '#error': 'error' };

const parse = (item: Record<string, unknown> | undefined) =>
  item ? StoredExportJob.parse({ ...item, filters: item.filters ?? {} }) : null;

export function makeExportJobRepository(db: DynamoDBDocumentClient, table: string) {
  const key = (userId: string, id: string) => keys.exportJob(userId, id);

  async function update(
    job: Pick<StoredExportJob, 'userId' | 'id'>,
    expression: string,
    values: Record<string, unknown>,
    condition?: string,
  ): Promise<boolean> {
    try {
      await db.send(
        new UpdateCommand({
          TableName: table,
          Key: key(job.userId, job.id),
          UpdateExpression: expression,
          // Only the names the expressions use (DynamoDB refuses unused ones); 'status' and 'rows' are reserved words.
          ExpressionAttributeNames: Object.fromEntries(
            Object.entries(NAMES).filter(([name]) => `${expression} ${condition ?? ''}`.includes(name)),
          ),
          ExpressionAttributeValues: values,
          ConditionExpression: condition ? `attribute_exists(pk) AND ${condition}` : 'attribute_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if ((error as Error).name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }

  return {
    /** The job and its queue message, in one transaction (the outbox: the message is never lost). */
    async create(job: StoredExportJob, message: OutgoingMessage): Promise<void> {
      const expiresAt = Math.floor(Date.parse(job.createdAt) / 1000) + JOB_DAYS * 86_400;
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: table,
                Item: { ...key(job.userId, job.id), ...job, [TABLE.ttlAttribute]: expiresAt },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            { Put: { TableName: table, Item: outgoingItem(message) } },
          ],
        }),
      );
    },

    /** The owner's job; null for an id it does not own (or none). */
    async get(userId: string, id: string): Promise<StoredExportJob | null> {
      const result = await db.send(new GetCommand({ TableName: table, Key: key(userId, id), ConsistentRead: true }));
      return parse(result.Item);
    },

    /** The owner's jobs created since `since` (ISO) that are still queued or running. */
    async unfinished(userId: string, since: string): Promise<StoredExportJob[]> {
      const found: StoredExportJob[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await db.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            FilterExpression: '#status IN (:queued, :running) AND createdAt >= :since',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':pk': key(userId, '').pk,
              ':prefix': keys.exportJobPrefix,
              ':queued': 'QUEUED',
              ':running': 'RUNNING',
              ':since': since,
            },
            ConsistentRead: true,
            ExclusiveStartKey: start,
          }),
        );
        for (const item of page.Items ?? []) found.push(parse(item)!);
        start = page.LastEvaluatedKey;
      } while (start);
      return found;
    },

    /** Starts (again) writing the file: false when the job is already READY or FAILED (nothing to do). */
    async start(job: StoredExportJob, now: string): Promise<boolean> {
      return update(
        job,
        'SET #status = :running, startedAt = :now, attempts = attempts + :one, #rows = :zero',
        { ':running': 'RUNNING', ':now': now, ':one': 1, ':zero': 0, ':ready': 'READY', ':failed': 'FAILED' },
        'NOT (#status IN (:ready, :failed))',
      );
    },

    async progress(job: StoredExportJob, rows: number): Promise<void> {
      await update(job, 'SET #rows = :rows', { ':rows': rows, ':running': 'RUNNING' }, '#status = :running');
    },

    async finish(job: StoredExportJob, rows: number, now: string): Promise<boolean> {
      return update(
        job,
        'SET #status = :ready, #rows = :rows, finishedAt = :now',
        { ':ready': 'READY', ':rows': rows, ':now': now, ':running': 'RUNNING' },
        '#status = :running',
      );
    },

    async fail(job: StoredExportJob, error: string, now: string): Promise<void> {
      await update(
        job,
        'SET #status = :failed, #error = :error, finishedAt = :now',
        { ':failed': 'FAILED', ':error': error, ':now': now, ':ready': 'READY' },
        '#status <> :ready',
      );
    },
  };
}

export type ExportJobRepository = ReturnType<typeof makeExportJobRepository>;

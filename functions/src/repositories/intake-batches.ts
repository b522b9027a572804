import {
  BatchGetCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { IntakeOutcome } from '@portal/shared';
import { BadRequestError, IntakeBatchStatus, IntakeDocumentResult, TABLE, keys } from '@portal/shared';
import * as z from 'zod/mini';
import { CallerSnapshot } from './caller-snapshot.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { outgoingItem, type OutgoingMessage } from './outgoing.js';
import type { Page, PageRequest } from './page.js';

const Reason = z.object({ code: z.string(), message: z.string() });

/** A batch as stored (keys.intakeBatch). */
export const StoredIntakeBatch = z.object({
  id: z.string(),
  userId: z.string(),
  company: z.string(),
  fileName: z.string(),
  /** The uploaded zip's object key (deleted once the batch ends). */
  key: z.string(),
  /** Who uploaded the zip: every document is registered as this person would. */
  uploader: CallerSnapshot,
  status: IntakeBatchStatus,
  total: z.nullable(z.number()),
  processed: z.number(),
  accepted: z.number(),
  alreadyExisting: z.number(),
  refused: z.number(),
  error: z.nullable(Reason),
  /** Deliveries that started reading the zip. */
  attempts: z.number(),
  createdAt: z.string(),
  startedAt: z.nullable(z.string()),
  finishedAt: z.nullable(z.string()),
});
export type StoredIntakeBatch = z.infer<typeof StoredIntakeBatch>;

/** Days a batch and its results stay to be read (then DynamoDB's TTL removes them). */
export const INTAKE_BATCH_DAYS = 30;

const COUNTER: Record<IntakeOutcome, 'accepted' | 'alreadyExisting' | 'refused'> = {
  ACCEPTED: 'accepted',
  ALREADY_EXISTS: 'alreadyExisting',
  REFUSED: 'refused',
};

// 'status', 'processed' and 'total' are DynamoDB reserved words: every attribute an update names goes by a name.
const NAMES = {
  '#status': 'status',
  '#error': 'error',
  '#total': 'total',
  '#processed': 'processed',
  '#accepted': 'accepted',
  '#alreadyExisting': 'alreadyExisting',
  '#refused': 'refused',
};

const isConditionFailure = (error: unknown) => (error as Error).name === 'ConditionalCheckFailedException';

const parseBatch = (item: Record<string, unknown> | undefined) => (item ? StoredIntakeBatch.parse(item) : null);

/** The folded base name a result is keyed by (the zip reader groups the files so). */
export const resultKeyOf = (base: string) => base.toLowerCase();

export function makeIntakeBatchRepository(db: DynamoDBDocumentClient, table: string) {
  const expiresAtOf = (createdAt: string) => Math.floor(Date.parse(createdAt) / 1000) + INTAKE_BATCH_DAYS * 86_400;

  async function update(
    batchId: string,
    expression: string,
    values: Record<string, unknown>,
    condition: string,
  ): Promise<boolean> {
    try {
      await db.send(
        new UpdateCommand({
          TableName: table,
          Key: keys.intakeBatch(batchId),
          UpdateExpression: expression,
          ConditionExpression: `attribute_exists(pk) AND ${condition}`,
          // Only the names the expressions use (DynamoDB refuses unused ones); 'status' is a reserved word.
          ExpressionAttributeNames: Object.fromEntries(
            Object.entries(NAMES).filter(([name]) => `${expression} ${condition}`.includes(name)),
          ),
          ExpressionAttributeValues: values,
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  const unfinished = { ':queued': 'QUEUED', ':processing': 'PROCESSING' };

  return {
    /** The batch, its uploader's pointer and its queue message, in one transaction (the outbox). */
    async create(batch: StoredIntakeBatch, message: OutgoingMessage): Promise<void> {
      const expiresAt = expiresAtOf(batch.createdAt);
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: table,
                Item: { ...keys.intakeBatch(batch.id), ...batch, [TABLE.ttlAttribute]: expiresAt },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName: table,
                Item: {
                  ...keys.intakeBatchOfUser(batch.userId, batch.createdAt, batch.id),
                  batchId: batch.id,
                  [TABLE.ttlAttribute]: expiresAt,
                },
              },
            },
            { Put: { TableName: table, Item: outgoingItem(message) } },
          ],
        }),
      );
    },

    async get(batchId: string): Promise<StoredIntakeBatch | null> {
      const result = await db.send(
        new GetCommand({ TableName: table, Key: keys.intakeBatch(batchId), ConsistentRead: true }),
      );
      return parseBatch(result.Item);
    },

    /** The user's `limit` newest batches, newest first. */
    async recent(userId: string, limit: number): Promise<StoredIntakeBatch[]> {
      const page = await db.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: {
            ':pk': keys.intakeBatchOfUser(userId, '', '').pk,
            ':prefix': keys.intakeBatchOfUserPrefix,
          },
          ScanIndexForward: false,
          Limit: limit,
        }),
      );
      const ids = (page.Items ?? []).map((item) => String(item.batchId));
      if (ids.length === 0) return [];
      const found = await db.send(
        new BatchGetCommand({
          RequestItems: { [table]: { Keys: ids.map((id) => keys.intakeBatch(id)), ConsistentRead: true } },
        }),
      );
      const byId = new Map(
        (found.Responses?.[table] ?? []).map((item) => {
          const batch = StoredIntakeBatch.parse(item);
          return [batch.id, batch] as const;
        }),
      );
      // A few dozen keys at most: what BatchGet left unprocessed is read one by one.
      for (const id of ids) {
        if (!byId.has(id)) {
          const batch = await this.get(id);
          if (batch) byId.set(id, batch);
        }
      }
      return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
    },

    /** Starts (again) reading the zip: false when the batch has ended (nothing to do). */
    async start(batchId: string, now: string): Promise<boolean> {
      return update(
        batchId,
        'SET #status = :processing, startedAt = :now, attempts = attempts + :one',
        { ...unfinished, ':now': now, ':one': 1 },
        '#status IN (:queued, :processing)',
      );
    },

    /** The documents the zip holds, known once its central directory was read. */
    async setTotal(batchId: string, total: number): Promise<void> {
      await update(
        batchId,
        'SET #total = :total',
        { ':total': total, ':processing': 'PROCESSING' },
        '#status = :processing',
      );
    },

    /** The folded base names whose result is recorded: a redelivery skips them. */
    async recordedKeys(batchId: string): Promise<Set<string>> {
      const found = new Set<string>();
      let start: Record<string, unknown> | undefined;
      do {
        const page = await db.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            ExpressionAttributeValues: { ':pk': keys.intakeBatch(batchId).pk, ':prefix': keys.intakeResultPrefix },
            ProjectionExpression: 'sk',
            ConsistentRead: true,
            ExclusiveStartKey: start,
          }),
        );
        for (const item of page.Items ?? []) found.add(String(item.sk).slice(keys.intakeResultPrefix.length));
        start = page.LastEvaluatedKey;
      } while (start);
      return found;
    },

    /**
     * One document's result, once (false: it was recorded before). The batch's counters follow with `addCounts`,
     * a few results at a time: a crash in between leaves a counter short, which `finish` sets right by counting the
     * results.
     */
    async record(batch: Pick<StoredIntakeBatch, 'id' | 'createdAt'>, result: IntakeDocumentResult): Promise<boolean> {
      try {
        await db.send(
          new PutCommand({
            TableName: table,
            Item: {
              ...keys.intakeResult(batch.id, resultKeyOf(result.base)),
              ...result,
              [TABLE.ttlAttribute]: expiresAtOf(batch.createdAt),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
      return true;
    },

    /** Adds newly recorded results to the batch's counters (the progress the screen shows), in one write. */
    async addCounts(batchId: string, outcomes: Readonly<Record<IntakeOutcome, number>>): Promise<void> {
      const counted = (Object.keys(COUNTER) as IntakeOutcome[]).filter((outcome) => outcomes[outcome] > 0);
      if (counted.length === 0) return;
      const total = counted.reduce((sum, outcome) => sum + outcomes[outcome], 0);
      await db.send(
        new UpdateCommand({
          TableName: table,
          Key: keys.intakeBatch(batchId),
          UpdateExpression: `ADD #processed :total, ${counted.map((outcome) => `#${COUNTER[outcome]} :${COUNTER[outcome]}`).join(', ')}`,
          ExpressionAttributeNames: {
            '#processed': 'processed',
            ...Object.fromEntries(counted.map((outcome) => [`#${COUNTER[outcome]}`, COUNTER[outcome]])),
          },
          ExpressionAttributeValues: {
            ':total': total,
            ...Object.fromEntries(counted.map((outcome) => [`:${COUNTER[outcome]}`, outcomes[outcome]])),
          },
        }),
      );
    },

    /** A page of the results, by base name. */
    async results(batchId: string, page: PageRequest): Promise<Page<IntakeDocumentResult>> {
      const partition = keys.intakeBatch(batchId).pk;
      const scope = `intake:${partition}`;
      const startKey = decodeCursor(scope, page.cursor, [TABLE.partitionKey, TABLE.sortKey]);
      if (startKey && startKey[TABLE.partitionKey] !== partition) throw new BadRequestError('ERROR_INVALID_CURSOR');
      const result = await db.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': partition, ':prefix': keys.intakeResultPrefix },
          ConsistentRead: true,
          Limit: page.limit,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      return {
        items: (result.Items ?? []).map((item) => IntakeDocumentResult.parse(item)),
        nextCursor: encodeCursor(scope, result.LastEvaluatedKey as Record<string, string> | undefined),
      };
    },

    /** Ends the batch DONE with its counters counted from the results themselves. */
    async finish(batchId: string, now: string): Promise<boolean> {
      const counts = { processed: 0, accepted: 0, alreadyExisting: 0, refused: 0 };
      let start: Record<string, unknown> | undefined;
      do {
        const page = await db.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            ExpressionAttributeValues: { ':pk': keys.intakeBatch(batchId).pk, ':prefix': keys.intakeResultPrefix },
            ExpressionAttributeNames: { '#outcome': 'outcome' },
            ProjectionExpression: '#outcome',
            ConsistentRead: true,
            ExclusiveStartKey: start,
          }),
        );
        for (const item of page.Items ?? []) {
          counts.processed++;
          counts[COUNTER[item.outcome as IntakeOutcome]]++;
        }
        start = page.LastEvaluatedKey;
      } while (start);
      return update(
        batchId,
        'SET #status = :done, finishedAt = :now, #processed = :processed, #accepted = :accepted, ' +
          '#alreadyExisting = :alreadyExisting, #refused = :refused',
        {
          ':done': 'DONE',
          ':now': now,
          ':processed': counts.processed,
          ':accepted': counts.accepted,
          ':alreadyExisting': counts.alreadyExisting,
          ':refused': counts.refused,
          ':processing': 'PROCESSING',
        },
        '#status = :processing',
      );
    },

    /** Ends the batch REFUSED (a hostile or broken zip: nothing of it stored) or FAILED (it could not go on). */
    async end(
      batchId: string,
      status: 'REFUSED' | 'FAILED',
      error: { code: string; message: string },
      now: string,
    ): Promise<boolean> {
      return update(
        batchId,
        'SET #status = :status, #error = :error, finishedAt = :now',
        { ...unfinished, ':status': status, ':error': error, ':now': now },
        '#status IN (:queued, :processing)',
      );
    },
  };
}

export type IntakeBatchRepository = ReturnType<typeof makeIntakeBatchRepository>;

import { BatchGetCommand, GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { IntakeDocumentResult, IntakeOutcome } from '@portal/shared';
import { IntakeBatchStatus, TABLE, keys } from '@portal/shared';
import * as z from 'zod/mini';
import { CallerSnapshot } from './caller-snapshot.js';
import { makeConditionalUpdate } from './conditional-update.js';
import {
  addCounts,
  countResults,
  expiresAtOf,
  recordResult,
  recordedKeys,
  resultsPage,
} from './intake-batch-results.js';
import { makeDueRecords, type RecordKey } from './due-records.js';
import { outgoingItem, type OutgoingMessage } from './outgoing.js';
import type { Page, PageRequest } from './page.js';
import { Transaction } from './transaction.js';
import { postponeLapsed, releaseLease, renewLease, type HeldJob } from './job-leases.js';

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
  /** The run that holds the batch and until when, renewed while it works; absent once it ends (and before). */
  leaseOwner: z.optional(z.string()),
  leaseUntil: z.optional(z.string()),
  /** When a run last took over a batch whose worker had stopped (its lease lapsed): the screen says «reanudado». */
  resumedAt: z._default(z.nullable(z.string()), null),
  createdAt: z.string(),
  startedAt: z.nullable(z.string()),
  finishedAt: z.nullable(z.string()),
});
export type StoredIntakeBatch = z.infer<typeof StoredIntakeBatch>;

export { INTAKE_BATCH_DAYS, resultKeyOf } from './intake-batch-results.js';

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

const parseBatch = (item: Record<string, unknown> | undefined) => (item ? StoredIntakeBatch.parse(item) : null);

/** The batch, its uploader's pointer and its queue message, in one transaction (the outbox). */
async function createBatch(
  db: DynamoDBDocumentClient,
  table: string,
  batch: StoredIntakeBatch,
  message: OutgoingMessage,
): Promise<void> {
  const expiresAt = expiresAtOf(batch.createdAt);
  await new Transaction(table)
    .put({
      Item: { ...keys.intakeBatch(batch.id), ...batch, [TABLE.ttlAttribute]: expiresAt },
      ConditionExpression: 'attribute_not_exists(pk)',
    })
    .put({
      Item: {
        ...keys.intakeBatchOfUser(batch.userId, batch.createdAt, batch.id),
        batchId: batch.id,
        [TABLE.ttlAttribute]: expiresAt,
      },
    })
    .put({ Item: outgoingItem(message) })
    .send(db, (refused) => refused.error);
}

export async function getBatch(
  db: DynamoDBDocumentClient,
  table: string,
  batchId: string,
): Promise<StoredIntakeBatch | null> {
  const result = await db.send(
    new GetCommand({ TableName: table, Key: keys.intakeBatch(batchId), ConsistentRead: true }),
  );
  return parseBatch(result.Item);
}

/** The user's `limit` newest batches, newest first. */
async function recentBatches(
  db: DynamoDBDocumentClient,
  table: string,
  userId: string,
  limit: number,
): Promise<StoredIntakeBatch[]> {
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
      const batch = await getBatch(db, table, id);
      if (batch) byId.set(id, batch);
    }
  }
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

type BatchUpdate = (
  batchId: string,
  expression: string,
  values: Record<string, unknown>,
  condition: string,
) => Promise<boolean>;

const UNFINISHED = { ':queued': 'QUEUED', ':processing': 'PROCESSING' };

/**
 * Takes the batch for the run `owner` until `until`: a QUEUED one, or a PROCESSING one whose lease lapsed before
 * `now` (its worker stopped: the take-over is a resume). 'BUSY' when another run holds it, 'ENDED' when it ended.
 */
async function startBatch(
  db: DynamoDBDocumentClient,
  table: string,
  update: BatchUpdate,
  { batchId, owner, now, until }: { batchId: string; owner: string; now: string; until: string },
): Promise<'STARTED' | 'RESUMED' | 'BUSY' | 'ENDED'> {
  const lease = {
    ':owner': owner,
    ':now': now,
    ':until': until,
    ':one': 1,
    ':leases': keys.jobLeases,
    ':leaseSk': `${until}#${keys.intakeBatch(batchId).pk}`,
  };
  const hold =
    'SET #status = :processing, leaseOwner = :owner, leaseUntil = :until, gsi1pk = :leases, gsi1sk = :leaseSk';
  const fresh = `${hold}, startedAt = :now ADD attempts :one`;
  if (await update(batchId, fresh, { ...lease, ...UNFINISHED }, '#status = :queued')) return 'STARTED';
  // A batch PROCESSING without a lease was left so by a worker of before the leases: lapsed too.
  const lapsed = '#status = :processing AND (attribute_not_exists(leaseUntil) OR leaseUntil <= :now)';
  const resume = `${hold}, resumedAt = :now ADD attempts :one`;
  if (await update(batchId, resume, { ...lease, ':processing': 'PROCESSING' }, lapsed)) return 'RESUMED';
  const batch = await getBatch(db, table, batchId);
  return batch && (batch.status === 'QUEUED' || batch.status === 'PROCESSING') ? 'BUSY' : 'ENDED';
}

/**
 * Ends the batch DONE with its counters counted from the results themselves, and only with a result for every
 * document the zip holds: a batch is never DONE with fewer (or more) results than documents. Such a batch throws,
 * so that its run is tried again and records what is missing.
 */
async function finishBatch(
  db: DynamoDBDocumentClient,
  table: string,
  update: BatchUpdate,
  batchId: string,
  now: string,
): Promise<boolean> {
  const counts = await countResults(db, table, batchId);
  const done = await update(
    batchId,
    'SET #status = :done, finishedAt = :now, #processed = :processed, #accepted = :accepted, ' +
      '#alreadyExisting = :alreadyExisting, #refused = :refused ' +
      'REMOVE leaseOwner, leaseUntil, gsi1pk, gsi1sk',
    {
      ':done': 'DONE',
      ':now': now,
      ':processed': counts.processed,
      ':accepted': counts.accepted,
      ':alreadyExisting': counts.alreadyExisting,
      ':refused': counts.refused,
      ':processing': 'PROCESSING',
    },
    '#status = :processing AND #total = :processed',
  );
  if (done) return true;
  const batch = await getBatch(db, table, batchId);
  if (batch?.status === 'PROCESSING') {
    throw new Error(`intake batch ${batchId}: ${counts.processed} results for ${batch.total} documents`);
  }
  return false;
}

export function makeIntakeBatchRepository(db: DynamoDBDocumentClient, table: string) {
  // 'status' is a reserved word.
  const updateItem = makeConditionalUpdate(db, table, NAMES);
  const update = (batchId: string, expression: string, values: Record<string, unknown>, condition: string) =>
    updateItem(keys.intakeBatch(batchId), expression, values, condition);

  const leases = makeDueRecords<RecordKey>(db, table, keys.jobLeases);
  const held = (batchId: string): HeldJob => ({
    update: (expression, values, condition) => update(batchId, expression, values, condition),
    leaseSortKey: (at) => `${at}#${keys.intakeBatch(batchId).pk}`,
    working: { condition: '#status = :processing', values: { ':processing': 'PROCESSING' } },
  });

  return {
    create: (batch: StoredIntakeBatch, message: OutgoingMessage) => createBatch(db, table, batch, message),
    get: (batchId: string) => getBatch(db, table, batchId),
    recent: (userId: string, limit: number) => recentBatches(db, table, userId, limit),

    start: (batchId: string, owner: string, now: string, until: string) =>
      startBatch(db, table, update, { batchId, owner, now, until }),

    /** Keeps the run's lease until `until`: false when the run no longer holds it (taken over, or ended). */
    renew: (batchId: string, owner: string, until: string) => renewLease(held(batchId), owner, until),

    /** Lets go of the run's lease at once (a run that failed): false when the run no longer held it. */
    release: (batchId: string, owner: string, now: string) => releaseLease(held(batchId), owner, now),

    /** Batches whose lease lapsed before `now` (their worker stopped), soonest first. */
    async lapsed(now: string, limit: number): Promise<StoredIntakeBatch[]> {
      // The partition holds every kind of long job: a batch's key is its INTAKE_BATCH# one.
      const prefix = keys.intakeBatch('').pk;
      const held = (await leases.due(new Date(now), limit)).filter((item) => item.pk.startsWith(prefix));
      const batches = await Promise.all(held.map((item) => getBatch(db, table, item.pk.slice(prefix.length))));
      return batches.filter((batch): batch is StoredIntakeBatch => batch?.status === 'PROCESSING');
    },

    /** Moves a lapsed batch's place in the sweeper's index to `until`, its lease left as it is: false if it moved. */
    postpone: (batchId: string, leaseUntil: string, until: string) => postponeLapsed(held(batchId), leaseUntil, until),

    /** The documents the zip holds, known once its central directory was read. */
    async setTotal(batchId: string, total: number): Promise<void> {
      await update(
        batchId,
        'SET #total = :total',
        { ':total': total, ':processing': 'PROCESSING' },
        '#status = :processing',
      );
    },

    recordedKeys: (batchId: string) => recordedKeys(db, table, batchId),
    record: (batch: Pick<StoredIntakeBatch, 'id' | 'createdAt'>, result: IntakeDocumentResult) =>
      recordResult(db, table, batch, result),
    addCounts: (batchId: string, outcomes: Readonly<Record<IntakeOutcome, number>>) =>
      addCounts(db, table, batchId, outcomes),
    results: (batchId: string, page: PageRequest): Promise<Page<IntakeDocumentResult>> =>
      resultsPage(db, table, batchId, page),

    finish: (batchId: string, now: string) => finishBatch(db, table, update, batchId, now),

    /** Ends the batch REFUSED (a hostile or broken zip: nothing of it stored) or FAILED (it could not go on). */
    async end(
      batchId: string,
      status: 'REFUSED' | 'FAILED',
      error: { code: string; message: string },
      now: string,
    ): Promise<boolean> {
      return update(
        batchId,
        'SET #status = :status, #error = :error, finishedAt = :now REMOVE leaseOwner, leaseUntil, gsi1pk, gsi1sk',
        { ...UNFINISHED, ':status': status, ':error': error, ':now': now },
        '#status IN (:queued, :processing)',
      );
    },
  };
}

export type IntakeBatchRepository = ReturnType<typeof makeIntakeBatchRepository>;

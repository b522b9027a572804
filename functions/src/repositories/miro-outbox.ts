import { BatchGetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TABLE, keys, type ConformityKind } from '@portal/shared';
import type { SapDocument } from '../adapters/sap.js';
import { dueSortKey, makeDueRecords, type RecordKey } from './due-records.js';
import {
  countsDelta,
  sapPostingCounts,
  sapPostingCountsWrite,
  type ConformityLine,
  type MiroOutboxRecord,
  type OutboxState,
  type RecordRef,
} from './miro-outbox-record.js';
import {
  claimUpdate,
  failedUpdate,
  postedUpdate,
  retryLaterUpdate,
  retryUpdate,
  type MoveUpdate,
} from './miro-outbox-writes.js';
import type { OutgoingMessage } from './outgoing.js';

export {
  countsDelta,
  newMiroOutboxRecord,
  sapPostingCounts,
  sapPostingCountsWrite,
  type ConformityLine,
  type MiroOutboxRecord,
  type OutboxState,
} from './miro-outbox-record.js';

type DueRecords = ReturnType<typeof makeDueRecords<MiroOutboxRecord>>;

/**
 * A record's move to `to` from one of the states `from`, with the condition `update(state)` says for that state.
 * Each try is one conditional write from one known state (the record's as read, else as found now), so the counts
 * move in the same write as the record, by what the move changes: a crash, a redelivery or a retry of the same move
 * finds the record moved and counts nothing twice. False when the record is in none of `from`, or its condition
 * fails in the state it is in.
 */
async function move(
  records: DueRecords,
  table: string,
  record: RecordRef & { readonly state?: OutboxState },
  to: OutboxState,
  from: readonly OutboxState[],
  update: (state: OutboxState) => MoveUpdate,
): Promise<boolean> {
  let state = record.state;
  for (let attempt = 1; attempt <= from.length + 1; attempt++) {
    if (state === undefined || !from.includes(state)) {
      const current = await records.get(record);
      if (!current || !from.includes(current.state)) return false;
      state = current.state;
    }
    const input = update(state);
    const write: MoveUpdate = {
      ...input,
      Key: record,
      ConditionExpression: `(${input.ConditionExpression}) AND #state = :from`,
      ExpressionAttributeNames: { ...input.ExpressionAttributeNames, '#state': 'state' },
      ExpressionAttributeValues: { ...input.ExpressionAttributeValues, ':from': state },
    };
    const delta = countsDelta(state, to);
    const moved =
      Object.keys(delta).length === 0
        ? await records.updateIf(write)
        : await records.updateWith(write, [sapPostingCountsWrite(table, record.client, delta)]);
    if (moved) return true;
    const current = await records.get(record);
    // Its condition failed in the state it is in (a lease held, a backoff not over): not a race, the answer.
    if (!current || current.state === state) return false;
    state = current.state;
  }
  return false;
}

/** The records of one byClientSupplier partition (sorted before `before`, if given), counted page after page. */
export async function countIndexed(
  db: DynamoDBDocumentClient,
  table: string,
  pk: string,
  before: string | null,
): Promise<number> {
  const index = TABLE.indexes.byClientSupplier;
  let total = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: table,
        IndexName: index.name,
        KeyConditionExpression: before ? '#pk = :pk AND #sk < :before' : '#pk = :pk',
        ExpressionAttributeNames: { '#pk': index.partitionKey, ...(before ? { '#sk': index.sortKey } : {}) },
        ExpressionAttributeValues: { ':pk': pk, ...(before ? { ':before': before } : {}) },
        Select: 'COUNT',
        ExclusiveStartKey: start,
      }),
    );
    total += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return total;
}

/** The HES and MIGO of an acquirer with these ids, as the MIRO lines need them. */
export async function conformityLines(
  db: DynamoDBDocumentClient,
  table: string,
  acquirer: string,
  refs: readonly { kind: ConformityKind; documentId: string }[],
): Promise<ConformityLine[]> {
  if (refs.length === 0) return [];
  const result = await db.send(
    new BatchGetCommand({
      RequestItems: {
        [table]: { Keys: refs.map((ref) => keys.conformity(ref.kind, acquirer, ref.documentId)), ConsistentRead: true },
      },
    }),
  );
  if (Object.keys(result.UnprocessedKeys ?? {}).length > 0) throw new Error('conformity documents not all read');
  return (result.Responses?.[table] ?? []).map((item) => ({
    kind: item.kind as ConformityKind,
    documentId: String(item.documentId),
    purchaseOrder: String(item.purchaseOrder),
    fiscalYear: String(item.fiscalYear),
    amount: Number(item.amount),
  }));
}

type Moving = RecordRef & { readonly state?: OutboxState };

/** The MIRO outbox records and the conformity documents the MIRO worker reads. */
export function makeMiroOutbox(db: DynamoDBDocumentClient, table: string) {
  const records = makeDueRecords<MiroOutboxRecord>(db, table, keys.miroDue);
  const { get, due, updateIf, commitWithMessage } = records;

  return {
    get,

    /**
     * The approval's change of the company's counts, beside the record it creates (newMiroOutboxRecord): the store
     * merges it into its update of the same counters item.
     */
    approvalCount: (client: string) => sapPostingCounts(client, countsDelta(null, 'PENDING')),

    /**
     * Takes the record for one posting attempt (claimUpdate). False when another delivery holds it, it waits for
     * its backoff, or it is POSTED.
     */
    claim: (record: Moving, lease: { owner: string; now: Date; until: Date }): Promise<boolean> =>
      move(records, table, record, 'POSTING', ['PENDING', 'FAILED', 'POSTING'], (state) =>
        claimUpdate(record, lease, state),
      ),

    /** After an attempt that failed while its worker lived on: PENDING again, next attempt at `nextAttemptAt`. */
    retryLater: (record: RecordKey, owner: string, error: string, nextAttemptAt: Date): Promise<boolean> =>
      updateIf(retryLaterUpdate(record, owner, error, nextAttemptAt)),

    /**
     * POSTED with SAP's document, no longer counted as open; it stays due at `notifyBy` until the people
     * concerned are told (markNotified), so the sweeper tells them if the worker dies first. False if it
     * already was POSTED (SAP answered the same document to both).
     */
    markPosted: (key: Moving, document: SapDocument, at: string, notifyBy?: Date): Promise<boolean> =>
      move(records, table, key, 'POSTED', ['PENDING', 'POSTING', 'FAILED'], () =>
        postedUpdate(key, document, at, notifyBy),
      ),

    /** A FAILED posting's invoice shows the failure and the company was told: out of the due index. */
    async markFailureNotified(key: RecordKey, at: string): Promise<void> {
      await updateIf({
        Key: key,
        UpdateExpression: 'SET failureNotifiedAt = :at REMOVE gsi1pk, gsi1sk',
        ConditionExpression: '#state = :failed',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':at': at, ':failed': 'FAILED' },
      });
    },

    /** The people concerned were told: out of every index, nothing left to do. */
    async markNotified(key: RecordKey, at: string): Promise<void> {
      await updateIf({
        Key: key,
        UpdateExpression: 'SET notifiedAt = :at REMOVE gsi1pk, gsi1sk',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':at': at },
      });
    },

    /**
     * FAILED after the last attempt, with the reason, counted as failed. Only from an open state (`owner`:
     * only while that delivery holds the lease), never over POSTED. It stays due a minute later until the
     * invoice shows the failure and the company is told (markFailureNotified), so the sweeper finishes
     * that if the worker dies first.
     */
    markFailed: (record: Moving, error: string, at: string, owner?: string): Promise<boolean> =>
      move(records, table, record, 'FAILED', owner ? ['POSTING'] : ['PENDING', 'POSTING'], () =>
        failedUpdate(record, error, at, owner),
      ),

    /** Open records due before `now` (PENDING past their time, POSTING past their lease), oldest first. */
    due,

    /** Looked at by the sweeper: not again before `until`, unless the record moved meanwhile (false). */
    postpone: (record: MiroOutboxRecord, until: Date): Promise<boolean> =>
      updateIf({
        Key: record,
        UpdateExpression: 'SET gsi1sk = :next',
        ConditionExpression: 'gsi1sk = :seen AND #state = :state',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':next': dueSortKey(record, until.toISOString()),
          ':seen': record.gsi1sk ?? null,
          ':state': record.state,
        },
      }),

    /**
     * An administrator's retry: FAILED → PENDING for a new round of attempts, with the queue message that
     * starts it committed in the same transaction (outgoing.ts). False when it is not FAILED (any more):
     * another administrator's retry got there first, or it was never FAILED.
     */
    retry: (record: RecordRef, by: string, now: Date, graceMs: number, message: OutgoingMessage): Promise<boolean> =>
      commitWithMessage({ Update: retryUpdate(record, by, now, graceMs, message) }, message, [
        sapPostingCountsWrite(table, record.client, countsDelta('FAILED', 'PENDING')),
      ]),

    /** How many of a company's postings are open since before `lateBefore` (a Query COUNT). */
    countLate: (client: string, lateBefore: Date) =>
      countIndexed(db, table, keys.miroOpen(client), lateBefore.toISOString()),

    /**
     * How many of a company's postings are open since before `lateBefore`, and how many FAILED, counted on the index
     * (two Query COUNTs): for a company whose counts are not known to be exact.
     */
    async countLateAndFailed(client: string, lateBefore: Date): Promise<{ late: number; failed: number }> {
      const [late, failed] = await Promise.all([
        countIndexed(db, table, keys.miroOpen(client), lateBefore.toISOString()),
        countIndexed(db, table, keys.miroFailed(client), null),
      ]);
      return { late, failed };
    },

    conformityLines: (acquirer: string, refs: readonly { kind: ConformityKind; documentId: string }[]) =>
      conformityLines(db, table, acquirer, refs),
  };
}

export type MiroOutbox = ReturnType<typeof makeMiroOutbox>;

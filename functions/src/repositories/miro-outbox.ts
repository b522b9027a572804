import { BatchGetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  TABLE,
  keys,
  miroOutboxKey,
  toInvoiceParams,
  sapPostingCountsDelta,
  sapPostingCountsKey,
  type ConformityKind,
  type CounterDelta,
  type InvoiceRef,
  type InvoiceRefParams,
} from '@portal/shared';
import type { SapDocument } from '../adapters/sap.js';
import { traceContextNow } from '../observability/telemetry.js';
import { dueSortKey, makeDueRecords, type RecordKey, type UpdateInput } from './due-records.js';
import { counterUpdate } from './invoice-counters.js';
import type { OutgoingMessage } from './outgoing.js';
import type { TransactItem } from './transaction.js';

/**
 * PENDING (written with the approval) → POSTING (one delivery holds a lease while it calls SAP) →
 * POSTED (SAP's document stored). A failed attempt goes back to PENDING with the time of the next one
 * (exponential backoff); after the last attempt it is FAILED with the reason. An administrator's retry
 * takes FAILED back to PENDING. Open records (PENDING, POSTING) sit in the byClient index under
 * `MIRO#DUE`, sorted by when the sweeper should look at them (docs/data-design.md, "MIRO outbox").
 */
export type OutboxState = 'PENDING' | 'POSTING' | 'POSTED' | 'FAILED';

export interface MiroOutboxRecord extends InvoiceRefParams {
  readonly pk: string;
  readonly sk: string;
  readonly state: OutboxState;
  readonly idempotencyKey: string;
  readonly client: string;
  readonly createdAt: string;
  readonly attempts?: number;
  /** PENDING: no attempt before this time (absent: at once). */
  readonly nextAttemptAt?: string | null;
  readonly postingUntil?: string | null;
  readonly leaseOwner?: string | null;
  readonly sapDocument?: SapDocument | null;
  readonly postedAt?: string | null;
  readonly notifiedAt?: string | null;
  readonly lastError?: string | null;
  readonly failedAt?: string | null;
  /** FAILED: the invoice shows it and MIRO_FAILED was sent. */
  readonly failureNotifiedAt?: string | null;
  /** When an administrator last asked for a new round of attempts. */
  readonly retriedAt?: string | null;
  /** The byClient sort key: `{dueAt}#{pk}` while open. */
  readonly gsi1sk?: string | null;
  /**
   * The W3C trace context of the request that asked for the posting (the approval, or an administrator's retry):
   * the sweeper's re-send continues that trace.
   */
  readonly traceparent?: string | null;
  readonly tracestate?: string | null;
}

/**
 * What the approval writes: PENDING, due for the sweeper `graceMs` after now (its message is on its way), with the
 * approval's trace context.
 */
export function newMiroOutboxRecord(
  invoice: InvoiceRef & { readonly client: string },
  requestedBy: string,
  now: Date,
  graceMs: number,
): MiroOutboxRecord & Record<string, unknown> {
  const key = miroOutboxKey(invoice);
  const createdAt = now.toISOString();
  return {
    ...key,
    state: 'PENDING',
    idempotencyKey: key.pk,
    ...toInvoiceParams(invoice),
    client: invoice.client,
    requestedBy,
    createdAt,
    attempts: 0,
    ...traceContextNow(),
    ...keys.miroIndexes(
      { ...key, client: invoice.client, createdAt },
      'PENDING',
      new Date(now.getTime() + graceMs).toISOString(),
    ),
  };
}

/** What a record counts as on its company's SAP posting counts (shared/src/data/sap-posting-counts.ts). */
type Tally = 'open' | 'failed' | null;

function tallyOf(state: OutboxState): Tally {
  if (state === 'PENDING' || state === 'POSTING') return 'open';
  return state === 'FAILED' ? 'failed' : null;
}

/** How a move from one state to another changes the counts: `{ open: ±1, failed: ±1 }`, empty when it does not. */
export function countsDelta(from: OutboxState | null, to: OutboxState | null): { open?: number; failed?: number } {
  const before = from ? tallyOf(from) : null;
  const after = to ? tallyOf(to) : null;
  if (before === after) return {};
  return { ...(before ? { [before]: -1 } : {}), ...(after ? { [after]: 1 } : {}) };
}

/** A move's change of the company's SAP posting counts, on its all-time dashboard counters (ADR 0043). */
export function sapPostingCounts(client: string, delta: { open?: number; failed?: number }): CounterDelta {
  return { key: sapPostingCountsKey(client), delta: sapPostingCountsDelta(delta) };
}

/**
 * The update of a company's SAP posting counts by `delta`, for the transaction that moves the record (DynamoDB
 * document-client shape, as invoice-store.ts writes them). ADD creates the attributes at the first move.
 */
export function sapPostingCountsWrite(
  table: string,
  client: string,
  delta: { open?: number; failed?: number },
): TransactItem {
  return counterUpdate(table, sapPostingCounts(client, delta));
}

/** What SAP's MIRO line needs of an HES or MIGO. */
export interface ConformityLine {
  readonly kind: ConformityKind;
  readonly documentId: string;
  readonly purchaseOrder: string;
  readonly fiscalYear: string;
  readonly amount: number;
}

/** What a MIRO record needs to move between indexes. */
type RecordRef = RecordKey & { client: string; createdAt: string; retriedAt?: string | null };

/** The time a record counts as requested: the approval, or an administrator's retry. */
const requestedAt = (record: RecordRef) => record.retriedAt ?? record.createdAt;

/** The MIRO outbox records and the conformity documents the MIRO worker reads. */
export function makeMiroOutbox(db: DynamoDBDocumentClient, table: string) {
  const { get, due, updateIf, updateWith, commitWithMessage } = makeDueRecords<MiroOutboxRecord>(
    db,
    table,
    keys.miroDue,
  );

  /**
   * A record's move to `to` from one of the states `from`, with the condition `update(state)` says for that state.
   * Each try is one conditional write from one known state (the record's as read, else as found now), so the counts
   * move in the same write as the record, by what the move changes: a crash, a redelivery or a retry of the same move
   * finds the record moved and counts nothing twice. False when the record is in none of `from`, or its condition
   * fails in the state it is in.
   */
  async function move(
    record: RecordRef & { readonly state?: OutboxState },
    to: OutboxState,
    from: readonly OutboxState[],
    update: (state: OutboxState) => UpdateInput & { UpdateExpression: string },
  ): Promise<boolean> {
    let state = record.state;
    for (let attempt = 1; attempt <= from.length + 1; attempt++) {
      if (state === undefined || !from.includes(state)) {
        const current = await get(record);
        if (!current || !from.includes(current.state)) return false;
        state = current.state;
      }
      const input = update(state);
      const write: UpdateInput & { UpdateExpression: string } = {
        ...input,
        Key: record,
        ConditionExpression: `(${input.ConditionExpression}) AND #state = :from`,
        ExpressionAttributeNames: { ...input.ExpressionAttributeNames, '#state': 'state' },
        ExpressionAttributeValues: { ...input.ExpressionAttributeValues, ':from': state },
      };
      const delta = countsDelta(state, to);
      const moved =
        Object.keys(delta).length === 0
          ? await updateIf(write)
          : await updateWith(write, [sapPostingCountsWrite(table, record.client, delta)]);
      if (moved) return true;
      const current = await get(record);
      // Its condition failed in the state it is in (a lease held, a backoff not over): not a race, the answer.
      if (!current || current.state === state) return false;
      state = current.state;
    }
    return false;
  }

  /** The records of one byClientSupplier partition (sorted before `before`, if given), counted page after page. */
  async function countIndexed(pk: string, before: string | null): Promise<number> {
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

  return {
    get,

    /**
     * The approval's change of the company's counts, beside the record it creates (newMiroOutboxRecord): the store
     * merges it into its update of the same counters item.
     */
    approvalCount: (client: string) => sapPostingCounts(client, countsDelta(null, 'PENDING')),

    /**
     * Takes the record for one posting attempt: from PENDING once its next attempt is due, from FAILED
     * (a message an operator redrove), or from POSTING whose lease ran out (its worker died). False when
     * another delivery holds it, it waits for its backoff, or it is POSTED.
     */
    async claim(
      record: RecordRef & { readonly state?: OutboxState },
      lease: { owner: string; now: Date; until: Date },
    ): Promise<boolean> {
      const until = lease.until.toISOString();
      const now = lease.now.toISOString();
      return move(record, 'POSTING', ['PENDING', 'FAILED', 'POSTING'], (state) => ({
        Key: record,
        UpdateExpression:
          'SET #state = :posting, postingUntil = :until, leaseOwner = :owner, lastAttemptAt = :now, gsi1pk = :due, gsi1sk = :dueSk, gsi3pk = :open, gsi3sk = if_not_exists(gsi3sk, :openSk) ADD attempts :one',
        ConditionExpression:
          state === 'PENDING'
            ? 'attribute_not_exists(nextAttemptAt) OR nextAttemptAt = :null OR nextAttemptAt <= :now'
            : state === 'POSTING'
              ? 'postingUntil < :now'
              : 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':posting': 'POSTING',
          ':until': until,
          ':now': now,
          ':owner': lease.owner,
          ':one': 1,
          ...(state === 'PENDING' ? { ':null': null } : {}),
          ':due': keys.miroDue,
          ':dueSk': dueSortKey(record, until),
          ':open': keys.miroOpen(record.client),
          ':openSk': `${requestedAt(record)}#${record.pk}`,
        },
      }));
    },

    /** After an attempt that failed while its worker lived on: PENDING again, next attempt at `nextAttemptAt`. */
    async retryLater(record: RecordKey, owner: string, error: string, nextAttemptAt: Date): Promise<boolean> {
      const at = nextAttemptAt.toISOString();
      return updateIf({
        Key: record,
        UpdateExpression:
          'SET #state = :pending, postingUntil = :none, leaseOwner = :none, lastError = :error, nextAttemptAt = :at, gsi1sk = :dueSk',
        ConditionExpression: '#state = :posting AND leaseOwner = :owner',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':pending': 'PENDING',
          ':posting': 'POSTING',
          ':owner': owner,
          ':none': null,
          ':error': error,
          ':at': at,
          ':dueSk': dueSortKey(record, at),
        },
      });
    },

    /**
     * POSTED with SAP's document, no longer counted as open; it stays due at `notifyBy` until the people
     * concerned are told (markNotified), so the sweeper tells them if the worker dies first. False if it
     * already was POSTED (SAP answered the same document to both).
     */
    async markPosted(
      key: RecordRef & { readonly state?: OutboxState },
      document: SapDocument,
      at: string,
      notifyBy?: Date,
    ): Promise<boolean> {
      const due = dueSortKey(key, (notifyBy ?? new Date(Date.parse(at) + 60_000)).toISOString());
      return move(key, 'POSTED', ['PENDING', 'POSTING', 'FAILED'], () => ({
        Key: key,
        UpdateExpression:
          'SET #state = :posted, sapDocument = :document, postedAt = :at, postingUntil = :none, leaseOwner = :none, lastError = :none, nextAttemptAt = :none, gsi1pk = :due, gsi1sk = :dueSk REMOVE gsi3pk, gsi3sk',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':posted': 'POSTED',
          ':document': document,
          ':at': at,
          ':none': null,
          ':due': keys.miroDue,
          ':dueSk': due,
        },
      }));
    },

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
    async markFailed(
      record: RecordRef & { readonly state?: OutboxState },
      error: string,
      at: string,
      owner?: string,
    ): Promise<boolean> {
      return move(record, 'FAILED', owner ? ['POSTING'] : ['PENDING', 'POSTING'], () => ({
        Key: record,
        UpdateExpression:
          'SET #state = :failed, lastError = :error, failedAt = :at, postingUntil = :none, leaseOwner = :none, nextAttemptAt = :none, failureNotifiedAt = :none, gsi3pk = :failedPk, gsi3sk = :failedSk, gsi1pk = :due, gsi1sk = :dueSk',
        ConditionExpression: owner ? 'leaseOwner = :owner' : 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':failed': 'FAILED',
          ':error': error,
          ':at': at,
          ':none': null,
          ':failedPk': keys.miroFailed(record.client),
          ':failedSk': `${requestedAt(record)}#${record.pk}`,
          ':due': keys.miroDue,
          ':dueSk': dueSortKey(record, new Date(Date.parse(at) + 60_000).toISOString()),
          ...(owner ? { ':owner': owner } : {}),
        },
      }));
    },

    /** Open records due before `now` (PENDING past their time, POSTING past their lease), oldest first. */
    due,

    /** Looked at by the sweeper: not again before `until`, unless the record moved meanwhile (false). */
    async postpone(record: MiroOutboxRecord, until: Date): Promise<boolean> {
      return updateIf({
        Key: record,
        UpdateExpression: 'SET gsi1sk = :next',
        ConditionExpression: 'gsi1sk = :seen AND #state = :state',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':next': dueSortKey(record, until.toISOString()),
          ':seen': record.gsi1sk ?? null,
          ':state': record.state,
        },
      });
    },

    /**
     * An administrator's retry: FAILED → PENDING for a new round of attempts, with the queue message that
     * starts it committed in the same transaction (outgoing.ts). False when it is not FAILED (any more):
     * another administrator's retry got there first, or it was never FAILED.
     */
    async retry(record: RecordRef, by: string, now: Date, graceMs: number, message: OutgoingMessage): Promise<boolean> {
      const at = now.toISOString();
      return commitWithMessage(
        {
          Update: {
            Key: { pk: record.pk, sk: record.sk },
            // The retry's trace (its message's) replaces the approval's: the sweeper's re-sends continue it.
            UpdateExpression:
              'SET #state = :pending, attempts = :zero, nextAttemptAt = :none, retriedAt = :at, retriedBy = :by, gsi1pk = :due, gsi1sk = :dueSk, gsi3pk = :open, gsi3sk = :openSk, traceparent = :traceparent, tracestate = :tracestate',
            ConditionExpression: '#state = :failed',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: {
              ':pending': 'PENDING',
              ':failed': 'FAILED',
              ':zero': 0,
              ':none': null,
              ':at': at,
              ':by': by,
              ':due': keys.miroDue,
              ':dueSk': dueSortKey(record, new Date(now.getTime() + graceMs).toISOString()),
              ':open': keys.miroOpen(record.client),
              ':openSk': `${at}#${record.pk}`,
              ':traceparent': message.trace.traceparent ?? null,
              ':tracestate': message.trace.tracestate ?? null,
            },
          },
        },
        message,
        [sapPostingCountsWrite(table, record.client, countsDelta('FAILED', 'PENDING'))],
      );
    },

    /** How many of a company's postings are open since before `lateBefore` (a Query COUNT). */
    countLate: (client: string, lateBefore: Date) => countIndexed(keys.miroOpen(client), lateBefore.toISOString()),

    /**
     * How many of a company's postings are open since before `lateBefore`, and how many FAILED, counted on the index
     * (two Query COUNTs): for a company whose counts are not known to be exact.
     */
    async countLateAndFailed(client: string, lateBefore: Date): Promise<{ late: number; failed: number }> {
      const [late, failed] = await Promise.all([
        countIndexed(keys.miroOpen(client), lateBefore.toISOString()),
        countIndexed(keys.miroFailed(client), null),
      ]);
      return { late, failed };
    },

    /** The HES and MIGO of an acquirer with these ids, as the MIRO lines need them. */
    async conformityLines(
      acquirer: string,
      refs: readonly { kind: ConformityKind; documentId: string }[],
    ): Promise<ConformityLine[]> {
      if (refs.length === 0) return [];
      const result = await db.send(
        new BatchGetCommand({
          RequestItems: {
            [table]: {
              Keys: refs.map((ref) => keys.conformity(ref.kind, acquirer, ref.documentId)),
              ConsistentRead: true,
            },
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
    },
  };
}

export type MiroOutbox = ReturnType<typeof makeMiroOutbox>;

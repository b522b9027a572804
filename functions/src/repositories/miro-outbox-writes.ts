import { keys } from '@portal/shared';
import type { SapDocument } from '../adapters/sap.js';
import { dueSortKey, type RecordKey, type UpdateInput } from './due-records.js';
import { requestedAt, type OutboxState, type RecordRef } from './miro-outbox-record.js';
import type { OutgoingMessage } from './outgoing.js';

/** A record's update without its `#state = :from` guard (miro-outbox.ts adds it for the state it moves from). */
export type MoveUpdate = UpdateInput & { UpdateExpression: string };

/**
 * Takes the record for one posting attempt, from `state`: from PENDING once its next attempt is due, from FAILED
 * (a message an operator redrove), or from POSTING whose lease ran out (its worker died).
 */
export function claimUpdate(
  record: RecordRef,
  lease: { owner: string; now: Date; until: Date },
  state: OutboxState,
): MoveUpdate {
  const until = lease.until.toISOString();
  const now = lease.now.toISOString();
  return {
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
  };
}

/** After an attempt that failed while its worker lived on: PENDING again, next attempt at `nextAttemptAt`. */
export function retryLaterUpdate(record: RecordKey, owner: string, error: string, nextAttemptAt: Date): UpdateInput {
  const at = nextAttemptAt.toISOString();
  return {
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
  };
}

/** POSTED with SAP's document, out of the open count, due at `notifyBy` until the people concerned are told. */
export function postedUpdate(key: RecordRef, document: SapDocument, at: string, notifyBy?: Date): MoveUpdate {
  const due = dueSortKey(key, (notifyBy ?? new Date(Date.parse(at) + 60_000)).toISOString());
  return {
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
  };
}

/** FAILED with the reason, counted as failed, due a minute later until the failure is shown and told. */
export function failedUpdate(record: RecordRef, error: string, at: string, owner?: string): MoveUpdate {
  return {
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
  };
}

/** An administrator's retry: FAILED → PENDING for a new round of attempts, continuing the retry's trace. */
export function retryUpdate(
  record: RecordRef,
  by: string,
  now: Date,
  graceMs: number,
  message: OutgoingMessage,
): UpdateInput & { UpdateExpression: string } {
  const at = now.toISOString();
  return {
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
  };
}

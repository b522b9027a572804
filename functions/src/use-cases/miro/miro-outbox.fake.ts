import type { MiroOutboxRecord } from '../../repositories/miro-outbox.js';

/**
 * The condition the MIRO outbox's claim writes under (repositories/miro-outbox.ts), for the unit tests' in-memory
 * outboxes: a PENDING record once its next attempt is due, a FAILED one (an administrator's retry), or a POSTING one
 * whose lease lapsed before `at`.
 */
export function claimableAt(record: MiroOutboxRecord, at: string): boolean {
  return (
    (record.state === 'PENDING' && (record.nextAttemptAt ?? '') <= at) ||
    record.state === 'FAILED' ||
    (record.state === 'POSTING' && (record.postingUntil ?? '') < at)
  );
}

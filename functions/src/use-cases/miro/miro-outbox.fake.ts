import type { MiroOutbox, MiroOutboxRecord } from '../../repositories/miro-outbox.js';

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

/**
 * What the unit tests' in-memory outboxes answer beyond the record they keep: no counts, no approval, and the one
 * HES (H1, S/ 100.00 of order 4500000001) their invoice names.
 */
export const ONE_HES_OUTBOX: Pick<
  MiroOutbox,
  'countLateAndFailed' | 'countLate' | 'approvalCount' | 'conformityLines'
> = {
  countLateAndFailed: async () => ({ late: 0, failed: 0 }),
  countLate: async () => 0,
  approvalCount: () => {
    throw new Error('no approval here');
  },
  conformityLines: async () => [
    { kind: 'SERVICE_SHEET', documentId: 'H1', purchaseOrder: '4500000001', fiscalYear: '2026', amount: 100 },
  ],
};

import * as z from 'zod/mini';
import { INVOICE_ERROR_MESSAGES } from '../errors/catalogue.js';
import { IsoDateTime } from './common.js';

/**
 * How an approved invoice's MIRO posting is driven to an end (docs/data-design.md, "MIRO outbox"):
 * the approval's message is sent at once; a failed attempt is tried again after `retryBaseSeconds`,
 * doubling each time, up to `maxAttempts` attempts, then the posting is FAILED with its reason; the
 * sweeper sends again what is still PENDING `graceSeconds` after it was due or POSTING past its lease.
 * A posting not done `lateAfterSeconds` after the approval is late, and shown as such at once.
 */
export const MIRO_POSTING = {
  maxAttempts: 5,
  retryBaseSeconds: 30,
  /** A message just sent may still be on its way: the sweeper waits this long before sending it again. */
  graceSeconds: 60,
  lateAfterSeconds: 120,
  /** Overrides retryBaseSeconds and graceSeconds (the local stage: a test should not wait minutes). */
  timeScaleEnv: 'MIRO_RETRY_BASE_SECONDS',
} as const;

/** Seconds to wait after failed attempt number `attempt` (1-based): base, 2·base, 4·base, … */
export function miroBackoffSeconds(attempt: number, baseSeconds: number = MIRO_POSTING.retryBaseSeconds): number {
  return baseSeconds * 2 ** Math.max(0, attempt - 1);
}

export const SAP_POSTING_STATES = ['QUEUED', 'SENDING', 'RETRYING', 'LATE', 'FAILED', 'POSTED'] as const;
export type SapPostingState = (typeof SAP_POSTING_STATES)[number];

/** The SAP posting of an approved invoice as its detail shows it. */
export const SapPosting = z.object({
  /** QUEUED (en cola), SENDING (enviando), RETRYING (reintentando), LATE (atrasado), FAILED, POSTED. */
  state: z.enum(SAP_POSTING_STATES),
  /** Not posted `lateAfterSeconds` after the approval (also while RETRYING). */
  late: z.boolean(),
  attempts: z.int(),
  maxAttempts: z.int(),
  requestedAt: IsoDateTime,
  /** When the next attempt is due (RETRYING). */
  nextAttemptAt: z.nullable(IsoDateTime),
  /** Why the last attempt failed (RETRYING, FAILED), as SAP or the connection said it. */
  reason: z.nullable(z.string()),
  document: z.nullable(z.object({ number: z.string(), fiscalYear: z.string() })),
});
export type SapPosting = z.infer<typeof SapPosting>;

/** The stored MIRO outbox record, as far as the view needs it. */
export interface MiroRecordView {
  readonly state: 'PENDING' | 'POSTING' | 'POSTED' | 'FAILED';
  readonly createdAt?: string | null;
  /** An administrator's retry: the posting counts as requested again from then. */
  readonly retriedAt?: string | null;
  readonly attempts?: number | null;
  readonly nextAttemptAt?: string | null;
  readonly postingUntil?: string | null;
  readonly lastError?: string | null;
  readonly sapDocument?: { number: string; fiscalYear: string } | null;
}

/** What a person is shown of a MIRO record at `now`. */
export function sapPostingView(record: MiroRecordView, now: Date): SapPosting {
  const attempts = record.attempts ?? 0;
  const requestedAt = record.retriedAt ?? record.createdAt ?? new Date(0).toISOString();
  const open = record.state === 'PENDING' || record.state === 'POSTING';
  const late = open && now.getTime() - Date.parse(requestedAt) > MIRO_POSTING.lateAfterSeconds * 1000;
  const leaseLost = record.state === 'POSTING' && (record.postingUntil ?? '') < now.toISOString();
  let state: SapPostingState;
  if (record.state === 'POSTED') state = 'POSTED';
  else if (record.state === 'FAILED') state = 'FAILED';
  else if (record.state === 'POSTING' && !leaseLost && !late) state = 'SENDING';
  else if (record.state === 'PENDING' && attempts > 0) state = 'RETRYING';
  else state = late || leaseLost ? 'LATE' : 'QUEUED';
  return {
    state,
    late,
    attempts,
    maxAttempts: MIRO_POSTING.maxAttempts,
    requestedAt,
    nextAttemptAt: state === 'RETRYING' ? (record.nextAttemptAt ?? null) : null,
    reason: state === 'RETRYING' || state === 'FAILED' ? (record.lastError ?? null) : null,
    document: record.state === 'POSTED' ? (record.sapDocument ?? null) : null,
  };
}

/**
 * What the invoices list marks on an approved invoice's row without reading its MIRO record: FAILED when
 * the MIRO worker left its failure message, LATE when not posted `lateAfterSeconds` after the approval.
 */
export function sapPostingMark(
  invoice: {
    readonly status: string;
    readonly approved: boolean;
    readonly statusMessage: string | null;
    readonly sapDocument?: { number: string } | null;
    readonly approvedAt?: string | null;
  },
  now: Date,
): 'FAILED' | 'LATE' | null {
  if (invoice.status !== 'ACCEPTED' || !invoice.approved || invoice.sapDocument) return null;
  if (invoice.statusMessage === INVOICE_ERROR_MESSAGES.ERROR_UNEXPECTED_EXCEPTION_DURING_MIRO_CREATION_REQUEST_SUBMIT)
    return 'FAILED';
  if (!invoice.approvedAt) return null;
  return now.getTime() - Date.parse(invoice.approvedAt) > MIRO_POSTING.lateAfterSeconds * 1000 ? 'LATE' : null;
}

/**
 * The invoice beside its MIRO record as read a moment later. The worker stores SAP's document on the invoice (and
 * clears the failure message) before it marks the record POSTED, so a POSTED record read after an invoice that lacks
 * them means the invoice was read just before that write: shown as it is by then, not POSTED beside the failure.
 */
export function withPostedDocument<
  T extends {
    readonly statusMessage: string | null;
    readonly sapDocument?: { number: string; fiscalYear: string } | null;
  },
>(invoice: T, record: MiroRecordView | null | undefined): T {
  if (record?.state !== 'POSTED' || !record.sapDocument) return invoice;
  const failed =
    invoice.statusMessage === INVOICE_ERROR_MESSAGES.ERROR_UNEXPECTED_EXCEPTION_DURING_MIRO_CREATION_REQUEST_SUBMIT;
  if (invoice.sapDocument && !failed) return invoice;
  return {
    ...invoice,
    sapDocument: invoice.sapDocument ?? record.sapDocument,
    statusMessage: failed ? null : invoice.statusMessage,
  };
}

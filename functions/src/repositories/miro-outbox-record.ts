import {
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
import type { RecordKey } from './due-records.js';
import { counterUpdate } from './invoice-counters.js';
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
export type RecordRef = RecordKey & { client: string; createdAt: string; retriedAt?: string | null };

/** The time a record counts as requested: the approval, or an administrator's retry. */
export const requestedAt = (record: RecordRef) => record.retriedAt ?? record.createdAt;

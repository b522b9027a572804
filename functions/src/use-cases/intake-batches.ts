import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  type CreateIntakeBatchBody,
  type IntakeBatch,
  type IntakeBatchList,
  type IntakeBatchMessage,
  type IntakeBatchSummary,
} from '@portal/shared';
import type { Caller } from '../http/caller.js';
import { callerSnapshot } from '../repositories/caller-snapshot.js';
import type { IntakeBatchRepository, StoredIntakeBatch } from '../repositories/intake-batches.js';
import { outgoingMessage, type Outgoing } from '../repositories/outgoing.js';
import type { PageRequest } from '../repositories/page.js';
import type { VerifiedUpload } from './uploads/uploads-deps.js';

/**
 * 'Cargar ZIP' (docs/intake-channels.md#zip), the API's side: a zip uploaded for INVOICE_ZIP is checked
 * as every upload is (its tenant, type, size and first bytes: 'PK\x03\x04'), and the batch is committed with its
 * queue message; the intake-batches worker opens the zip (intake-batch-runner.ts). A batch is its uploader's: only
 * they (and administrators) read it.
 */

/** Batches one user may have queued or processing at once; one older than STALE_AFTER_MS no longer counts. */
export const MAX_RUNNING_BATCHES = 3;
const STALE_AFTER_MS = 2 * 60 * 60 * 1000;
/** How many batches the list of recent ones shows. */
export const RECENT_BATCHES = 20;

export interface IntakeBatchRequestDeps {
  readonly batches: Pick<IntakeBatchRepository, 'create' | 'recent'>;
  readonly verifyUpload: (key: string, purpose: 'INVOICE_ZIP', caller: Caller) => Promise<VerifiedUpload>;
  readonly outgoing: Pick<Outgoing, 'deliver'>;
  readonly clock: () => Date;
  readonly newId: () => string;
}

export interface IntakeBatchReadDeps {
  readonly batches: Pick<IntakeBatchRepository, 'get' | 'recent' | 'results'>;
}

export function summaryOf(batch: StoredIntakeBatch): IntakeBatchSummary {
  const progress =
    batch.status === 'DONE'
      ? 1
      : batch.total === null
        ? null
        : batch.total === 0
          ? 0
          : Math.min(1, batch.processed / batch.total);
  return {
    id: batch.id,
    status: batch.status,
    fileName: batch.fileName,
    company: batch.company,
    counts: {
      total: batch.total,
      processed: batch.processed,
      accepted: batch.accepted,
      alreadyExisting: batch.alreadyExisting,
      refused: batch.refused,
    },
    progress,
    error: batch.error,
    createdAt: batch.createdAt,
    finishedAt: batch.finishedAt,
    resumedAt: batch.resumedAt,
  };
}

const isRunning = (batch: StoredIntakeBatch, since: string) =>
  (batch.status === 'QUEUED' || batch.status === 'PROCESSING') && batch.createdAt >= since;

/** A batch just asked for: queued, nothing read or counted yet, never started. */
export function queuedIntakeBatch(
  fields: Pick<StoredIntakeBatch, 'id' | 'userId' | 'company' | 'fileName' | 'key' | 'uploader' | 'createdAt'>,
): StoredIntakeBatch {
  return {
    ...fields,
    status: 'QUEUED',
    total: null,
    processed: 0,
    accepted: 0,
    alreadyExisting: 0,
    refused: 0,
    error: null,
    attempts: 0,
    startedAt: null,
    finishedAt: null,
    resumedAt: null,
  };
}

/** POST /intake-batches: the uploaded zip checked, the batch and its message committed; 202 at once. */
export function makeRequestIntakeBatch(deps: IntakeBatchRequestDeps) {
  return async (caller: Caller, body: CreateIntakeBatchBody): Promise<IntakeBatchSummary> => {
    // The documents are the company's the caller acts for (the intake checks each XML's RUC against it); an
    // administrator acting for none files the zip under 'admin', as its uploads.
    const company = caller.activeCompany ?? (caller.level === 'ADMIN' ? 'admin' : null);
    if (!company) throw new ForbiddenError();
    const now = deps.clock();
    const since = new Date(now.getTime() - STALE_AFTER_MS).toISOString();
    const running = (await deps.batches.recent(caller.sub, RECENT_BATCHES)).filter((batch) => isRunning(batch, since));
    if (running.length >= MAX_RUNNING_BATCHES) {
      throw new ConflictError('ERROR_TOO_MANY_INTAKE_BATCHES', { limit: MAX_RUNNING_BATCHES });
    }
    const upload = await deps.verifyUpload(body.url, 'INVOICE_ZIP', caller);

    const id = deps.newId();
    const batch = queuedIntakeBatch({
      id,
      userId: caller.sub,
      company,
      fileName: upload.fileName,
      key: upload.key,
      uploader: callerSnapshot(caller),
      createdAt: now.toISOString(),
    });
    const message = outgoingMessage('intakeBatches', { batchId: id } satisfies IntakeBatchMessage, now);
    await deps.batches.create(batch, message);
    await deps.outgoing.deliver([message]);
    return summaryOf(batch);
  };
}

/** GET /intake-batches/{batchId}: a batch is read by its uploader, or an administrator, with a page of its results. */
export async function getIntakeBatch(
  deps: IntakeBatchReadDeps,
  caller: Caller,
  batchId: string,
  page: PageRequest,
): Promise<IntakeBatch> {
  const batch = await deps.batches.get(batchId);
  // Another user's batch is a missing one: its existence is not told.
  if (!batch || (batch.userId !== caller.sub && caller.level !== 'ADMIN')) {
    throw new NotFoundError('ERROR_INTAKE_BATCH_NOT_FOUND');
  }
  const results = await deps.batches.results(batchId, page);
  return { ...summaryOf(batch), results };
}

/** GET /intake-batches: the caller's recent batches. */
export async function listIntakeBatches(deps: IntakeBatchReadDeps, caller: Caller): Promise<IntakeBatchList> {
  const batches = await deps.batches.recent(caller.sub, RECENT_BATCHES);
  return { items: batches.map(summaryOf) };
}

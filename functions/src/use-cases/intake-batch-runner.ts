import { randomUUID } from 'node:crypto';
import { formatErrorMessage, type IntakeBatchMessage } from '@portal/shared';
import { ZipRefusedError, openZipDocuments, type ZipDocuments } from '../intake/zip-documents.js';
import { JOB_LEASE_MS } from '../jobs/job-leases.js';
import { batchNotice } from './intake-batch-results.js';
import { registerBatchDocuments } from './intake-batch-documents.js';
import type { FetchedZip, IntakeBatchRunnerDeps } from './intake-batch-runner-deps.js';
import { LeaseLostError, holdLease } from './lease-holder.js';

/**
 * The intake-batches worker's job for one message (docs/intake-channels.md#zip): the zip is fetched to a local file,
 * its central directory checked whole (a hostile zip is refused with nothing of it stored), then each document is
 * registered by the intake as its uploader would register it, a few at once, and its result recorded as soon as it
 * is known (the screen shows the progress). Idempotent: a redelivery skips the documents already recorded, and a
 * document whose invoice was committed but whose result was not finds its own invoice again through its sourceKey.
 * A run holds the batch's lease and renews it while it works (JOB_LEASE_MS); a run that stops (a crash) lets it
 * lapse, and the outbox sweeper hands the batch to a worker again (jobs/job-leases.ts), which resumes it.
 * `lastAttempt`: the queue will not deliver the message again, so a failure ends the batch FAILED.
 */
export async function runIntakeBatch(
  deps: IntakeBatchRunnerDeps,
  message: IntakeBatchMessage,
  lastAttempt: boolean,
): Promise<void> {
  const openZip = deps.openZip ?? openZipDocuments;
  const leaseMs = deps.leaseMs ?? JOB_LEASE_MS;
  const now = () => deps.clock().toISOString();

  const batch = await deps.batches.get(message.batchId);
  if (!batch) return;
  if (batch.status === 'DONE' || batch.status === 'REFUSED' || batch.status === 'FAILED') {
    // Ended by an earlier delivery that may have stopped before its clean-up.
    await afterEnd(deps, batch.id);
    return;
  }
  const owner = deps.runId?.() ?? randomUUID();
  const leaseUntil = new Date(deps.clock().getTime() + leaseMs).toISOString();
  const taken = await deps.batches.start(batch.id, owner, now(), leaseUntil);
  if (taken === 'ENDED') {
    await afterEnd(deps, batch.id);
    return;
  }
  // Another run holds it: nothing to do here; if that run stops, its lease lapses and the sweeper resumes it.
  if (taken === 'BUSY') return;
  const lease = holdLease((until) => deps.batches.renew(batch.id, owner, until), deps.clock, leaseMs);

  let fetched: FetchedZip | null = null;
  try {
    fetched = await deps.fetchZip(batch.key);
    if (!fetched) {
      await deps.batches.end(batch.id, 'FAILED', reasonOf('ERROR_UPLOAD_NOT_FOUND'), now());
      await afterEnd(deps, batch.id);
      return;
    }
    let documents: ZipDocuments;
    try {
      documents = await openZip(fetched.source);
    } catch (error) {
      if (!(error instanceof ZipRefusedError)) throw error;
      // A hostile or broken zip: refused whole before anything of it is stored.
      const item = error.errors[0]!;
      await deps.batches.end(batch.id, 'REFUSED', { code: item.code, message: error.message }, now());
      await afterEnd(deps, batch.id);
      return;
    }
    try {
      await deps.batches.setTotal(batch.id, documents.documentCount);
      await registerBatchDocuments(deps, batch, documents, lease.state);
    } catch (error) {
      if (error instanceof LeaseLostError) return;
      if (!(error instanceof ZipRefusedError)) throw error;
      // Poison found while reading (the zip's bytes changed under it, or a reader's check the opening missed): a
      // verdict, not a crash. The batch ends REFUSED now, frees the uploader's slot and is not delivered again.
      await deps.batches.end(batch.id, 'REFUSED', { code: error.code, message: error.message }, now());
      await afterEnd(deps, batch.id);
      return;
    } finally {
      documents.close();
    }
    await deps.batches.finish(batch.id, now());
    await afterEnd(deps, batch.id);
  } catch (error) {
    if (lastAttempt) {
      await deps.batches.end(batch.id, 'FAILED', reasonOf('ERROR_INTAKE_BATCH_FAILED'), now());
      await afterEnd(deps, batch.id);
    } else {
      // The next try need not wait for the lease to lapse.
      lease.stop();
      await deps.batches.release(batch.id, owner, now()).catch(() => undefined);
    }
    throw error;
  } finally {
    lease.stop();
    await fetched?.dispose();
  }
}

/** What follows an ended batch, each step idempotent (a redelivery after a crash repeats them harmlessly). */
async function afterEnd(deps: Pick<IntakeBatchRunnerDeps, 'batches' | 'deleteZip' | 'notify'>, batchId: string) {
  const ended = await deps.batches.get(batchId);
  if (!ended) return;
  await deps.deleteZip(ended.key);
  await deps.notify(batchNotice(ended));
}

function reasonOf(code: 'ERROR_UPLOAD_NOT_FOUND' | 'ERROR_INTAKE_BATCH_FAILED') {
  return { code, message: formatErrorMessage(code) };
}

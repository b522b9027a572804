import type { IntakeDocumentResult } from '@portal/shared';
import type { ZipDocument, ZipDocuments } from '../intake/zip-documents.js';
import { callerOfSnapshot } from '../repositories/caller-snapshot.js';
import type { StoredIntakeBatch } from '../repositories/intake-batches.js';
import { progressOf, resultOf } from './intake-batch-results.js';
import { DEFAULT_CONCURRENCY, PROGRESS_INTERVAL_MS, type IntakeBatchRunnerDeps } from './intake-batch-runner-deps.js';
import { LeaseLostError } from './lease-holder.js';

/**
 * Each document of the zip not recorded yet is registered by the intake as its uploader would register it, a few at
 * once (the deps' concurrency), and its result recorded as soon as it is known; the counters follow (progressOf).
 * The first failure stops the reading; those under way end before the run does.
 */
export async function registerBatchDocuments(
  deps: IntakeBatchRunnerDeps,
  batch: StoredIntakeBatch,
  documents: ZipDocuments,
  lease: { readonly lost: boolean },
): Promise<void> {
  const concurrency = Math.max(1, deps.concurrency ?? DEFAULT_CONCURRENCY);
  const now = () => deps.clock().toISOString();
  const recorded = await deps.batches.recordedKeys(batch.id);
  const caller = callerOfSnapshot(batch.uploader);
  const fromFiles = deps.intakeOfBatch();
  const running = new Set<Promise<void>>();
  const progress = progressOf(deps.batches, batch.id, deps.progressIntervalMs ?? PROGRESS_INTERVAL_MS);
  let failure: { error: unknown } | null = null;

  const handle = async (document: ZipDocument) => {
    let result: IntakeDocumentResult;
    if (!document.ok) {
      result = {
        base: document.base,
        files: document.names,
        outcome: 'REFUSED',
        invoice: null,
        reason: { code: document.error.code, message: document.message },
        cdrWarning: null,
        recordedAt: now(),
      };
    } else {
      const outcome = await fromFiles(caller, {
        sourceKey: `zip/${batch.id}/${document.base}`,
        channel: 'ZIP',
        xml: document.xml,
        ...(document.pdf ? { pdf: document.pdf } : {}),
        ...(document.cdr ? { cdr: document.cdr } : {}),
      });
      result = resultOf(document, outcome, deps.documentOf, now());
    }
    if (await deps.batches.record(batch, result)) await progress.add(result.outcome);
  };

  try {
    for await (const document of documents) {
      if (lease.lost) throw new LeaseLostError(`batch ${batch.id}: another run holds it now`);
      if (recorded.has(document.base.toLowerCase())) continue;
      const task: Promise<void> = handle(document).then(
        () => {
          running.delete(task);
        },
        (error: unknown) => {
          running.delete(task);
          failure ??= { error };
        },
      );
      running.add(task);
      if (running.size >= concurrency) await Promise.race(running);
      if (failure) break;
    }
  } catch (error) {
    failure ??= { error };
  } finally {
    // Breaking out of the loop closes the zip; those under way end before the run does.
    await Promise.all(running);
  }
  if (failure) {
    // What was recorded is counted even so (a batch that ends FAILED shows what it did); the failure stands.
    await progress.flush().catch(() => undefined);
    throw (failure as { error: unknown }).error;
  }
  await progress.flush();
}

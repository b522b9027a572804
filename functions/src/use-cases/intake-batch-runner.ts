import { randomUUID } from 'node:crypto';
import {
  counted,
  formatErrorMessage,
  type IntakeBatchMessage,
  type IntakeDocumentResult,
  type IntakeOutcome,
  type InvoiceType,
} from '@portal/shared';
import { ZipRefusedError, openZipDocuments, type ZipDocument, type ZipDocuments } from '../intake/zip-documents.js';
import { JOB_LEASE_MS } from '../jobs/job-leases.js';
import { callerOfSnapshot } from '../repositories/caller-snapshot.js';
import type { IntakeBatchRepository, StoredIntakeBatch } from '../repositories/intake-batches.js';
import type { Caller } from '../http/caller.js';
import type { FileIntakeOutcome, IncomingFiles } from './intake/intake-deps.js';

/**
 * The intake-batches worker's job for one message (docs/intake-channels.md#zip): the zip is fetched to a local file,
 * its central directory checked whole (a hostile zip is refused with nothing of it stored), then each document is
 * registered by the intake as its uploader would register it, a few at once, and its result recorded as soon as it
 * is known (the screen shows the progress). Idempotent: a redelivery skips the documents already recorded, and a
 * document whose invoice was committed but whose result was not finds its own invoice again through its sourceKey.
 * A run holds the batch's lease and renews it while it works (JOB_LEASE_MS); a run that stops (a crash) lets it
 * lapse, and the outbox sweeper hands the batch to a worker again (jobs/job-leases.ts), which resumes it.
 */

/** Thrown inside a run that lost its batch's lease (another run took it over): it stops without ending the batch. */
class LeaseLostError extends Error {}

/** A zip on local disk (or in memory) for the time of one run. */
export interface FetchedZip {
  readonly source: Buffer | { path: string };
  dispose(): Promise<void>;
}

/** The summary told to the uploader when a batch ends (feed and e-mail). */
export interface BatchNotice {
  readonly batch: StoredIntakeBatch;
  /** Stable per batch and outcome: a redelivery tells it once. */
  readonly id: string;
  readonly text: string;
  readonly subject: string;
}

export interface IntakeBatchRunnerDeps {
  readonly batches: Pick<
    IntakeBatchRepository,
    'get' | 'start' | 'renew' | 'release' | 'setTotal' | 'recordedKeys' | 'record' | 'addCounts' | 'finish' | 'end'
  >;
  /** The uploaded zip; null when the object is gone. */
  readonly fetchZip: (key: string) => Promise<FetchedZip | null>;
  readonly deleteZip: (key: string) => Promise<void>;
  /**
   * The intake of one run's documents that arrived as files (intake.forBatch().fromFiles): made once per run, so
   * what it reads once per batch is read again by the next delivery.
   */
  readonly intakeOfBatch: () => (caller: Caller, files: IncomingFiles) => Promise<FileIntakeOutcome>;
  /** The issuer and type read from the XML (null when unreadable): the link of a document that already existed. */
  readonly documentOf: (xml: Uint8Array) => { supplierId: string; type: InvoiceType } | null;
  readonly notify: (notice: BatchNotice) => Promise<void>;
  readonly clock: () => Date;
  /** Documents registered at once (each a few DynamoDB and S3 calls). */
  readonly concurrency?: number;
  /** How often the counters are written while documents are recorded (PROGRESS_INTERVAL_MS). */
  readonly progressIntervalMs?: number;
  readonly openZip?: typeof openZipDocuments;
  /** @default JOB_LEASE_MS */
  readonly leaseMs?: number;
  /** The run's id, its lease's owner. @default a random UUID */
  readonly runId?: () => string;
}

/**
 * Documents registered at once: each waits mostly on DynamoDB and S3 (a profile of the local stage shows the
 * process idle half the time), so more at once go faster; 16 documents' files are at most 16 × 14 MB in memory.
 */
export const DEFAULT_CONCURRENCY = 16;
/** The most documents at once a stage may configure (RUNTIME_ENV.intakeBatchConcurrency): 32 × 14 MB in memory. */
export const MAX_CONCURRENCY = 32;

/** The concurrency a stage configured (a whole number from 1 to MAX_CONCURRENCY), else DEFAULT_CONCURRENCY. */
export function concurrencyOf(value: string | undefined): number {
  const parsed = value === undefined || value.trim() === '' ? NaN : Number(value);
  return Number.isInteger(parsed) && parsed >= 1 && parsed <= MAX_CONCURRENCY ? parsed : DEFAULT_CONCURRENCY;
}

/**
 * How often the batch's counters (the progress the screen shows, which polls every few seconds) are written while
 * documents are recorded: one write for the results of this long rather than one per result (issue 25).
 */
export const PROGRESS_INTERVAL_MS = 1000;

const NO_OUTCOMES: Readonly<Record<IntakeOutcome, number>> = { ACCEPTED: 0, ALREADY_EXISTS: 0, REFUSED: 0 };

/**
 * The results recorded since the counters were last written, written at most once per interval, one write at a
 * time; `flush` writes what is left (before `finish`, which counts the results again and must come last).
 */
function progressOf(batches: IntakeBatchRunnerDeps['batches'], batchId: string, intervalMs: number) {
  let pending = { ...NO_OUTCOMES };
  let writing: Promise<void> | null = null;
  let lastWrite = 0;
  const write = () => {
    const outcomes = pending;
    pending = { ...NO_OUTCOMES };
    lastWrite = Date.now();
    writing = batches.addCounts(batchId, outcomes).finally(() => {
      writing = null;
    });
    return writing;
  };
  return {
    /** Counts a recorded result; the write it may start is awaited (a failure fails the run, as before). */
    async add(outcome: IntakeOutcome): Promise<void> {
      pending = { ...pending, [outcome]: pending[outcome] + 1 };
      if (!writing && Date.now() - lastWrite >= intervalMs) await write();
    },
    async flush(): Promise<void> {
      if (writing) await writing;
      if (Object.values(pending).some((count) => count > 0)) await write();
    },
  };
}

/** The uploader's notice of a batch that ended. */
export function batchNotice(batch: StoredIntakeBatch): BatchNotice {
  const name = `«${batch.fileName}»`;
  if (batch.status === 'DONE') {
    return {
      batch,
      id: `intake-batch-${batch.id}-done`,
      subject: `Portal de Proveedores · Carga de ZIP ${batch.fileName}`,
      text:
        `Se procesó su ZIP ${name}: ${counted(batch.accepted, { one: 'comprobante aceptado', other: 'comprobantes aceptados' })}, ` +
        `${counted(batch.alreadyExisting, { one: 'ya existía', other: 'ya existían' })} y ` +
        `${counted(batch.refused, { one: 'rechazado', other: 'rechazados' })}. Vea el detalle en Mis comprobantes › Cargas de ZIP.`,
    };
  }
  return {
    batch,
    id: `intake-batch-${batch.id}-${batch.status.toLowerCase()}`,
    subject: `Portal de Proveedores · Carga de ZIP ${batch.fileName}`,
    text: `No se procesó su ZIP ${name}: ${batch.error?.message ?? ''}`.trim(),
  };
}

function resultOf(
  document: Extract<ZipDocument, { ok: true }>,
  outcome: FileIntakeOutcome,
  documentOf: IntakeBatchRunnerDeps['documentOf'],
  now: string,
): IntakeDocumentResult {
  const files = [document.xml.name, document.pdf?.name, document.cdr?.name].filter((name) => name !== undefined);
  const common = { base: document.base, files, recordedAt: now };
  switch (outcome.outcome) {
    case 'ACCEPTED':
      return {
        ...common,
        outcome: 'ACCEPTED',
        invoice: {
          supplierId: outcome.invoice.supplierId,
          invoiceType: outcome.invoice.type,
          invoiceId: outcome.invoice.id,
        },
        reason: null,
        cdrWarning: outcome.cdrWarning,
      };
    case 'ALREADY_EXISTS': {
      const found = documentOf(document.xml.bytes);
      return {
        ...common,
        outcome: 'ALREADY_EXISTS',
        invoice: found ? { supplierId: found.supplierId, invoiceType: found.type, invoiceId: outcome.invoiceId } : null,
        reason: { code: outcome.code, message: outcome.message },
        cdrWarning: null,
      };
    }
    case 'REFUSED':
      return {
        ...common,
        outcome: 'REFUSED',
        invoice: null,
        reason: { code: outcome.code, message: outcome.message },
        cdrWarning: null,
      };
  }
}

export function makeIntakeBatchRunner(deps: IntakeBatchRunnerDeps) {
  const concurrency = Math.max(1, deps.concurrency ?? DEFAULT_CONCURRENCY);
  const openZip = deps.openZip ?? openZipDocuments;
  const now = () => deps.clock().toISOString();

  /** What follows an ended batch, each step idempotent (a redelivery after a crash repeats them harmlessly). */
  async function afterEnd(batchId: string): Promise<void> {
    const ended = await deps.batches.get(batchId);
    if (!ended) return;
    await deps.deleteZip(ended.key);
    await deps.notify(batchNotice(ended));
  }

  /**
   * Renews the run's lease every third of its length until stopped; `lost` once a renewal finds another run holds
   * it (a renewal that fails on DynamoDB is tried again at the next beat, the lease still holding meanwhile).
   */
  function holdLease(batchId: string, owner: string) {
    const leaseMs = deps.leaseMs ?? JOB_LEASE_MS;
    const state = { lost: false };
    const timer = setInterval(() => {
      const until = new Date(deps.clock().getTime() + leaseMs).toISOString();
      deps.batches.renew(batchId, owner, until).then(
        (held) => {
          if (!held) state.lost = true;
        },
        () => undefined,
      );
    }, leaseMs / 3);
    timer.unref();
    return { state, stop: () => clearInterval(timer) };
  }

  async function registerAll(
    batch: StoredIntakeBatch,
    documents: ZipDocuments,
    lease: { readonly lost: boolean },
  ): Promise<void> {
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

  return {
    /** `lastAttempt`: the queue will not deliver the message again, so a failure ends the batch FAILED. */
    async run(message: IntakeBatchMessage, lastAttempt: boolean): Promise<void> {
      const batch = await deps.batches.get(message.batchId);
      if (!batch) return;
      if (batch.status === 'DONE' || batch.status === 'REFUSED' || batch.status === 'FAILED') {
        // Ended by an earlier delivery that may have stopped before its clean-up.
        await afterEnd(batch.id);
        return;
      }
      const owner = deps.runId?.() ?? randomUUID();
      const leaseUntil = new Date(deps.clock().getTime() + (deps.leaseMs ?? JOB_LEASE_MS)).toISOString();
      const taken = await deps.batches.start(batch.id, owner, now(), leaseUntil);
      if (taken === 'ENDED') {
        await afterEnd(batch.id);
        return;
      }
      // Another run holds it: nothing to do here; if that run stops, its lease lapses and the sweeper resumes it.
      if (taken === 'BUSY') return;
      const lease = holdLease(batch.id, owner);

      let fetched: FetchedZip | null = null;
      try {
        fetched = await deps.fetchZip(batch.key);
        if (!fetched) {
          await deps.batches.end(batch.id, 'FAILED', reasonOf('ERROR_UPLOAD_NOT_FOUND'), now());
          await afterEnd(batch.id);
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
          await afterEnd(batch.id);
          return;
        }
        try {
          await deps.batches.setTotal(batch.id, documents.documentCount);
          await registerAll(batch, documents, lease.state);
        } catch (error) {
          if (error instanceof LeaseLostError) return;
          if (!(error instanceof ZipRefusedError)) throw error;
          // Poison found while reading (the zip's bytes changed under it, or a reader's check the opening missed): a
          // verdict, not a crash. The batch ends REFUSED now, frees the uploader's slot and is not delivered again.
          await deps.batches.end(batch.id, 'REFUSED', { code: error.code, message: error.message }, now());
          await afterEnd(batch.id);
          return;
        } finally {
          documents.close();
        }
        await deps.batches.finish(batch.id, now());
        await afterEnd(batch.id);
      } catch (error) {
        if (lastAttempt) {
          await deps.batches.end(batch.id, 'FAILED', reasonOf('ERROR_INTAKE_BATCH_FAILED'), now());
          await afterEnd(batch.id);
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
    },
  };
}

function reasonOf(code: 'ERROR_UPLOAD_NOT_FOUND' | 'ERROR_INTAKE_BATCH_FAILED') {
  return { code, message: formatErrorMessage(code) };
}

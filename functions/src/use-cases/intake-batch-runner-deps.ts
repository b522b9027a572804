import type { InvoiceType } from '@portal/shared';
import type { Caller } from '../http/caller.js';
import type { openZipDocuments } from '../intake/zip-documents.js';
import type { IntakeBatchRepository, StoredIntakeBatch } from '../repositories/intake-batches.js';
import type { FileIntakeOutcome, IncomingFiles } from './intake/intake-deps.js';

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
   * The intake of one run's documents that arrived as files (intake/register-files.ts, with batchIntakeDeps): made once per run, so
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
 * documents are recorded: one write for the results of this long rather than one per result.
 */
export const PROGRESS_INTERVAL_MS = 1000;

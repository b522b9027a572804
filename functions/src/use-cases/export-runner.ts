import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import { counted, forLevel, formatCount, type ExportList, type ExportMessage } from '@portal/shared';
import { JOB_LEASE_MS } from '../jobs/job-leases.js';
import type { Caller } from '../http/caller.js';
import { callerOfSnapshot } from '../repositories/caller-snapshot.js';
import type { ExportJobRepository } from '../repositories/export-jobs.js';
import type { Audience, FeedItem, FeedItemFacts } from '../repositories/notifications.js';
import type { Page } from '../repositories/page.js';
import { EXPORT_COLUMNS, writeExportFile } from './export-file.js';
import { EXPORT_CONTENT_TYPES } from './export-names.js';
import {
  EXPORT_LIST_ROUTES,
  EXPORT_PAGE_SIZE,
  LIST_NAMES,
  listQuery,
  type ConformityQuery,
  type ExportSources,
  type InvoicesQuery,
  type SuppliersQuery,
} from './exports.js';

/**
 * The exports worker's side (docs/adr/0032-list-exports.md): the file of a job, written by paging through the list's
 * own use case as its requester. Apart from exports.ts so that the API's functions do not bundle the file writer.
 */

/**
 * Every page of the list, as `caller` would read them: through the list route's own answer, for the caller's role
 * (a supplier's file has no staff-only field, as its list has none; schemas/visibility.ts).
 */
export async function* exportRows(
  sources: ExportSources,
  list: ExportList,
  caller: Caller,
  filters: Readonly<Record<string, string>>,
): AsyncGenerator<readonly unknown[]> {
  const query = listQuery(list, filters);
  let cursor: string | undefined;
  do {
    const paged = { ...query, limit: EXPORT_PAGE_SIZE, cursor };
    const page: Page<unknown> =
      list === 'invoices'
        ? await sources.listInvoices(caller, paged as InvoicesQuery)
        : list === 'suppliers'
          ? await sources.listSuppliers(paged as SuppliersQuery)
          : await sources.listConformity(
              caller,
              list === 'hes' ? 'SERVICE_SHEET' : 'MATERIAL_DOCUMENT',
              paged as ConformityQuery,
            );
    yield forLevel(EXPORT_LIST_ROUTES[list].response, page, caller.level).items;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

/**
 * A job's total is fixed when it is asked for; a list that changed while its file was made (invoices arrived or
 * changed status) is said, not hidden: the file holds the rows read then.
 */
export function totalChangedNote(total: number | null, rows: number): string {
  if (total === null || total === rows) return '';
  return (
    ` La lista cambió mientras se generaba: al pedirlo tenía ${counted(total, ROWS)} ` +
    `y el archivo tiene ${formatCount(rows)}.`
  );
}

/** A file on its way to the bucket: write into `stream`, then await `done`; `abort` drops what was sent. */
export interface ExportUpload {
  readonly stream: Writable;
  readonly done: Promise<void>;
  abort(): Promise<void>;
}

export interface ExportRunnerDeps {
  readonly jobs: Pick<ExportJobRepository, 'get' | 'start' | 'renew' | 'release' | 'progress' | 'finish' | 'fail'>;
  readonly sources: ExportSources;
  readonly upload: (key: string, contentType: string) => ExportUpload;
  readonly feed: { record(audiences: readonly Audience[], item: FeedItem & FeedItemFacts): Promise<void> };
  readonly clock: () => Date;
  /** Rows between two progress writes. */
  readonly progressEvery?: number;
  /** @default JOB_LEASE_MS */
  readonly leaseMs?: number;
  /** The run's id, its lease's owner. @default a random UUID */
  readonly runId?: () => string;
}

/** Thrown inside a run that lost its job's lease (another run took it over): it stops and leaves no file. */
class LeaseLostError extends Error {}

const ROWS = { one: 'fila', other: 'filas' } as const;

/**
 * The exports worker's job for one message; idempotent (a finished job is left as it is). A run holds the job's lease
 * and renews it while it writes; a run that stops lets it lapse, and the outbox sweeper hands the job to a worker again
 * (jobs/job-leases.ts), which writes the file again from its first row.
 */
export function makeExportRunner(deps: ExportRunnerDeps) {
  const every = deps.progressEvery ?? 1000;
  const leaseMs = deps.leaseMs ?? JOB_LEASE_MS;
  return {
    /** `lastAttempt`: the queue will not deliver the message again, so a failure is final (FAILED). */
    async run(message: ExportMessage, lastAttempt: boolean): Promise<void> {
      const job = await deps.jobs.get(message.userId, message.exportId);
      if (!job || job.status === 'READY' || job.status === 'FAILED') return;
      const owner = deps.runId?.() ?? randomUUID();
      const until = () => new Date(deps.clock().getTime() + leaseMs).toISOString();
      const taken = await deps.jobs.start(job, owner, deps.clock().toISOString(), until());
      // Ended, or another run holds it (if that run stops, its lease lapses and the sweeper hands the job over).
      if (taken === 'ENDED' || taken === 'BUSY') return;
      const lease = { lost: false };
      const timer = setInterval(() => {
        deps.jobs.renew(job, owner, until()).then(
          (held) => {
            if (!held) lease.lost = true;
          },
          () => undefined,
        );
      }, leaseMs / 3);
      timer.unref();
      const caller = callerOfSnapshot(job.requester);
      async function* leased(): AsyncGenerator<readonly unknown[]> {
        for await (const page of exportRows(deps.sources, job!.list, caller, job!.filters)) {
          if (lease.lost) throw new LeaseLostError(`export ${job!.id}: another run holds it now`);
          yield page;
        }
      }

      // From the first row again: a previous attempt's upload was never completed, so it left no file.
      const upload = deps.upload(job.key, EXPORT_CONTENT_TYPES[job.format]);
      let reported = 0;
      try {
        const rows = await writeExportFile({
          format: job.format,
          list: job.list,
          columns: EXPORT_COLUMNS[job.list] as never,
          rows: leased(),
          output: upload.stream,
          onProgress: async (count) => {
            if (count - reported < every) return;
            reported = count;
            await deps.jobs.progress(job, count);
          },
        });
        await upload.done;
        const now = deps.clock().toISOString();
        if (!(await deps.jobs.finish(job, rows, now))) return;
        await deps.feed.record([{ kind: 'USER', taxId: job.userId }], {
          id: `export-${job.id}`,
          registeredAt: now,
          message:
            `Su archivo «${job.fileName}» de ${LIST_NAMES[job.list]} (${counted(rows, ROWS)}) está listo para descargar desde la lista.` +
            totalChangedNote(job.total, rows),
          reference: null,
          kind: 'EXPORT_READY',
        });
      } catch (error) {
        upload.stream.destroy();
        await upload.abort().catch(() => undefined);
        if (error instanceof LeaseLostError) return;
        if (lastAttempt) await deps.jobs.fail(job, (error as Error).message, deps.clock().toISOString());
        else await deps.jobs.release(job, owner, deps.clock().toISOString()).catch(() => undefined);
        throw error;
      } finally {
        clearInterval(timer);
      }
    },
  };
}

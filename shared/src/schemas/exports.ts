import * as z from 'zod/mini';
import { IsoDateTime } from './common.js';

// Exports of a list: the whole filtered result as a file, made by the exports worker.

/** The lists that can be exported: each the result of its list route, filtered the same way. */
export const EXPORT_LISTS = ['invoices', 'hes', 'migo', 'suppliers'] as const;
export const ExportList = z.enum(EXPORT_LISTS);
export type ExportList = z.infer<typeof ExportList>;

export const EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export const ExportFormat = z.enum(EXPORT_FORMATS);
export type ExportFormat = z.infer<typeof ExportFormat>;

export const EXPORT_STATUSES = ['QUEUED', 'RUNNING', 'READY', 'FAILED'] as const;
export const ExportStatus = z.enum(EXPORT_STATUSES);
export type ExportStatus = z.infer<typeof ExportStatus>;

/** At most this many filters, each value at most this long: the list routes' own schemas then judge them. */
export const EXPORT_FILTER_LIMITS = { entries: 16, name: 40, value: 1000 } as const;

/**
 * POST /exports: which list, in which format, with the same query the list route takes (its values as the query
 * string carries them, e.g. invoiceStatus: 'PENDING,COMPLETED'); `limit` and `cursor` are ignored (every page).
 */
export const CreateExportBody = z.strictObject({
  list: ExportList,
  format: ExportFormat,
  filters: z._default(
    z
      .record(
        z.string().check(z.regex(/^[A-Za-z]{1,40}$/, 'debe ser un nombre de parámetro')),
        z.string().check(z.maxLength(EXPORT_FILTER_LIMITS.value)),
      )
      .check(
        z.refine(
          (filters) => Object.keys(filters).length <= EXPORT_FILTER_LIMITS.entries,
          `admite hasta ${EXPORT_FILTER_LIMITS.entries} filtros`,
        ),
      ),
    {},
  ),
});
export type CreateExportBody = z.infer<typeof CreateExportBody>;

export const ExportPath = z.object({ exportId: z.uuid() });

/** An export as its requester reads it: progress while it runs, a short-lived download link once ready. */
export const ExportJob = z.object({
  id: z.string(),
  list: ExportList,
  format: ExportFormat,
  status: ExportStatus,
  /** Rows written so far (all of them once READY). */
  rows: z.number(),
  /**
   * Rows the filter matched when the export was asked for, fixed then; null when the list cannot count them exactly
   * (the suppliers' list, a search over more rows than a count reads).
   */
  total: z.nullable(z.number()),
  /**
   * READY, and the list changed while the file was made (invoices arrived or changed status): the file holds `rows`,
   * the filter matched `total` when asked. False otherwise.
   */
  totalChanged: z._default(z.boolean(), false),
  /** 0 to 1; null while the total is unknown. */
  progress: z.nullable(z.number()),
  /** The file's name as the browser saves it. */
  fileName: z.string(),
  /** READY: a presigned link (minutes) that downloads the file; null otherwise. */
  url: z.nullable(z.string()),
  createdAt: IsoDateTime,
  finishedAt: z.nullable(IsoDateTime),
  /** When the portal last started the file again after its worker stopped (a crash, a restart); null if never. */
  resumedAt: z._default(z.nullable(IsoDateTime), null),
});
export type ExportJob = z.infer<typeof ExportJob>;

/** What the exports queue carries: the job to make (its owner's id keys it). */
export const ExportMessage = z.object({ userId: z.string().check(z.minLength(1)), exportId: z.uuid() });
export type ExportMessage = z.infer<typeof ExportMessage>;

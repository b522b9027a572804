import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  conformityRoutes,
  invoiceRoutes,
  userAdminRoutes,
  type ConformityDocument,
  type CreateExportBody,
  type ExportJob,
  type ExportList,
  type ExportMessage,
  type ExternalUser,
  type InvoiceSummary,
  type RouteDef,
  type RouteQuery,
  type Routes,
} from '@portal/shared';
import type { GetLink } from '../adapters/s3.js';
import type { Caller } from '../http/caller.js';
import { parsePart } from '../http/validation.js';
import { callerSnapshot } from '../repositories/caller-snapshot.js';
import type { ExportJobRepository, StoredExportJob } from '../repositories/export-jobs.js';
import { outgoingMessage, type Outgoing } from '../repositories/outgoing.js';
import type { Page } from '../repositories/page.js';
import { EXPORT_CONTENT_TYPES, EXPORT_TITLES } from './export-names.js';

/**
 * Exports of the lists (docs/adr/0032-list-exports.md). The API asks (`makeExportRequests`): the filters
 * are parsed by the list route's own query schema and the caller's reach is checked as the list checks it; the job
 * and its queue message are committed together. The worker makes the file (`makeExportRunner`) by paging through
 * the list's own use case as the requester, so that the rows are exactly what the requester's list would show.
 */

/** The list route whose query, roles and use case an export reuses. */
export const EXPORT_LIST_ROUTES = {
  invoices: invoiceRoutes.listInvoices,
  hes: conformityRoutes.listServiceSheets,
  migo: conformityRoutes.listMaterialDocs,
  suppliers: userAdminRoutes.listExternalUsers,
} as const satisfies Record<ExportList, RouteDef>;

/** How a person calls each list (the error and the notice). */
export const LIST_NAMES: Record<ExportList, string> = {
  invoices: 'Mis comprobantes',
  hes: 'Conformidades HES',
  migo: 'Conformidades MIGO',
  suppliers: 'Proveedores',
};

/** Exports one user may have queued or running at once; a job older than STALE_AFTER_MS no longer counts. */
export const MAX_RUNNING_EXPORTS = 3;
const STALE_AFTER_MS = 2 * 60 * 60 * 1000;
/** The download link's life. */
export const EXPORT_LINK_SECONDS = 300;
/** Rows read per page of the list (its routes' largest page). */
export const EXPORT_PAGE_SIZE = 100;

export type InvoicesQuery = RouteQuery<Routes['listInvoices']>;
export type ConformityQuery = RouteQuery<Routes['listServiceSheets']>;
export type SuppliersQuery = RouteQuery<Routes['listExternalUsers']>;

/** The lists' own use cases, called as the requester. */
export interface ExportSources {
  listInvoices(caller: Caller, query: InvoicesQuery): Promise<Page<InvoiceSummary>>;
  listConformity(
    caller: Caller,
    kind: 'SERVICE_SHEET' | 'MATERIAL_DOCUMENT',
    query: ConformityQuery,
  ): Promise<Page<ConformityDocument>>;
  listSuppliers(query: SuppliersQuery): Promise<Page<ExternalUser>>;
}

/** The filters as the list route reads them: paging is the export's own. */
export function listQuery(list: ExportList, filters: Readonly<Record<string, string>>): Record<string, unknown> {
  const { limit: _limit, cursor: _cursor, ...rest } = filters;
  return parsePart(EXPORT_LIST_ROUTES[list].request.query, { ...rest, limit: String(EXPORT_PAGE_SIZE) }) as Record<
    string,
    unknown
  >;
}

const two = (n: number) => String(n).padStart(2, '0');

/** 'Comprobantes 2026-03-05 14.30.xlsx' (Lima's time): what the browser saves. */
export function exportFileName(list: ExportList, format: 'xlsx' | 'csv', at: Date): string {
  const lima = new Date(at.getTime() - 5 * 60 * 60 * 1000);
  const day = `${lima.getUTCFullYear()}-${two(lima.getUTCMonth() + 1)}-${two(lima.getUTCDate())}`;
  return `${EXPORT_TITLES[list]} ${day} ${two(lima.getUTCHours())}.${two(lima.getUTCMinutes())}.${format}`;
}

/** An attachment with its Spanish name: ASCII fallback, and the UTF-8 name (RFC 6266). */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .replaceAll('"', '');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export interface ExportRequestDeps {
  readonly jobs: Pick<ExportJobRepository, 'create' | 'unfinished'>;
  readonly outgoing: Pick<Outgoing, 'deliver'>;
  /** Checks the caller's reach over the filtered list (as the list does) and counts it when the list can. */
  readonly reach: (caller: Caller, list: ExportList, query: Record<string, unknown>) => Promise<number | null>;
  readonly clock: () => Date;
  readonly newId: () => string;
}

export interface ExportReadDeps {
  readonly jobs: Pick<ExportJobRepository, 'get'>;
  readonly presignGet: (link: GetLink) => Promise<string>;
}

function view(job: StoredExportJob, url: string | null): ExportJob {
  return {
    id: job.id,
    list: job.list,
    format: job.format,
    status: job.status,
    rows: job.rows,
    total: job.total,
    totalChanged: job.status === 'READY' && job.total !== null && job.rows !== job.total,
    progress:
      job.status === 'READY' ? 1 : job.total === null ? null : job.total === 0 ? 0 : Math.min(1, job.rows / job.total),
    fileName: job.fileName,
    url,
    createdAt: job.createdAt,
    finishedAt: job.finishedAt,
    resumedAt: job.resumedAt,
  };
}

/** POST /exports: the job, once the filters and the caller's reach are checked as the list checks them. */
export function makeRequestExport(deps: ExportRequestDeps) {
  return async (caller: Caller, body: CreateExportBody): Promise<ExportJob> => {
    const route = EXPORT_LIST_ROUTES[body.list];
    if (!route.roles.includes(caller.level as never)) {
      throw new ForbiddenError('ERROR_EXPORT_LIST_NOT_ALLOWED', { list: LIST_NAMES[body.list] });
    }
    const query = listQuery(body.list, body.filters);
    const total = await deps.reach(caller, body.list, query);

    const now = deps.clock();
    const since = new Date(now.getTime() - STALE_AFTER_MS).toISOString();
    const running = await deps.jobs.unfinished(caller.sub, since);
    if (running.length >= MAX_RUNNING_EXPORTS) {
      throw new ConflictError('ERROR_TOO_MANY_EXPORTS', { limit: MAX_RUNNING_EXPORTS });
    }

    const id = deps.newId();
    const { limit: _limit, cursor: _cursor, ...filters } = body.filters;
    const job: StoredExportJob = {
      id,
      userId: caller.sub,
      list: body.list,
      format: body.format,
      filters,
      requester: callerSnapshot(caller),
      status: 'QUEUED',
      rows: 0,
      total,
      attempts: 0,
      key: `exports/${caller.sub}/${id}.${body.format}`,
      fileName: exportFileName(body.list, body.format, now),
      createdAt: now.toISOString(),
      startedAt: null,
      finishedAt: null,
      error: null,
      resumedAt: null,
    };
    const message = outgoingMessage('exports', { userId: caller.sub, exportId: id } satisfies ExportMessage, now);
    await deps.jobs.create(job, message);
    await deps.outgoing.deliver([message]);
    return view(job, null);
  };
}

/** GET /exports/{exportId}: the caller's own export; another's (or an unknown id) is not found. */
export function makeReadExport(deps: ExportReadDeps) {
  return async (caller: Caller, exportId: string): Promise<ExportJob> => {
    const job = await deps.jobs.get(caller.sub, exportId);
    if (!job) throw new NotFoundError('ERROR_EXPORT_NOT_FOUND');
    const url =
      job.status === 'READY'
        ? await deps.presignGet({
            key: job.key,
            expiresInSeconds: EXPORT_LINK_SECONDS,
            contentDisposition: attachmentDisposition(job.fileName),
            contentType: EXPORT_CONTENT_TYPES[job.format],
          })
        : null;
    return view(job, url);
  };
}

import { CreateExportBody, ExportJob, ExportPath } from '../schemas/exports.js';
import { route, ALL_SIGNED_IN, type RouteDef } from './route.js';

/** Exports of the lists: asked here, made by the exports worker, downloaded through a short-lived link. */
export const exportRoutes = {
  createExport: route({
    id: 'createExport',
    method: 'POST',
    path: '/exports',
    summary: 'Pide el archivo (XLSX o CSV) de una lista completa con sus filtros; se genera en segundo plano',
    roles: ALL_SIGNED_IN,
    request: { body: CreateExportBody },
    response: ExportJob,
    successStatus: 202,
    // Counts the invoices the filter matches, checks the caller's running exports, writes the job and its message.
    uses: { table: 'write', queues: ['exports'] },
    handler: 'exports/create-export',
  }),
  getExport: route({
    id: 'getExport',
    method: 'GET',
    path: '/exports/{exportId}',
    summary: 'Estado de una exportación propia y, cuando está lista, el enlace de descarga',
    roles: ALL_SIGNED_IN,
    request: { path: ExportPath },
    response: ExportJob,
    uses: { table: 'read', documents: ['exportDownload'] },
    handler: 'exports/get-export',
  }),
} as const satisfies Record<string, RouteDef>;

import {
  CreateIntakeBatchBody,
  IntakeBatch,
  IntakeBatchList,
  IntakeBatchPath,
  IntakeBatchQuery,
  IntakeBatchSummary,
} from '../schemas/intake-batches.js';
import { route, SUBMITTERS, type RouteDef } from './route.js';

/**
 * 'Cargar ZIP' (docs/intake-channels.md#zip): a zip of up to 500 documents, uploaded presigned (purpose
 * INVOICE_ZIP), registered here and read by the intake-batches worker; its results per document are kept to be read.
 */
export const intakeBatchRoutes = {
  createIntakeBatch: route({
    id: 'createIntakeBatch',
    method: 'POST',
    path: '/intake-batches',
    summary: 'Registra un ZIP de comprobantes ya subido (XML con su PDF y su CDR); se procesa en segundo plano',
    roles: SUBMITTERS,
    request: { body: CreateIntakeBatchBody },
    response: IntakeBatchSummary,
    successStatus: 202,
    // Checks the upload (its type, size and first bytes; deletes one it refuses), writes the batch and its message.
    uses: { table: 'write', documents: ['read', 'delete'], queues: ['intakeBatches'] },
    handler: 'intake-batches/create-intake-batch',
  }),
  getIntakeBatch: route({
    id: 'getIntakeBatch',
    method: 'GET',
    path: '/intake-batches/{batchId}',
    summary: 'Estado de un ZIP cargado por el usuario y el resultado de cada comprobante',
    roles: SUBMITTERS,
    request: { path: IntakeBatchPath, query: IntakeBatchQuery },
    response: IntakeBatch,
    uses: { table: 'read' },
    handler: 'intake-batches/get-intake-batch',
  }),
  listIntakeBatches: route({
    id: 'listIntakeBatches',
    method: 'GET',
    path: '/intake-batches',
    summary: 'Los ZIP cargados recientemente por el usuario',
    roles: SUBMITTERS,
    request: {},
    response: IntakeBatchList,
    uses: { table: 'read' },
    handler: 'intake-batches/list-intake-batches',
  }),
} as const satisfies Record<string, RouteDef>;

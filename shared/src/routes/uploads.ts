import { CreateUploadBody, FileLink, InvoiceFileQuery, UploadTicket } from '../schemas/uploads.js';
import { machineRoute, route, ALL_SIGNED_IN, type RouteDef } from './route.js';
import { invoiceRequest } from './invoice-request.js';
import { INVOICE_API_PATH } from '../invoice-ref.js';

/** Files: uploads and the links to an invoice's files. */
export const uploadRoutes = {
  createUpload: route({
    id: 'createUpload',
    method: 'POST',
    path: '/uploads',
    summary: 'Entrega un POST prefirmado para subir un XML, un PDF o un adjunto',
    roles: ALL_SIGNED_IN,
    request: { body: CreateUploadBody },
    response: UploadTicket,
    successStatus: 201,
    ...machineRoute('invoices.submit', { table: 'read', documents: ['presignUpload'] }),
    handler: 'uploads/create-upload',
  }),
  getInvoiceFile: route({
    id: 'getInvoiceFile',
    method: 'GET',
    path: `${INVOICE_API_PATH}/files`,
    summary: 'Enlace temporal para descargar el XML, ver el PDF o un adjunto del comprobante',
    roles: ALL_SIGNED_IN,
    request: invoiceRequest({ query: InvoiceFileQuery }),
    response: FileLink,
    ...machineRoute('invoices.read', { table: 'read', documents: ['presignDownload'] }),
    handler: 'invoices/get-invoice-file',
  }),
} as const satisfies Record<string, RouteDef>;

import {
  DisapproveBody,
  DisapproveQuery,
  InvoiceDetail,
  InvoiceKeyPath,
  UpdateInvoiceBody,
} from '../schemas/invoices.js';
import { route, ALL_SIGNED_IN, STAFF, INVOICE_ID_CODES, type RouteDef } from './route.js';

/** An invoice's detail and its review by staff. */
export const reviewRoutes = {
  getInvoice: route({
    id: 'getInvoice',
    method: 'GET',
    path: '/suppliers/{supplierId}/invoices/{invoiceType}/{invoiceId}',
    summary: 'Detalle del comprobante con su historial',
    auth: 'jwt',
    roles: ALL_SIGNED_IN,
    request: { path: InvoiceKeyPath, parameterCodes: INVOICE_ID_CODES },
    response: InvoiceDetail,
    handler: 'invoices/get-invoice',
  }),
  updateInvoice: route({
    id: 'updateInvoice',
    method: 'PUT',
    path: '/suppliers/{supplierId}/invoices/{invoiceType}/{invoiceId}',
    summary: 'Completa los datos del comprobante (OC, HES/MIGO, responsable, oficina)',
    auth: 'jwt',
    roles: STAFF,
    request: { path: InvoiceKeyPath, body: UpdateInvoiceBody, parameterCodes: INVOICE_ID_CODES },
    response: InvoiceDetail,
    handler: 'invoices/update-invoice',
  }),
  approveInvoice: route({
    id: 'approveInvoice',
    method: 'POST',
    path: '/suppliers/{supplierId}/invoices/{invoiceType}/{invoiceId}/approve',
    summary: 'Aprueba el comprobante y solicita la MIRO en SAP',
    auth: 'jwt',
    roles: STAFF,
    request: { path: InvoiceKeyPath, parameterCodes: INVOICE_ID_CODES },
    response: InvoiceDetail,
    handler: 'invoices/approve-invoice',
  }),
  disapproveInvoice: route({
    id: 'disapproveInvoice',
    method: 'POST',
    path: '/suppliers/{supplierId}/invoices/{invoiceType}/{invoiceId}/disapprove',
    summary: 'Rechaza el comprobante con un motivo',
    auth: 'jwt',
    roles: STAFF,
    request: {
      path: InvoiceKeyPath,
      query: DisapproveQuery,
      body: DisapproveBody,
      parameterCodes: { ...INVOICE_ID_CODES, reason: 'ERROR_DISAPPROVE_WITHOUT_REASON' },
    },
    response: InvoiceDetail,
    handler: 'invoices/disapprove-invoice',
  }),
} as const satisfies Record<string, RouteDef>;

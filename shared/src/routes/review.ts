import {
  ApproveDespiteRucRiskBody,
  DisapproveBody,
  DisapproveQuery,
  InvoiceDetail,
  UpdateInvoiceBody,
} from '../schemas/invoices.js';
import { InvoiceAuditEvent, InvoiceHistoryQuery } from '../schemas/invoice-audit.js';
import { pageOf } from '../schemas/common.js';
import { READS_TABLE } from '../access.js';
import { machineRoute, route, ADMIN_ONLY, ALL_SIGNED_IN, STAFF, type RouteDef } from './route.js';
import { invoiceRequest } from './invoice-request.js';
import { INVOICE_API_PATH } from '../invoice-ref.js';

/** An invoice's detail and its review by staff. */
export const reviewRoutes = {
  getInvoice: route({
    id: 'getInvoice',
    method: 'GET',
    path: INVOICE_API_PATH,
    summary: 'Detalle del comprobante con su historial',
    roles: ALL_SIGNED_IN,
    request: invoiceRequest(),
    response: InvoiceDetail,
    ...machineRoute('invoices.read', READS_TABLE),
    handler: 'invoices/get-invoice',
  }),
  listInvoiceHistory: route({
    id: 'listInvoiceHistory',
    method: 'GET',
    path: `${INVOICE_API_PATH}/history`,
    summary:
      'Registro de cambios del comprobante (quién, cuándo, desde qué llamada, antes y después), del más antiguo al más reciente',
    roles: ALL_SIGNED_IN,
    request: invoiceRequest({ query: InvoiceHistoryQuery }),
    response: pageOf(InvoiceAuditEvent),
    uses: READS_TABLE,
    handler: 'invoices/list-invoice-history',
  }),
  updateInvoice: route({
    id: 'updateInvoice',
    method: 'PUT',
    path: INVOICE_API_PATH,
    summary: 'Completa los datos del comprobante (OC, HES/MIGO, responsable, oficina)',
    roles: STAFF,
    request: invoiceRequest({ body: UpdateInvoiceBody }),
    response: InvoiceDetail,
    uses: { table: 'write', documents: ['read', 'delete'] },
    handler: 'invoices/update-invoice',
  }),
  approveInvoice: route({
    id: 'approveInvoice',
    method: 'POST',
    path: `${INVOICE_API_PATH}/approve`,
    summary: 'Aprueba el comprobante y solicita la MIRO en SAP',
    roles: STAFF,
    request: invoiceRequest(),
    response: InvoiceDetail,
    uses: { table: 'write', queues: ['miroRequests'] },
    handler: 'invoices/approve-invoice',
  }),
  disapproveInvoice: route({
    id: 'disapproveInvoice',
    method: 'POST',
    path: `${INVOICE_API_PATH}/disapprove`,
    summary: 'Rechaza el comprobante con un motivo',
    roles: STAFF,
    request: invoiceRequest({
      query: DisapproveQuery,
      body: DisapproveBody,
      parameterCodes: { reason: 'ERROR_DISAPPROVE_WITHOUT_REASON' },
    }),
    response: InvoiceDetail,
    uses: { table: 'write', queues: ['notifications'] },
    handler: 'invoices/disapprove-invoice',
  }),
  retrySapPosting: route({
    id: 'retrySapPosting',
    method: 'POST',
    path: `${INVOICE_API_PATH}/sap-posting/retry`,
    summary: 'Reintenta la contabilización en SAP (MIRO) de un comprobante aprobado cuya contabilización falló',
    roles: ADMIN_ONLY,
    request: invoiceRequest(),
    response: InvoiceDetail,
    successStatus: 202,
    uses: { table: 'write', queues: ['miroRequests'] },
    handler: 'invoices/retry-sap-posting',
  }),
  requestSunatValidation: route({
    id: 'requestSunatValidation',
    method: 'POST',
    path: `${INVOICE_API_PATH}/sunat-validation`,
    summary:
      'Vuelve a consultar a SUNAT la validez de un comprobante en revisión que espera su respuesta o que SUNAT no validó',
    roles: STAFF,
    request: invoiceRequest(),
    response: InvoiceDetail,
    successStatus: 202,
    uses: { table: 'write', queues: ['sunatValidation'] },
    handler: 'invoices/request-sunat-validation',
  }),
  approveInvoiceDespiteRucRisk: route({
    id: 'approveInvoiceDespiteRucRisk',
    method: 'POST',
    path: `${INVOICE_API_PATH}/approve-despite-ruc-risk`,
    summary:
      'Aprueba un comprobante cuyo proveedor SUNAT no informa ACTIVO y HABIDO, con el motivo escrito del administrador',
    roles: ADMIN_ONLY,
    request: invoiceRequest({
      body: ApproveDespiteRucRiskBody,
      parameterCodes: { reason: 'ERROR_RUC_RISK_OVERRIDE_WITHOUT_REASON' },
    }),
    response: InvoiceDetail,
    uses: { table: 'write', queues: ['miroRequests'] },
    handler: 'invoices/approve-invoice-despite-ruc-risk',
  }),
} as const satisfies Record<string, RouteDef>;

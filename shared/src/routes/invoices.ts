import { pageOf } from '../schemas/common.js';
import {
  CreateInvoiceFromXmlBody,
  CreateInvoiceWithoutXmlBody,
  CountInvoicesQuery,
  Invoice,
  InvoiceCount,
  InvoiceSummary,
  ListInvoicesQuery,
} from '../schemas/invoices.js';
import { route, ALL_SIGNED_IN, type RouteDef } from './route.js';

/** Invoices: the listing and the two ways of registering one. */
export const invoiceRoutes = {
  listInvoices: route({
    id: 'listInvoices',
    method: 'GET',
    path: '/invoices',
    summary: 'Comprobantes por sociedad, paginados y filtrados por el alcance del usuario',
    auth: 'jwt',
    roles: ALL_SIGNED_IN,
    request: { query: ListInvoicesQuery },
    response: pageOf(InvoiceSummary),
    handler: 'invoices/list-invoices',
  }),
  countInvoices: route({
    id: 'countInvoices',
    method: 'GET',
    path: '/invoices/count',
    summary: 'Cuántos comprobantes coinciden con el filtro (el total de la lista)',
    auth: 'jwt',
    roles: ALL_SIGNED_IN,
    request: { query: CountInvoicesQuery },
    response: InvoiceCount,
    handler: 'invoices/count-invoices',
  }),
  createInvoiceFromXml: route({
    id: 'createInvoiceFromXml',
    method: 'POST',
    path: '/invoices',
    summary: 'Registra un comprobante a partir de su XML UBL 2.1 ya cargado',
    auth: 'jwt',
    roles: ['SUPPLIER', 'ADMIN'],
    request: { body: CreateInvoiceFromXmlBody },
    response: Invoice,
    successStatus: 201,
    handler: 'invoices/create-invoice-from-xml',
  }),
  createInvoiceWithoutXml: route({
    id: 'createInvoiceWithoutXml',
    method: 'POST',
    path: '/invoices/without-xml',
    summary: 'Registra un comprobante sin XML, con su PDF',
    auth: 'jwt',
    roles: ['SUPPLIER', 'ADMIN'],
    request: { body: CreateInvoiceWithoutXmlBody, parameterCodes: { pdfUrl: 'ERROR_INVOICE_PDF_REQUIRED' } },
    response: Invoice,
    successStatus: 201,
    handler: 'invoices/create-invoice-without-xml',
  }),
} as const satisfies Record<string, RouteDef>;

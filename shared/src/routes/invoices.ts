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
import { READS_TABLE, type FunctionUses } from '../access.js';
import { machineRoute, route, ALL_SIGNED_IN, SUBMITTERS, type RouteDef } from './route.js';

/**
 * Intake reads the upload (its type, size and first bytes), deletes one it refuses, stores the invoice with its
 * outbox messages and sends them: the SUNAT validation and the supplier's notice of receipt.
 */
const INTAKE_USES = {
  table: 'write',
  documents: ['read', 'delete'],
  queues: ['sunatValidation', 'notifications'],
} as const satisfies FunctionUses;

/** Invoices: the listing and the two ways of registering one. */
export const invoiceRoutes = {
  listInvoices: route({
    id: 'listInvoices',
    method: 'GET',
    path: '/invoices',
    summary: 'Comprobantes por sociedad, paginados y filtrados por el alcance del usuario',
    roles: ALL_SIGNED_IN,
    request: { query: ListInvoicesQuery },
    response: pageOf(InvoiceSummary),
    ...machineRoute('invoices.read', READS_TABLE),
    handler: 'invoices/list-invoices',
  }),
  countInvoices: route({
    id: 'countInvoices',
    method: 'GET',
    path: '/invoices/count',
    summary: 'Cuántos comprobantes coinciden con el filtro (el total de la lista)',
    roles: ALL_SIGNED_IN,
    request: { query: CountInvoicesQuery },
    response: InvoiceCount,
    uses: READS_TABLE,
    handler: 'invoices/count-invoices',
  }),
  createInvoiceFromXml: route({
    id: 'createInvoiceFromXml',
    method: 'POST',
    path: '/invoices',
    summary: 'Registra un comprobante a partir de su XML UBL 2.1 ya cargado',
    roles: SUBMITTERS,
    request: { body: CreateInvoiceFromXmlBody },
    response: Invoice,
    successStatus: 201,
    ...machineRoute('invoices.submit', INTAKE_USES),
    handler: 'invoices/create-invoice-from-xml',
  }),
  createInvoiceWithoutXml: route({
    id: 'createInvoiceWithoutXml',
    method: 'POST',
    path: '/invoices/without-xml',
    summary: 'Registra un comprobante sin XML, con su PDF',
    roles: SUBMITTERS,
    request: { body: CreateInvoiceWithoutXmlBody, parameterCodes: { pdfUrl: 'ERROR_INVOICE_PDF_REQUIRED' } },
    response: Invoice,
    successStatus: 201,
    uses: INTAKE_USES,
    handler: 'invoices/create-invoice-without-xml',
  }),
} as const satisfies Record<string, RouteDef>;

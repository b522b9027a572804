import * as z from 'zod';
import { CertStatus, Currency, InvoiceStatus, InvoiceType, OperationType } from '../domain.js';
import { IsoDate, IsoDateTime, Money, PageQuery, QueryBoolean, Ruc, commaList } from './common.js';
import { Employee, OfficeLocation } from './reference.js';

// Invoices (spec §3) and the requests that list, create and review them.

export const StatusHistoryEntry = z.object({
  status: InvoiceStatus,
  title: z.string(),
  additionalMessage: z.string().nullable(),
  date: IsoDateTime,
  by: z.string().nullable(),
});
export type StatusHistoryEntry = z.infer<typeof StatusHistoryEntry>;

/** The invoice of spec §3. */
export const Invoice = z.object({
  id: z.string(),
  prefixId: z.string(),
  numericId: z.string(),
  type: InvoiceType,
  status: InvoiceStatus,
  statusMessage: z.string().nullable(),
  certStatus: CertStatus,
  approved: z.boolean(),
  supplierId: Ruc,
  supplierName: z.string(),
  client: Ruc,
  clientName: z.string(),
  responsible: Employee.nullable(),
  officeId: z.string().nullable(),
  locationId: z.string().nullable(),
  operationType: OperationType.nullable(),
  currency: Currency,
  amount: Money,
  taxAmount: Money,
  serviceSheets: z.array(z.string()),
  materialDocs: z.array(z.string()),
  purchaseOrders: z.array(z.string()),
  attachments: z.array(z.string()),
  issuedAt: IsoDate,
  scheduledAt: IsoDate.nullable(),
  paidAt: IsoDate.nullable(),
  xmlUrl: z.string().nullable(),
  pdfUrl: z.string().nullable(),
  disapprovedWithoutRejection: z.boolean(),
  notes: z.string().nullable(),
  statusHistory: z.array(StatusHistoryEntry),
  /** The MIRO posted in SAP for the approved invoice; absent until the MIRO worker posts it. */
  sapDocument: z.object({ number: z.string(), fiscalYear: z.string() }).nullable().optional(),
  /** SUNAT's answer about the document (estadoRuc and condDomiRuc as SUNAT's labels); absent until asked. */
  sunat: z
    .object({
      estadoCp: z.string(),
      estadoRuc: z.string().nullable(),
      condDomiRuc: z.string().nullable(),
      observaciones: z.array(z.string()),
      checkedAt: IsoDateTime,
    })
    .nullable()
    .optional(),
});
export type Invoice = z.infer<typeof Invoice>;

/** The invoice as its detail panel shows it: with the office location resolved. */
export const InvoiceDetail = Invoice.extend({ officeLocation: OfficeLocation.nullable() });
export type InvoiceDetail = z.infer<typeof InvoiceDetail>;

/** A row of the invoices table: the invoice without its history. */
export const InvoiceSummary = Invoice.omit({ statusHistory: true });
export type InvoiceSummary = z.infer<typeof InvoiceSummary>;

export const InvoiceKeyPath = z.object({
  supplierId: Ruc,
  invoiceType: InvoiceType,
  invoiceId: z.string().regex(/^[A-Z0-9]{1,4}-\d{1,8}$/, 'debe tener la forma SERIE-NÚMERO'),
});

/** GET /invoices: the invoice filter of spec §3, paginated. */
export const ListInvoicesQuery = PageQuery.extend({
  client: Ruc.optional(),
  search: z.string().trim().min(1).max(100).optional(),
  responsible: z.string().min(1).optional(),
  invoiceStatus: commaList(InvoiceStatus).optional(),
  invoiceType: commaList(InvoiceType).optional(),
  office: z.string().min(1).optional(),
  acquirer: Ruc.optional(),
  issuer: Ruc.optional(),
});

/** Create-invoice-without-XML form (spec §3). */
export const CreateInvoiceWithoutXmlBody = z.object({
  prefixId: z
    .string()
    .trim()
    .regex(/^[A-Z0-9]{4}$/, 'la serie tiene 4 caracteres'),
  numericId: z
    .string()
    .trim()
    .regex(/^\d{1,8}$/, 'el correlativo tiene de 1 a 8 dígitos'),
  type: InvoiceType,
  clientTaxId: Ruc,
  supplierTaxId: Ruc,
  supplierName: z.string().trim().min(1).max(200),
  currency: Currency,
  amount: Money.positive(),
  taxAmount: Money,
  issueDate: IsoDate,
  pdfUrl: z.string().min(1, 'Para crear un comprobante debe adjuntar un archivo PDF.'),
  notes: z.string().max(1000).optional(),
});

export const CreateInvoiceFromXmlBody = z.object({ url: z.string().min(1) });

/** PUT invoice: what the manager completes (spec §2 edit sidebar, §5 rules). */
export const UpdateInvoiceBody = z.object({
  operationType: OperationType,
  responsibleId: z.string().min(1),
  officeId: z.string().min(1),
  locationId: z.string().min(1),
  // Bounded so that one update, with its document claims and releases, fits in one transaction.
  purchaseOrders: z.array(z.string().trim().min(1).max(30)).max(20).default([]),
  serviceSheets: z.array(z.string().trim().min(1).max(30)).max(30).default([]),
  materialDocs: z.array(z.string().trim().min(1).max(30)).max(30).default([]),
  attachments: z.array(z.string().min(1).max(1024)).max(20).default([]),
});

export const DisapproveQuery = z.object({ noRejection: QueryBoolean.default(false) });
export const DisapproveBody = z.object({
  reason: z.string().trim().min(1, 'Por favor, ingrese el motivo de rechazo del comprobante.'),
});

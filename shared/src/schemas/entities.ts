import { z } from 'zod';
import { CertStatus, Currency, InvoiceStatus, InvoiceType, Level, OperationType } from '../domain.js';
import { IsoDate, IsoDateTime, Money, Ruc } from './common.js';

export const Employee = z.object({
  id: z.string(),
  fullName: z.string(),
  office: z.string(),
});
export type Employee = z.infer<typeof Employee>;

export const OfficeLocation = z.object({
  id: z.string(),
  location: z.string(),
  office: z.string(),
});
export type OfficeLocation = z.infer<typeof OfficeLocation>;

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

export const Client = z.object({
  taxId: Ruc,
  name: z.string(),
  address: z.string(),
  logo: z.string().nullable(),
  system_name: z.string(),
});
export type Client = z.infer<typeof Client>;

/** The signed-in user as the navigation guard sees it (spec §3 "Session user"). */
export const SessionUser = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  group: z.string().nullable(),
  email: z.string(),
  level: Level,
  taxId: z.string().nullable(),
});
export type SessionUser = z.infer<typeof SessionUser>;

export const ConformityDocument = z.object({
  fiscalYear: z.string(),
  issuerTaxId: Ruc,
  acquirerTaxId: Ruc,
  documentId: z.string(),
  deliveryNote: z.string().nullable(),
  purchaseOrder: z.string(),
  associatedInvoice: z.string().nullable(),
  amount: Money,
  currency: Currency,
  responsible: z.string().nullable(),
});
export type ConformityDocument = z.infer<typeof ConformityDocument>;

export const DashboardCounts = z.object({
  pending: z.number().int(),
  completed: z.number().int(),
  accepted: z.number().int(),
  rejected: z.number().int(),
  scheduled: z.number().int(),
  paid: z.number().int(),
  invService: z.number().int(),
  invGoods: z.number().int(),
  invUnassigned: z.number().int(),
  invWithoutPurchaseOrder: z.number().int(),
});
export type DashboardCounts = z.infer<typeof DashboardCounts>;

export const Notification = z.object({
  id: z.string(),
  registeredAt: IsoDateTime,
  isRead: z.boolean(),
  message: z.string(),
  reference: z.object({ issuerTaxId: Ruc, invoiceType: InvoiceType, invoiceId: z.string() }).partial().nullable(),
});
export type Notification = z.infer<typeof Notification>;

export const InternalUser = z.object({
  id: z.string(),
  taxId: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  role: Level,
  companyName: z.string().nullable(),
  email: z.string(),
});
export type InternalUser = z.infer<typeof InternalUser>;

export const ExternalUser = InternalUser.extend({ canReceiveEmails: z.boolean() });
export type ExternalUser = z.infer<typeof ExternalUser>;

/** A supplier of the header search (spec §2 Header): RUC and business name. */
export const SupplierProfile = z.object({ taxId: Ruc, name: z.string() });
export type SupplierProfile = z.infer<typeof SupplierProfile>;

/** A presigned POST: the browser sends the file straight to S3 with these fields, within the limits. */
export const UploadTicket = z.object({
  key: z.string(),
  url: z.string(),
  fields: z.record(z.string(), z.string()),
  expiresAt: IsoDateTime,
  maxBytes: z.number().int(),
});
export type UploadTicket = z.infer<typeof UploadTicket>;

/** A short-lived presigned GET for one file of an invoice. */
export const FileLink = z.object({ url: z.string(), expiresAt: IsoDateTime, fileName: z.string() });
export type FileLink = z.infer<typeof FileLink>;

import * as z from 'zod';
import { Currency, InvoiceStatus, InvoiceType, OperationType } from '../domain.js';
import { IsoDate, Money, PageQuery, QueryBoolean, Ruc, commaList } from './common.js';

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

export const DashboardQuery = z.object({
  client: Ruc,
  period: z
    .string()
    .regex(/^(0[1-9]|1[0-2])\/\d{4}$/, 'use el formato MM/AAAA')
    .optional(),
});

export const ConformityQuery = PageQuery.extend({
  acquirer: Ruc,
  issuer: Ruc.optional(),
  responsible: z.string().min(1).optional(),
});

export const AvailabilityPath = z.object({ id: z.string().min(1).max(30) });
export const AvailabilityQuery = z.object({ acquirer: Ruc, issuer: Ruc });

export const EmployeesQuery = z.object({ acquirer: Ruc, q: z.string().trim().max(100).optional() });
export const OfficeLocationsQuery = z.object({ taxId: Ruc });

/** A Cognito Username (the API's userId): Cognito's own pattern, letters, marks, symbols, digits, punctuation. */
const UserId = z.string().regex(/^[\p{L}\p{M}\p{S}\p{N}\p{P}]{1,128}$/u, 'no es un identificador de usuario válido');
export const UserPath = z.object({ userId: UserId });

/** User listings page through Cognito: their cursor wraps Cognito's PaginationToken, hence the longer bound. */
const UserPageQuery = PageQuery.extend({ cursor: z.string().min(1).max(4096).optional() });

/** Suppliers' accounts: an e-mail prefix (with '@'), a RUC prefix (digits) or a business-name prefix. */
export const ExternalUsersQuery = UserPageQuery.extend({ query: z.string().trim().max(100).optional() });
export const InternalUsersQuery = UserPageQuery;
export const AssignClientQuery = z.object({ client: Ruc });
export const WhitelistQuery = z.object({ include: QueryBoolean });

/** A supplier's account, created by an administrator; the RUC's check digit is verified by the use case. */
export const CreateExternalUserBody = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email('no es un correo electrónico válido').max(254)),
  firstName: z.string().trim().min(1).max(100),
  lastName: z.string().trim().min(1).max(100),
  taxId: Ruc,
  /** The supplier's business name: kept in the supplier directory when the RUC is new to it. */
  businessName: z.string().trim().min(1).max(200),
  canReceiveEmails: z.boolean().default(true),
});

/** Turns e-mail reception on or off for many supplier accounts at once (Suppliers screen, spec §2). */
export const WhitelistBulkBody = z.object({
  userIds: z
    .array(UserId)
    .min(1)
    .max(100)
    .refine((ids) => new Set(ids).size === ids.length, 'no debe repetir usuarios'),
});

/** The administration log, newest first; `userId` narrows it to the changes made to one account. */
export const AuditEventsQuery = PageQuery.extend({ userId: UserId.optional() });

export const MarkAsReadBody = z.object({ upTo: z.iso.datetime({ offset: true }).optional() });

/** Header search of suppliers: a RUC prefix (digits) or a business-name prefix. */
export const SearchSuppliersQuery = PageQuery.extend({ query: z.string().trim().min(2).max(100) });

export const UPLOAD_PURPOSES = ['INVOICE_XML', 'INVOICE_PDF', 'ATTACHMENT'] as const;

/** POST /uploads: the file the browser is about to send; the server makes the key. */
export const CreateUploadBody = z.object({
  purpose: z.enum(UPLOAD_PURPOSES),
  fileName: z.string().trim().min(1).max(200),
  contentType: z.string().trim().min(1).max(100),
  size: z.number().int().positive(),
});

/** GET …/files: which of the invoice's files to open (its XML, its PDF, or an attachment by position). */
export const InvoiceFileQuery = z.object({
  file: z.enum(['xml', 'pdf', 'attachment']),
  index: z.coerce.number().int().min(0).max(19).optional(),
});

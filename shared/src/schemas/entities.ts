import * as z from 'zod';
import { CertStatus, Currency, InvoiceStatus, InvoiceType, Level, OperationType } from '../domain.js';
import { ERROR_CODES, type ErrorCode } from '../errors/catalogue.js';
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

/**
 * Cognito's account states (UserStatusType) with the Spanish label the user screens show. The schemas
 * accept any string: a state Cognito adds later must not break a listing.
 */
export const USER_STATUS_LABELS: Readonly<Record<string, string>> = {
  CONFIRMED: 'Activo',
  FORCE_CHANGE_PASSWORD: 'Invitación pendiente',
  RESET_REQUIRED: 'Debe restablecer su contraseña',
  EXTERNAL_PROVIDER: 'Cuenta corporativa',
  UNCONFIRMED: 'Sin confirmar',
  COMPROMISED: 'Comprometido',
  ARCHIVED: 'Archivado',
  UNKNOWN: 'Desconocido',
};

/**
 * A staff account (spec §3 "Internal user"): a corporate SSO user of the pool. `taxId` is its comma
 * list of companies, `companyName` their names in the same order, comma-separated.
 */
export const InternalUser = z.object({
  id: z.string(),
  taxId: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  role: Level,
  companyName: z.string().nullable(),
  email: z.string(),
  /** False once an administrator disabled the account: it cannot sign in. */
  enabled: z.boolean(),
  /** Cognito's account state (see USER_STATUS_LABELS), e.g. FORCE_CHANGE_PASSWORD until the first sign-in. */
  status: z.string(),
  createdAt: IsoDateTime.nullable(),
});
export type InternalUser = z.infer<typeof InternalUser>;

/** A supplier account (spec §3 "External user"): `companyName` is the business name of its RUC. */
export const ExternalUser = InternalUser.extend({ canReceiveEmails: z.boolean() });
export type ExternalUser = z.infer<typeof ExternalUser>;

/** A supplier account just created: whether its invitation e-mail left (else: reset-password sends another). */
export const CreatedExternalUser = ExternalUser.extend({ invitationSent: z.boolean() });
export type CreatedExternalUser = z.infer<typeof CreatedExternalUser>;

/** How a password reset reached the supplier: a code from Cognito, or a new invitation with a temporary password. */
export const PASSWORD_RESET_DELIVERIES = ['RESET_CODE', 'INVITATION'] as const;
export const PasswordResetResult = z.object({
  delivery: z.enum(PASSWORD_RESET_DELIVERIES),
  message: z.string(),
});
export type PasswordResetResult = z.infer<typeof PasswordResetResult>;

/** One account of a bulk change: a failure names its code, and the others go on. */
export const BulkUserResult = z.object({
  userId: z.string(),
  ok: z.boolean(),
  /** `code` null: an unexpected failure (logged with the txId), as in spec §8's display rule. */
  error: z
    .object({ code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]).nullable(), message: z.string() })
    .optional(),
});
export type BulkUserResult = z.infer<typeof BulkUserResult>;

export const AUDIT_ACTIONS = [
  'USER_CREATED',
  'PASSWORD_RESET_STARTED',
  'INVITATION_RESENT',
  'USER_DISABLED',
  'USER_ENABLED',
  'CLIENT_ASSIGNED',
  'CLIENT_UNASSIGNED',
  'EMAIL_NOTIFICATIONS_CHANGED',
] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditAction>;

export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  USER_CREATED: 'Creación de usuario',
  PASSWORD_RESET_STARTED: 'Restablecimiento de contraseña',
  INVITATION_RESENT: 'Reenvío de invitación',
  USER_DISABLED: 'Usuario deshabilitado',
  USER_ENABLED: 'Usuario habilitado',
  CLIENT_ASSIGNED: 'Sociedad asignada',
  CLIENT_UNASSIGNED: 'Sociedad retirada',
  EMAIL_NOTIFICATIONS_CHANGED: 'Recepción de correos',
};

/** The attributes an administration change touched, as they were before and after it. */
export const AuditValues = z.record(z.string(), z.union([z.string(), z.boolean(), z.null()]));
export type AuditValues = z.infer<typeof AuditValues>;

/** One change made by an administrator: who, when, to whom, what it was and what it became. */
export const AuditEvent = z.object({
  id: z.string(),
  occurredAt: IsoDateTime,
  action: AuditAction,
  actor: z.object({ id: z.string(), email: z.string() }),
  target: z.object({ userId: z.string(), email: z.string() }),
  before: AuditValues.nullable(),
  after: AuditValues.nullable(),
  txId: z.string(),
});
export type AuditEvent = z.infer<typeof AuditEvent>;

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

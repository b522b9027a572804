import * as z from 'zod/mini';

/** Session levels (spec §6). UNKNOWN is the default for a token without a recognisable level. */
export const LEVELS = ['SUPPLIER', 'MANAGER', 'ADMIN', 'UNKNOWN'] as const;
export const Level = z.enum(LEVELS);
export type Level = z.infer<typeof Level>;

export const INVOICE_TYPES = [
  'FACTURA',
  'BOLETA',
  'NOTA_DE_CREDITO',
  'NOTA_DE_DEBITO',
  'RECIBO_POR_HONORARIOS',
  'RECIBO',
] as const;
export const InvoiceType = z.enum(INVOICE_TYPES);
export type InvoiceType = z.infer<typeof InvoiceType>;

export const INVOICE_STATUSES = ['PENDING', 'COMPLETED', 'ACCEPTED', 'REJECTED', 'SCHEDULED', 'PAID'] as const;
export const InvoiceStatus = z.enum(INVOICE_STATUSES);
export type InvoiceStatus = z.infer<typeof InvoiceStatus>;

export const CERT_STATUSES = ['PENDING', 'INVALID', 'VALID'] as const;
export const CertStatus = z.enum(CERT_STATUSES);
export type CertStatus = z.infer<typeof CertStatus>;

export const OPERATION_TYPES = [
  'SERVICES',
  'GOODS',
  'GOOD_AND_SERVICE',
  'TRANSPORT',
  'WITHOUT_PURCHASE_ORDER',
] as const;
export const OperationType = z.enum(OPERATION_TYPES);
export type OperationType = z.infer<typeof OperationType>;

export const CURRENCIES = ['PEN', 'USD'] as const;
export const Currency = z.enum(CURRENCIES);
export type Currency = z.infer<typeof Currency>;
export const DEFAULT_CURRENCY: Currency = 'PEN';

export const DOCUMENT_KINDS = ['SERVICE_SHEET', 'PURCHASE_ORDER', 'MATERIAL_DOCUMENT'] as const;
export const DocumentKind = z.enum(DOCUMENT_KINDS);
export type DocumentKind = z.infer<typeof DocumentKind>;

/** Spanish labels for everything a user reads. */
export const LEVEL_LABELS: Record<Level, string> = {
  SUPPLIER: 'Proveedor',
  MANAGER: 'Gestor',
  ADMIN: 'Administrador',
  UNKNOWN: 'Desconocido',
};

export const INVOICE_TYPE_LABELS: Record<InvoiceType, string> = {
  FACTURA: 'Factura',
  BOLETA: 'Boleta',
  NOTA_DE_CREDITO: 'Nota de crédito',
  NOTA_DE_DEBITO: 'Nota de débito',
  RECIBO_POR_HONORARIOS: 'Recibo por honorarios',
  RECIBO: 'Recibo',
};

export const INVOICE_STATUS_LABELS: Record<InvoiceStatus, string> = {
  PENDING: 'Debe revisar',
  COMPLETED: 'Completado',
  ACCEPTED: 'Aceptado',
  REJECTED: 'Rechazado',
  SCHEDULED: 'Pago programado',
  PAID: 'Pagado',
};

export const INVOICE_STATUS_DESCRIPTIONS: Record<InvoiceStatus, string> = {
  PENDING: 'Datos por completar',
  COMPLETED: 'Datos completados',
  ACCEPTED: 'Aceptado, a la espera de programación de pago',
  REJECTED: 'Rechazado',
  SCHEDULED: 'Pago programado',
  PAID: 'Pago realizado',
};

export const CERT_STATUS_LABELS: Record<CertStatus, string> = {
  PENDING: 'Por validar',
  INVALID: 'No válido',
  VALID: 'Válido',
};

export const OPERATION_TYPE_LABELS: Record<OperationType, string> = {
  SERVICES: 'Servicios',
  GOODS: 'Bienes',
  GOOD_AND_SERVICE: 'Bienes y servicios',
  TRANSPORT: 'Transporte',
  WITHOUT_PURCHASE_ORDER: 'Sin orden de compra',
};

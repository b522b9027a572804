import type { StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import type { CertStatus, InvoiceStatus } from '@portal/shared';

/**
 * How each invoice status is drawn: in the invoices table, the detail's sidebar and the header's status legend, so
 * that a status reads alike wherever it shows.
 */
export const INVOICE_STATUS_INDICATOR: Record<InvoiceStatus, StatusIndicatorProps.Type> = {
  PENDING: 'warning',
  COMPLETED: 'info',
  ACCEPTED: 'success',
  REJECTED: 'error',
  SCHEDULED: 'pending',
  PAID: 'success',
};

/** How each SUNAT status is drawn, in the invoices table and the detail's sidebar. */
export const CERT_STATUS_INDICATOR: Record<CertStatus, StatusIndicatorProps.Type> = {
  PENDING: 'pending',
  INVALID: 'error',
  VALID: 'success',
};

import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import { CERT_STATUS_LABELS, INVOICE_STATUS_LABELS, type CertStatus, type InvoiceStatus } from '@portal/shared';

/*
 * How a status is drawn, wherever it appears: the invoices list, the header's legend and the detail's
 * badges read alike because they all draw it here.
 */

/** The Cloudscape indicator of each invoice status (spec §4). */
export const INVOICE_STATUS_INDICATOR: Record<InvoiceStatus, StatusIndicatorProps.Type> = {
  PENDING: 'warning',
  COMPLETED: 'info',
  ACCEPTED: 'success',
  REJECTED: 'error',
  SCHEDULED: 'pending',
  PAID: 'success',
};

/** The Cloudscape indicator of each SUNAT validation (CDR) status. */
export const CERT_STATUS_INDICATOR: Record<CertStatus, StatusIndicatorProps.Type> = {
  PENDING: 'pending',
  INVALID: 'error',
  VALID: 'success',
};

/** An invoice status, with its Spanish label. */
export function InvoiceStatusIndicator({ status }: { status: InvoiceStatus }) {
  return <StatusIndicator type={INVOICE_STATUS_INDICATOR[status]}>{INVOICE_STATUS_LABELS[status]}</StatusIndicator>;
}

/** A SUNAT validation status, with its Spanish label. */
export function CertStatusIndicator({ status }: { status: CertStatus }) {
  return <StatusIndicator type={CERT_STATUS_INDICATOR[status]}>{CERT_STATUS_LABELS[status]}</StatusIndicator>;
}

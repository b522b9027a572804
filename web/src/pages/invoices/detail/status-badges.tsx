import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import { CERT_STATUS_LABELS, INVOICE_STATUS_LABELS, type CertStatus, type InvoiceStatus } from '@portal/shared';
import { STATUS_INDICATOR } from '../columns';

/*
 * The sidebar shows statuses with the labels and colours of the invoices table, so that a status reads
 * alike in the row and beside it: the invoice status through the table's own mapping.
 */
const CERT_STATUS_INDICATOR: Record<CertStatus, StatusIndicatorProps.Type> = {
  PENDING: 'pending',
  INVALID: 'error',
  VALID: 'success',
};

export function InvoiceStatusBadge({ status }: { status: InvoiceStatus }) {
  return <StatusIndicator type={STATUS_INDICATOR[status]}>{INVOICE_STATUS_LABELS[status]}</StatusIndicator>;
}

export function CertStatusBadge({ status }: { status: CertStatus }) {
  return <StatusIndicator type={CERT_STATUS_INDICATOR[status]}>{CERT_STATUS_LABELS[status]}</StatusIndicator>;
}

import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { CERT_STATUS_LABELS, INVOICE_STATUS_LABELS, type CertStatus, type InvoiceStatus } from '@portal/shared';
import { CERT_STATUS_INDICATOR, INVOICE_STATUS_INDICATOR } from '../../../components/status-indicators';

/* The sidebar shows statuses with the labels and colours of the invoices table: a status reads alike in the row and beside it. */
export function InvoiceStatusBadge({ status }: { status: InvoiceStatus }) {
  return <StatusIndicator type={INVOICE_STATUS_INDICATOR[status]}>{INVOICE_STATUS_LABELS[status]}</StatusIndicator>;
}

export function CertStatusBadge({ status }: { status: CertStatus }) {
  return <StatusIndicator type={CERT_STATUS_INDICATOR[status]}>{CERT_STATUS_LABELS[status]}</StatusIndicator>;
}

import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import type { TableProps } from '@cloudscape-design/components/table';
import {
  CERT_STATUS_LABELS,
  INVOICE_STATUS_LABELS,
  INVOICE_TYPE_LABELS,
  formatDate,
  formatMoney,
  type CertStatus,
  type InvoiceStatus,
  type InvoiceSummary,
} from '@portal/shared';
import { messages } from '../../messages';

const text = messages.invoices;

const STATUS_INDICATOR: Record<InvoiceStatus, StatusIndicatorProps.Type> = {
  PENDING: 'warning',
  COMPLETED: 'info',
  ACCEPTED: 'success',
  REJECTED: 'error',
  SCHEDULED: 'pending',
  PAID: 'success',
};

const CERT_STATUS_INDICATOR: Record<CertStatus, StatusIndicatorProps.Type> = {
  PENDING: 'pending',
  INVALID: 'error',
  VALID: 'success',
};

/** The invoice number people read: SERIE-CORRELATIVO, or the id when either part is missing. */
export function invoiceNumber(invoice: InvoiceSummary): string {
  return invoice.prefixId && invoice.numericId ? `${invoice.prefixId}-${invoice.numericId}` : invoice.id;
}

/**
 * Which files the invoice has. They are named, not linked: the stored keys are not URLs, and the
 * downloads (short-lived presigned GETs, tenant-checked) arrive with the document-intake work.
 */
function FileKinds({ invoice }: { invoice: InvoiceSummary }) {
  const kinds = [invoice.xmlUrl ? text.xml : null, invoice.pdfUrl ? text.pdf : null].filter(Boolean);
  return <>{kinds.length === 0 ? text.noFile : kinds.join(' · ')}</>;
}

/** The ten columns of spec §2 Invoices. */
export const INVOICE_COLUMNS: TableProps.ColumnDefinition<InvoiceSummary>[] = [
  {
    id: 'number',
    header: text.columns.number,
    cell: (invoice) => <span data-testid="invoice-number">{invoiceNumber(invoice)}</span>,
    isRowHeader: true,
  },
  { id: 'type', header: text.columns.type, cell: (invoice) => INVOICE_TYPE_LABELS[invoice.type] },
  {
    id: 'certStatus',
    header: text.columns.certStatus,
    cell: (invoice) => (
      <StatusIndicator type={CERT_STATUS_INDICATOR[invoice.certStatus]}>
        {CERT_STATUS_LABELS[invoice.certStatus]}
      </StatusIndicator>
    ),
  },
  {
    id: 'client',
    header: text.columns.client,
    cell: (invoice) => (
      <span data-testid="invoice-client" data-client-id={invoice.client}>
        {invoice.clientName}
      </span>
    ),
  },
  { id: 'file', header: text.columns.file, cell: (invoice) => <FileKinds invoice={invoice} /> },
  {
    id: 'supplier',
    header: text.columns.supplier,
    cell: (invoice) => (
      <span data-testid="invoice-supplier" data-supplier-id={invoice.supplierId}>
        {text.supplier(invoice.supplierName, invoice.supplierId)}
      </span>
    ),
  },
  {
    id: 'amount',
    header: text.columns.amount,
    cell: (invoice) => formatMoney(invoice.amount, invoice.currency),
  },
  { id: 'issuedAt', header: text.columns.issuedAt, cell: (invoice) => formatDate(invoice.issuedAt) },
  {
    id: 'paymentDate',
    header: text.columns.paymentDate,
    cell: (invoice) => formatDate(invoice.paidAt ?? invoice.scheduledAt),
  },
  {
    id: 'status',
    header: text.columns.status,
    cell: (invoice) => (
      <StatusIndicator type={STATUS_INDICATOR[invoice.status]}>{INVOICE_STATUS_LABELS[invoice.status]}</StatusIndicator>
    ),
  },
];

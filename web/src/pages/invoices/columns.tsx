import Link from '@cloudscape-design/components/link';
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

function FileLinks({ invoice }: { invoice: InvoiceSummary }) {
  const candidates: { kind: string; url: string | null }[] = [
    { kind: text.xml, url: invoice.xmlUrl },
    { kind: text.pdf, url: invoice.pdfUrl },
  ];
  const files = candidates.flatMap((file) => (file.url ? [{ kind: file.kind, url: file.url }] : []));
  if (files.length === 0) return <>{text.noFile}</>;
  return (
    <span style={{ display: 'inline-flex', gap: '0.5rem' }}>
      {files.map((file) => (
        <Link
          key={file.kind}
          href={file.url}
          target="_blank"
          rel="noopener noreferrer"
          ariaLabel={text.fileLinkLabel(file.kind, invoiceNumber(invoice))}
        >
          {file.kind}
        </Link>
      ))}
    </span>
  );
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
  { id: 'client', header: text.columns.client, cell: (invoice) => invoice.clientName },
  { id: 'file', header: text.columns.file, cell: (invoice) => <FileLinks invoice={invoice} /> },
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

import { useNavigate } from 'react-router-dom';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import type { TableProps } from '@cloudscape-design/components/table';
import { formatMoney, type ConformityDocument, type ConformityKind } from '@portal/shared';
import { conformityMessages as text } from './messages';
import { ActionLink } from '../../components/action-link';

/** Where the invoices screen lists one invoice: its search by invoice number. */
export function invoiceSearchHref(invoiceNumber: string): string {
  return `/invoices?${new URLSearchParams({ search: invoiceNumber }).toString()}`;
}

/** The invoice that holds the document, opened in the invoices screen; 'Disponible' while free. */
function AssociatedInvoice({ invoice }: { invoice: string | null }) {
  const navigate = useNavigate();
  if (!invoice) return <StatusIndicator type="success">{text.available}</StatusIndicator>;
  const href = invoiceSearchHref(invoice);
  return (
    <ActionLink href={href} ariaLabel={text.openInvoice(invoice)} onFollow={() => navigate(href)}>
      {invoice}
    </ActionLink>
  );
}

/** The eight columns of spec §2 "Service sheets" (and "Material documents", the same shape). */
export function conformityColumns(kind: ConformityKind): TableProps.ColumnDefinition<ConformityDocument>[] {
  return [
    { id: 'fiscalYear', header: text.columns.fiscalYear, cell: (doc) => doc.fiscalYear },
    { id: 'issuer', header: text.columns.issuer, cell: (doc) => doc.issuerTaxId },
    { id: 'acquirer', header: text.columns.acquirer, cell: (doc) => doc.acquirerTaxId },
    {
      id: 'documentId',
      header: text.kind[kind].documentColumn,
      cell: (doc) => <span data-testid="conformity-document">{doc.documentId}</span>,
      isRowHeader: true,
    },
    { id: 'deliveryNote', header: text.columns.deliveryNote, cell: (doc) => doc.deliveryNote ?? text.noDeliveryNote },
    { id: 'purchaseOrder', header: text.columns.purchaseOrder, cell: (doc) => doc.purchaseOrder },
    { id: 'amount', header: text.columns.amount, cell: (doc) => formatMoney(doc.amount, doc.currency) },
    {
      id: 'associatedInvoice',
      header: text.columns.associatedInvoice,
      cell: (doc) => <AssociatedInvoice invoice={doc.associatedInvoice} />,
    },
  ];
}

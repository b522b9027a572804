import SpaceBetween from '@cloudscape-design/components/space-between';
import Badge from '@cloudscape-design/components/badge';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import type { TableProps } from '@cloudscape-design/components/table';
import {
  CERT_STATUS_LABELS,
  INVOICE_STATUSES,
  INVOICE_TYPE_LABELS,
  formatDate,
  formatMoney,
  paymentOutlook,
  rucRiskOf,
  rucRiskText,
  sapPostingMark,
  todayInLima,
  type InvoiceSummary,
} from '@portal/shared';
import { CertStatusIndicator, InvoiceStatusIndicator } from '../../components/status-indicators';
import { ConformityStatus } from './acquirer-conformity/conformity-status';
import { conformityMessages } from './acquirer-conformity/messages';
import { FileActions } from './file-actions';
import { invoiceNumber } from './invoice-number';
import { invoicesMessages } from './messages';
import { paymentMessages } from './payment-messages';
import type { ColumnWidths, InvoiceColumnId } from './table-preferences';
import { ActionLink } from '../../components/action-link';

const text = invoicesMessages;

/** Which files the invoice has, as the 'Archivo' column shows them. */
export function fileKinds(invoice: InvoiceSummary): string {
  const kinds = [invoice.xmlUrl ? text.xml : null, invoice.pdfUrl ? text.pdf : null].filter(Boolean);
  return kinds.length === 0 ? text.noFile : kinds.join(' · ');
}

const byText = (a: string, b: string) => a.localeCompare(b, 'es-PE', { numeric: true, sensitivity: 'base' });
/** Missing dates sort after every date. */
const byDate = (a: string | null, b: string | null) => (a ?? '9999').localeCompare(b ?? '9999');

/** An approved invoice whose SAP posting failed or is late, marked under its status. */
function SapPostingMark({ invoice }: { invoice: InvoiceSummary }) {
  const mark = sapPostingMark(invoice, new Date());
  if (!mark) return null;
  return (
    <span data-testid="invoice-sap-posting" data-sap-posting={mark}>
      <br />
      <StatusIndicator type={mark === 'FAILED' ? 'error' : 'warning'}>{text.sapPosting[mark]}</StatusIndicator>
    </span>
  );
}

/** Staff marked it "Observada": a badge beside the status, never a status of its own. */
function ObservedMark({ invoice }: { invoice: InvoiceSummary }) {
  if (!invoice.observation) return null;
  return (
    <span data-testid="invoice-observed">
      <br />
      <Badge color="severity-medium">{text.observedBadge}</Badge>
    </span>
  );
}

/** A supplier SUNAT does not report ACTIVO and HABIDO, marked under the status (the RUC risk gate). */
function RucRiskMark({ invoice }: { invoice: InvoiceSummary }) {
  const risk = rucRiskOf(invoice.sunat);
  if (!risk) return null;
  return (
    <span data-testid="invoice-ruc-risk" title={text.rucRisk.title(rucRiskText(risk))}>
      <br />
      <StatusIndicator type="warning">
        {text.rucRisk.mark(risk.condDomiRuc !== 'HABIDO' ? risk.condDomiRuc : risk.estadoRuc)}
      </StatusIndicator>
    </span>
  );
}

/** A note's original under its type; one not in the portal is said so. */
function NoteOriginalMark({ invoice }: { invoice: InvoiceSummary }) {
  const reference = invoice.billingReference;
  if (!reference) return null;
  return (
    <span data-testid="invoice-note-original" data-in-portal={String(invoice.originalInPortal !== false)}>
      <br />
      {invoice.originalInPortal === false ? (
        <StatusIndicator type="info">{text.notes.notInPortal(reference.id)}</StatusIndicator>
      ) : (
        <small>{text.notes.of(reference.id)}</small>
      )}
    </span>
  );
}

/**
 * When the invoice is paid, as far as anyone knows: the day SAP paid it or scheduled it; before that, the day the
 * portal expects it paid (docs/ap-payment.md: its due date moved to the company's payment-run day), marked as an
 * estimate. A rejected invoice, or one with nothing to pay, has none.
 */
function paymentDateOf(invoice: InvoiceSummary): { date: string | null; estimated: boolean } {
  const known = invoice.paidAt ?? invoice.scheduledAt;
  if (known) return { date: known, estimated: false };
  const expected = invoice.status === 'REJECTED' ? null : (invoice.payment?.expectedPaymentDate ?? null);
  return { date: expected, estimated: expected !== null };
}

/** The 'Fecha de pago' column's cell, and a phone card's payment date. */
export function PaymentDateCell({ invoice }: { invoice: InvoiceSummary }) {
  const { date, estimated } = paymentDateOf(invoice);
  const payment = invoice.payment;
  if (!estimated) return <span data-testid="invoice-payment-date">{formatDate(date)}</span>;
  // An estimate that passed unpaid reads as overdue since the due date, as the panel says (paymentOutlook).
  const outlook = paymentOutlook(payment, todayInLima());
  if (outlook.kind === 'OVERDUE') {
    return (
      <span data-testid="invoice-payment-date" data-overdue-since={outlook.since} title={paymentMessages.overdueHint}>
        {paymentMessages.overdue(formatDate(outlook.since))}
      </span>
    );
  }
  return (
    <span
      data-testid="invoice-payment-date"
      data-estimated="true"
      title={
        payment?.movedToPaymentRun && payment.dueDate
          ? paymentMessages.movedHint(formatDate(payment.dueDate))
          : paymentMessages.estimatedHint
      }
    >
      <span data-testid="invoice-expected-payment">{formatDate(date)}</span> {paymentMessages.estimated}
    </span>
  );
}

export interface ColumnHandlers {
  /** The address of the invoice's detail (a deep link), so that it also opens in a new tab. */
  readonly detailHref: (invoice: InvoiceSummary) => string;
  readonly onOpenDetail: (invoice: InvoiceSummary) => void;
  readonly onFileAction: (action: 'xml' | 'pdf' | 'attachments', invoice: InvoiceSummary) => void;
}

/*
 * The cells of the list, one component each: the table's columns and a phone's cards (invoice-cards.tsx) show an
 * invoice alike because both draw it with these.
 */

/** The invoice number, linking to its detail (its own address, which the list opens beside itself). */
export function NumberCell({
  invoice,
  handlers,
}: {
  invoice: InvoiceSummary;
  handlers: Pick<ColumnHandlers, 'detailHref' | 'onOpenDetail'>;
}) {
  const number = invoiceNumber(invoice);
  return (
    <ActionLink
      href={handlers.detailHref(invoice)}
      ariaLabel={text.openDetail(number)}
      onFollow={() => handlers.onOpenDetail(invoice)}
    >
      {/* Whose invoice the row is, whichever party columns show. */}
      <span data-testid="invoice-number" data-supplier-id={invoice.supplierId} data-client-id={invoice.client}>
        {number}
      </span>
    </ActionLink>
  );
}

export function TypeCell({ invoice }: { invoice: InvoiceSummary }) {
  return (
    <>
      <span data-testid="invoice-type">{INVOICE_TYPE_LABELS[invoice.type]}</span>
      <NoteOriginalMark invoice={invoice} />
    </>
  );
}

/** The company the invoice was issued to. */
export function ClientCell({ invoice }: { invoice: InvoiceSummary }) {
  return (
    <span data-testid="invoice-client" data-client-id={invoice.client}>
      {invoice.clientName}
    </span>
  );
}

/** The supplier that issued it, with its RUC. */
export function SupplierCell({ invoice }: { invoice: InvoiceSummary }) {
  return (
    <span data-testid="invoice-supplier" data-supplier-id={invoice.supplierId}>
      {text.supplier(invoice.supplierName, invoice.supplierId)}
    </span>
  );
}

/** The amount in its currency, marked when there is nothing to pay or notes changed what is paid. */
export function AmountCell({ invoice }: { invoice: InvoiceSummary }) {
  return (
    <>
      <span data-testid="invoice-amount">{formatMoney(invoice.amount, invoice.currency)}</span>
      {invoice.breakdown?.freeOfCharge && (
        <span data-testid="invoice-free-of-charge">
          <br />
          <StatusIndicator type="info">{text.freeOfCharge}</StatusIndicator>
        </span>
      )}
      {/* An original with notes: what is paid for it now, beside its own amount. */}
      {invoice.noteAdjustments && invoice.amountToPay != null && (
        <span data-testid="invoice-amount-to-pay">
          <br />
          <small>{text.notes.toPay(formatMoney(invoice.amountToPay, invoice.currency))}</small>
        </span>
      )}
    </>
  );
}

/** The status, with the marks under it: 'Observada', a SAP posting to watch, a supplier's RUC at risk. */
export function StatusCell({ invoice }: { invoice: InvoiceSummary }) {
  return (
    <span data-testid="invoice-status" data-status={invoice.status}>
      <InvoiceStatusIndicator status={invoice.status} />
      <ObservedMark invoice={invoice} />
      <SapPostingMark invoice={invoice} />
      <RucRiskMark invoice={invoice} />
    </span>
  );
}

/** Which files the invoice has, and the menu of its file actions. */
export function FilesCell({
  invoice,
  onFileAction,
}: {
  invoice: InvoiceSummary;
  onFileAction: ColumnHandlers['onFileAction'];
}) {
  return (
    <SpaceBetween direction="horizontal" size="xxs" alignItems="center">
      <span data-testid="invoice-files">{fileKinds(invoice)}</span>
      <FileActions invoice={invoice} label={invoiceNumber(invoice)} onAction={onFileAction} />
    </SpaceBetween>
  );
}

/**
 * Default widths in pixels: the number, type, other party, amount and status fit a 1366 px laptop beside the
 * menu (about 1,040 px of table), and every column fits at 1920 px.
 */
export const COLUMN_WIDTHS: Readonly<Record<InvoiceColumnId, { width: number; minWidth: number }>> = {
  number: { width: 135, minWidth: 120 },
  type: { width: 120, minWidth: 100 },
  client: { width: 190, minWidth: 140 },
  supplier: { width: 190, minWidth: 140 },
  amount: { width: 140, minWidth: 120 },
  status: { width: 160, minWidth: 140 },
  certStatus: { width: 160, minWidth: 120 },
  issuedAt: { width: 185, minWidth: 120 },
  paymentDate: { width: 150, minWidth: 120 },
  file: { width: 120, minWidth: 110 },
  acquirerConformity: { width: 250, minWidth: 170 },
};

type InvoiceColumn = TableProps.ColumnDefinition<InvoiceSummary> & { readonly id: InvoiceColumnId };

/**
 * The ten columns of spec §2 Invoices, in the order a clerk reads them (table-preferences.ts holds which
 * show, in what order and the widths the user gave them); a long name is cut with an ellipsis unless lines
 * wrap (a preference).
 * The API lists newest first and has no other order, so every column sorts the page on screen
 * (client-side); the next page comes in the API's order. The file column holds the row's file actions.
 */
export function invoiceColumns(handlers: ColumnHandlers, widths: ColumnWidths = {}): InvoiceColumn[] {
  const columns: InvoiceColumn[] = [
    {
      id: 'number',
      header: text.columns.number,
      ...COLUMN_WIDTHS.number,
      cell: (invoice) => <NumberCell invoice={invoice} handlers={handlers} />,
      isRowHeader: true,
      sortingComparator: (a, b) => byText(invoiceNumber(a), invoiceNumber(b)),
    },
    {
      id: 'type',
      header: text.columns.type,
      ...COLUMN_WIDTHS.type,
      cell: (invoice) => <TypeCell invoice={invoice} />,
      sortingComparator: (a, b) => byText(INVOICE_TYPE_LABELS[a.type], INVOICE_TYPE_LABELS[b.type]),
    },
    {
      id: 'client',
      header: text.columns.client,
      ...COLUMN_WIDTHS.client,
      cell: (invoice) => <ClientCell invoice={invoice} />,
      sortingComparator: (a, b) => byText(a.clientName, b.clientName),
    },
    {
      id: 'supplier',
      header: text.columns.supplier,
      ...COLUMN_WIDTHS.supplier,
      cell: (invoice) => <SupplierCell invoice={invoice} />,
      sortingComparator: (a, b) => byText(a.supplierName, b.supplierName),
    },
    {
      id: 'amount',
      header: text.columns.amount,
      ...COLUMN_WIDTHS.amount,
      cell: (invoice) => <AmountCell invoice={invoice} />,
      // Amounts compare within a currency: soles first, then dollars.
      sortingComparator: (a, b) => byText(a.currency, b.currency) || a.amount - b.amount,
    },
    {
      id: 'status',
      header: text.columns.status,
      ...COLUMN_WIDTHS.status,
      cell: (invoice) => <StatusCell invoice={invoice} />,
      // In the order of the invoice's life (spec §4), not alphabetically.
      sortingComparator: (a, b) => INVOICE_STATUSES.indexOf(a.status) - INVOICE_STATUSES.indexOf(b.status),
    },
    {
      id: 'certStatus',
      header: text.columns.certStatus,
      ...COLUMN_WIDTHS.certStatus,
      cell: (invoice) => (
        <span data-testid="invoice-cert-status">
          <CertStatusIndicator status={invoice.certStatus} />
        </span>
      ),
      sortingComparator: (a, b) => byText(CERT_STATUS_LABELS[a.certStatus], CERT_STATUS_LABELS[b.certStatus]),
    },
    {
      id: 'issuedAt',
      header: text.columns.issuedAt,
      ...COLUMN_WIDTHS.issuedAt,
      cell: (invoice) => formatDate(invoice.issuedAt),
      sortingComparator: (a, b) => byDate(a.issuedAt, b.issuedAt),
    },
    {
      id: 'paymentDate',
      header: text.columns.paymentDate,
      ...COLUMN_WIDTHS.paymentDate,
      cell: (invoice) => <PaymentDateCell invoice={invoice} />,
      sortingComparator: (a, b) => byDate(paymentDateOf(a).date, paymentDateOf(b).date),
    },
    {
      id: 'file',
      header: text.columns.file,
      ...COLUMN_WIDTHS.file,
      cell: (invoice) => <FilesCell invoice={invoice} onFileAction={handlers.onFileAction} />,
      sortingComparator: (a, b) => byText(fileKinds(a), fileKinds(b)),
    },
    {
      // The Ley 29623 clock: its deadline and days left while it runs, else how it ended.
      id: 'acquirerConformity',
      header: text.columns.acquirerConformity,
      ...COLUMN_WIDTHS.acquirerConformity,
      cell: (invoice) =>
        invoice.acquirerConformity ? (
          <ConformityStatus conformity={invoice.acquirerConformity} testId="invoice-acquirer-conformity" />
        ) : (
          conformityMessages.none
        ),
      // Soonest deadline first; invoices without a clock last.
      sortingComparator: (a, b) =>
        byDate(a.acquirerConformity?.deadline ?? null, b.acquirerConformity?.deadline ?? null),
    },
  ];
  // A column the user resized keeps its width.
  return columns.map((column) => {
    const width = widths[column.id];
    return width ? { ...column, width } : column;
  });
}

/** The page on screen in the order the user chose (the API's order when none). */
export function sortInvoices(
  items: readonly InvoiceSummary[],
  column: TableProps.SortingColumn<InvoiceSummary> | undefined,
  descending: boolean,
): InvoiceSummary[] {
  const compare = column?.sortingComparator;
  if (!compare) return [...items];
  return [...items].sort((a, b) => (descending ? compare(b, a) : compare(a, b)));
}

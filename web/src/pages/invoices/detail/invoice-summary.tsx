import type { ReactNode } from 'react';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs, { type KeyValuePairsProps } from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Box from '@cloudscape-design/components/box';
import Link from '@cloudscape-design/components/link';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import {
  INVOICE_STATUS_LABELS,
  INVOICE_TYPE_LABELS,
  OPERATION_TYPE_LABELS,
  amountToPayOf,
  formatDate,
  formatDateTime,
  formatTime,
  formatMoney,
  type InvoiceDetail,
  type SapPosting,
  type SapPostingState,
} from '@portal/shared';
import { CertStatusIndicator, InvoiceStatusIndicator } from '../../../components/status-indicators';
import { InvoiceBreakdownSection } from './invoice-breakdown';
import { invoiceDetailHref, type InvoiceKey } from '../../../layout/header/invoice-links';
import { InvoiceFiles } from './invoice-files';
import { PaymentSection } from './payment-section';
import { detailMessages } from './messages';
import { SunatWait } from './sunat-wait';
import { SupplierCdrEvidence } from './supplier-cdr';

const text = detailMessages;
const none = text.values.none;
const list = (codes: readonly string[]) => (codes.length > 0 ? codes.join(', ') : none);

function Section({ title, items }: { title: string; items: KeyValuePairsProps.Pair[] }) {
  return (
    <SpaceBetween size="xs">
      <Header variant="h3">{title}</Header>
      <KeyValuePairs columns={2} minColumnWidth={150} items={items} />
    </SpaceBetween>
  );
}

function pair(label: string, value: ReactNode, testId?: string): KeyValuePairsProps.Pair {
  return { label, value: testId ? <span data-testid={testId}>{value}</span> : value };
}

/**
 * The SAP side of an approved invoice: the MIRO document once SAP posted it; else why it failed (the
 * MIRO worker leaves its reason in statusMessage), or that it is on its way. Staff only: a supplier's answer has none.
 */
function sapValue(invoice: InvoiceDetail, staff: boolean): string | null {
  if (!staff) return null;
  if (invoice.sapDocument) return text.values.sapDocument(invoice.sapDocument.number, invoice.sapDocument.fiscalYear);
  if (!invoice.approved) return null;
  return invoice.statusMessage ?? text.values.miroPending;
}

const POSTING_INDICATOR: Record<SapPostingState, StatusIndicatorProps.Type> = {
  QUEUED: 'pending',
  SENDING: 'in-progress',
  RETRYING: 'warning',
  LATE: 'warning',
  FAILED: 'error',
  POSTED: 'success',
};

/** Where the SAP posting stands now: state, attempt and next attempt, lateness, the reason of a failure. */
function sapPostingItems(posting: SapPosting): KeyValuePairsProps.Pair[] {
  const t = text.sapPosting;
  const state = (
    <SpaceBetween size="xxs">
      <StatusIndicator type={POSTING_INDICATOR[posting.state]}>{t.states[posting.state]}</StatusIndicator>
      {posting.state === 'RETRYING' && (
        <Box variant="small">
          {t.attempt(
            posting.attempts,
            posting.maxAttempts,
            posting.nextAttemptAt ? formatTime(posting.nextAttemptAt, { zone: true }) : null,
          )}
        </Box>
      )}
      {(posting.late || posting.state === 'LATE') && <Box variant="small">{t.lateNote}</Box>}
      {posting.state === 'FAILED' && <Box variant="small">{t.failedNote(posting.attempts)}</Box>}
    </SpaceBetween>
  );
  return [
    pair(t.label, state, 'invoice-detail-sap-posting'),
    ...(posting.reason ? [pair(t.reason, posting.reason, 'invoice-detail-sap-reason')] : []),
  ];
}

/** A link to another invoice's detail: its address (a new tab works too), opened in this sidebar's place. */
function InvoiceLink({
  to,
  label,
  onOpen,
  testId,
}: {
  to: InvoiceKey;
  label: string;
  onOpen?: (key: InvoiceKey) => void;
  testId: string;
}) {
  const key: InvoiceKey = { supplierId: to.supplierId, type: to.type, id: to.id };
  return (
    <Link
      href={invoiceDetailHref(key, window.location.search)}
      onFollow={(event) => {
        if (!onOpen) return;
        event.preventDefault();
        onOpen(key);
      }}
    >
      <span data-testid={testId} data-invoice-id={to.id}>
        {label}
      </span>
    </Link>
  );
}

/** What a note says of its original and why. */
function noteItems(invoice: InvoiceDetail, onOpen?: (key: InvoiceKey) => void): KeyValuePairsProps.Pair[] {
  const reference = invoice.billingReference;
  if (!reference) return [];
  const n = text.notes;
  const original = invoice.original ? (
    <InvoiceLink
      to={invoice.original}
      label={n.originalLabel(INVOICE_TYPE_LABELS[reference.type], reference.id)}
      onOpen={onOpen}
      testId="invoice-detail-original-link"
    />
  ) : (
    n.notInPortal(`${INVOICE_TYPE_LABELS[reference.type]} ${reference.id}`)
  );
  const reason = invoice.noteReason;
  return [
    pair(n.original, original, 'invoice-detail-original'),
    ...(reason
      ? [pair(n.reason, n.reasonValue(reason.code, reason.label, reason.description), 'invoice-detail-note-reason')]
      : []),
  ];
}

/** An original's notes, each a link to its detail. */
function LinkedNotes({ invoice, onOpen }: { invoice: InvoiceDetail; onOpen?: (key: InvoiceKey) => void }) {
  const notes = invoice.linkedNotes ?? [];
  return (
    <SpaceBetween size="xs">
      <Header variant="h3" description={text.notes.amountToPayHint}>
        {text.notes.section}
      </Header>
      <div data-testid="invoice-detail-linked-notes">
        <SpaceBetween size="xxs">
          {notes.map((note) => (
            <div key={`${note.type}#${note.id}`} data-testid="invoice-detail-linked-note" data-invoice-id={note.id}>
              <InvoiceLink
                to={note}
                label={text.notes.linkedNote(INVOICE_TYPE_LABELS[note.type], note.id)}
                onOpen={onOpen}
                testId="invoice-detail-linked-note-link"
              />{' '}
              <Box variant="small" display="inline">
                {text.notes.linkedNoteDetail(
                  INVOICE_STATUS_LABELS[note.status],
                  formatMoney(note.amount, note.currency),
                )}
              </Box>
            </div>
          ))}
        </SpaceBetween>
      </div>
    </SpaceBetween>
  );
}

/** The general section: statuses (SUNAT's, the CDR sent), the parties, a note's original, a RUC risk override. */
function generalItems(
  invoice: InvoiceDetail,
  options: { canRequestSunat: boolean; staff: boolean; onOpenInvoice: ((key: InvoiceKey) => void) | undefined },
): KeyValuePairsProps.Pair[] {
  const { canRequestSunat, staff, onOpenInvoice } = options;
  const f = text.fields;
  const sunatDetail = invoice.sunat ? text.values.sunatDetail(invoice.sunat.estadoRuc, invoice.sunat.condDomiRuc) : '';
  const retryNote = invoice.status === 'REJECTED' && invoice.disapprovedWithoutRejection;
  // A MIRO failure reads in the SAP section; any other message (SUNAT's, the rejection's) here.
  const observation = invoice.approved && !invoice.sapDocument ? null : invoice.statusMessage;
  return [
    pair(f.status, <InvoiceStatusIndicator status={invoice.status} />),
    pair(
      f.certStatus,
      <SpaceBetween size="xxs">
        <CertStatusIndicator status={invoice.certStatus} />
        <SunatWait invoice={invoice} canRequest={canRequestSunat} />
      </SpaceBetween>,
      'invoice-detail-cert-status',
    ),
    ...(sunatDetail ? [pair(f.sunatDetail, sunatDetail)] : []),
    ...(invoice.supplierCdr
      ? [
          pair(
            detailMessages.cdr.label,
            <SupplierCdrEvidence cdr={invoice.supplierCdr} staff={staff} />,
            'invoice-detail-cdr',
          ),
        ]
      : []),
    ...(observation ? [pair(f.observation, observation)] : []),
    ...(retryNote ? [pair(f.retry, text.values.retryAllowed)] : []),
    pair(f.client, text.values.client(invoice.clientName, invoice.client)),
    pair(f.supplier, text.values.supplier(invoice.supplierName, invoice.supplierId)),
    ...noteItems(invoice, onOpenInvoice),
    ...(invoice.rucRiskOverride
      ? [
          pair(
            text.rucRisk.overrideLabel,
            text.rucRisk.overridden(
              invoice.rucRiskOverride.by,
              formatDateTime(invoice.rucRiskOverride.at),
              invoice.rucRiskOverride.reason,
            ),
            'invoice-detail-ruc-override',
          ),
        ]
      : []),
  ];
}

/** The amounts and dates; an original with notes also says what is paid for it now. */
function amountItems(invoice: InvoiceDetail): KeyValuePairsProps.Pair[] {
  const f = text.fields;
  const hasNotes = (invoice.linkedNotes?.length ?? 0) > 0 || Boolean(invoice.noteAdjustments);
  return [
    pair(f.amount, formatMoney(invoice.amount, invoice.currency)),
    // An original with notes: what is paid for it now.
    ...(hasNotes
      ? [
          pair(
            text.notes.amountToPay,
            formatMoney(
              invoice.amountToPay ?? amountToPayOf(invoice.amount, invoice.noteAdjustments),
              invoice.currency,
            ),
            'invoice-detail-amount-to-pay',
          ),
        ]
      : []),
    pair(f.taxAmount, formatMoney(invoice.taxAmount, invoice.currency)),
    pair(f.netAmount, formatMoney(invoice.amount - invoice.taxAmount, invoice.currency)),
    pair(f.issuedAt, formatDate(invoice.issuedAt)),
    pair(f.scheduledAt, formatDate(invoice.scheduledAt)),
    pair(f.paidAt, formatDate(invoice.paidAt)),
  ];
}

/** Everything the sidebar shows of an invoice (spec §2 edit/detail sidebar), read-only. */
export function InvoiceSummary({
  invoice,
  reviewPart,
  canRequestSunat = false,
  staff = false,
  onOpenInvoice,
}: {
  invoice: InvoiceDetail;
  reviewPart: boolean;
  /** The user may ask SUNAT again (staff): the SUNAT status says so after a refusal. */
  canRequestSunat?: boolean;
  /** The user is the company's staff: a CDR that contradicts SUNAT is flagged to them. */
  staff?: boolean;
  /** Opens a linked invoice (a note's original, an original's note) in this sidebar. */
  onOpenInvoice?: (key: InvoiceKey) => void;
}) {
  const f = text.fields;
  const sap = sapValue(invoice, staff === true);
  const posting = invoice.sapPosting ?? null;

  return (
    <SpaceBetween size="l">
      <Section title={text.sections.general} items={generalItems(invoice, { canRequestSunat, staff, onOpenInvoice })} />
      {/* Each section a child of its own, for SpaceBetween to space them. */}
      {reviewPart && (
        <Section
          title={text.sections.review}
          items={[
            pair(f.operationType, invoice.operationType ? OPERATION_TYPE_LABELS[invoice.operationType] : none),
            pair(f.responsible, invoice.responsible?.fullName ?? none),
            pair(f.office, invoice.officeLocation?.office ?? invoice.officeId ?? none),
            pair(f.location, invoice.officeLocation?.location ?? none),
          ]}
        />
      )}
      {reviewPart && (
        <Section
          title={text.sections.documents}
          items={[
            pair(f.purchaseOrders, list(invoice.purchaseOrders)),
            pair(f.serviceSheets, list(invoice.serviceSheets)),
            pair(f.materialDocs, list(invoice.materialDocs)),
          ]}
        />
      )}
      <Section title={text.sections.amounts} items={amountItems(invoice)} />
      <InvoiceBreakdownSection invoice={invoice} />
      <PaymentSection invoice={invoice} staff={staff} />
      {(sap || posting) && (
        <Section
          title={text.sections.sap}
          items={[
            ...(posting ? sapPostingItems(posting) : []),
            // With the posting's state shown, the document only once SAP has it.
            ...(sap && (!posting || invoice.sapDocument) ? [pair(f.sapDocument, sap, 'invoice-detail-sap')] : []),
          ]}
        />
      )}
      {(invoice.linkedNotes?.length ?? 0) > 0 && <LinkedNotes invoice={invoice} onOpen={onOpenInvoice} />}
      {invoice.notes && <Section title={f.notes} items={[pair(f.notes, invoice.notes)]} />}
      <SpaceBetween size="xs">
        <Header variant="h3">{text.sections.files}</Header>
        <InvoiceFiles invoice={invoice} />
      </SpaceBetween>
    </SpaceBetween>
  );
}

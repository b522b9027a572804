import type { ReactNode } from 'react';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs, { type KeyValuePairsProps } from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Box from '@cloudscape-design/components/box';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import {
  OPERATION_TYPE_LABELS,
  formatDate,
  formatTime,
  formatMoney,
  type InvoiceDetail,
  type SapPosting,
  type SapPostingState,
} from '@portal/shared';
import { InvoiceFiles } from './invoice-files';
import { PaymentSection } from './payment-section';
import { detailMessages } from './messages';
import { CertStatusBadge, InvoiceStatusBadge } from './status-badges';
import { SunatWait } from './sunat-wait';

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
 * MIRO worker leaves its reason in statusMessage), or that it is on its way.
 */
function sapValue(invoice: InvoiceDetail): string | null {
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

/** Everything the sidebar shows of an invoice (spec §2 edit/detail sidebar), read-only. */
export function InvoiceSummary({
  invoice,
  reviewPart,
  canRequestSunat = false,
}: {
  invoice: InvoiceDetail;
  reviewPart: boolean;
  /** The user may ask SUNAT again (staff): the SUNAT status says so after a refusal. */
  canRequestSunat?: boolean;
}) {
  const f = text.fields;
  const sap = sapValue(invoice);
  const posting = invoice.sapPosting ?? null;
  const sunatDetail = invoice.sunat ? text.values.sunatDetail(invoice.sunat.estadoRuc, invoice.sunat.condDomiRuc) : '';
  const retryNote = invoice.status === 'REJECTED' && invoice.disapprovedWithoutRejection;
  // A MIRO failure reads in the SAP section; any other message (SUNAT's, the rejection's) here.
  const observation = invoice.approved && !invoice.sapDocument ? null : invoice.statusMessage;

  return (
    <SpaceBetween size="l">
      <Section
        title={text.sections.general}
        items={[
          pair(f.status, <InvoiceStatusBadge status={invoice.status} />),
          pair(
            f.certStatus,
            <SpaceBetween size="xxs">
              <CertStatusBadge status={invoice.certStatus} />
              <SunatWait invoice={invoice} canRequest={canRequestSunat} />
            </SpaceBetween>,
            'invoice-detail-cert-status',
          ),
          ...(sunatDetail ? [pair(f.sunatDetail, sunatDetail)] : []),
          ...(observation ? [pair(f.observation, observation)] : []),
          ...(retryNote ? [pair(f.retry, text.values.retryAllowed)] : []),
          pair(f.client, text.values.client(invoice.clientName, invoice.client)),
          pair(f.supplier, text.values.supplier(invoice.supplierName, invoice.supplierId)),
        ]}
      />
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
      <Section
        title={text.sections.amounts}
        items={[
          pair(f.amount, formatMoney(invoice.amount, invoice.currency)),
          pair(f.taxAmount, formatMoney(invoice.taxAmount, invoice.currency)),
          pair(f.netAmount, formatMoney(invoice.amount - invoice.taxAmount, invoice.currency)),
          pair(f.issuedAt, formatDate(invoice.issuedAt)),
          pair(f.scheduledAt, formatDate(invoice.scheduledAt)),
          pair(f.paidAt, formatDate(invoice.paidAt)),
        ]}
      />
      <PaymentSection invoice={invoice} />
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
      {invoice.notes && <Section title={f.notes} items={[pair(f.notes, invoice.notes)]} />}
      <SpaceBetween size="xs">
        <Header variant="h3">{text.sections.files}</Header>
        <InvoiceFiles invoice={invoice} />
      </SpaceBetween>
    </SpaceBetween>
  );
}

import type { ReactNode } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import KeyValuePairs, { type KeyValuePairsProps } from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';
import {
  amountToPayOf,
  formatDate,
  formatMoney,
  paymentOutlook,
  todayInLima,
  type InvoiceDetail,
} from '@portal/shared';
import { InvoiceStatusIndicator } from '../../../components/status-indicators';
import { ConformityStatus } from '../acquirer-conformity/conformity-status';
import { detailMessages } from './messages';

const text = detailMessages.essentials;

const pair = (label: string, value: ReactNode, testId: string): KeyValuePairsProps.Pair => ({
  label,
  value: <span data-testid={testId}>{value}</span>,
});

/**
 * When the invoice is paid, in one line: paid, scheduled by SAP, none (rejected, nothing to pay), else the expected
 * date while ahead and overdue since its due date once passed (paymentOutlook), never a past date as if to come.
 */
export function PaymentWhen({ invoice, today }: { invoice: InvoiceDetail; today: string }) {
  const paidAt = invoice.remittance?.paidAt ?? invoice.paidAt;
  if (paidAt) return <>{text.paidOn(formatDate(paidAt))}</>;
  if (invoice.status === 'REJECTED') return <>{text.rejectedNoPayment}</>;
  if (invoice.scheduledAt) return <>{text.scheduledFor(formatDate(invoice.scheduledAt))}</>;
  const outlook = paymentOutlook(invoice.payment, today);
  switch (outlook.kind) {
    case 'NONE':
      return <>{text.noPayment}</>;
    case 'EXPECTED':
      return <>{text.expected(formatDate(outlook.date))}</>;
    case 'OVERDUE':
      return (
        <span data-overdue-since={outlook.since} title={text.overdueHint}>
          {text.overdue(formatDate(outlook.since))}
        </span>
      );
  }
}

/** Why a rejected or observed invoice stopped, and what its party does next (the supplier acts, staff follow). */
function NextStep({ invoice, staff }: { invoice: InvoiceDetail; staff: boolean }) {
  if (invoice.status === 'REJECTED') {
    const retry = invoice.disapprovedWithoutRejection;
    const next = staff
      ? retry
        ? text.next.staffRetry
        : text.next.staffFinal
      : retry
        ? text.next.supplierRetry
        : text.next.supplierFinal;
    return (
      <div data-testid="invoice-essentials-reason">
        <Alert type="error" header={text.rejectedHeader}>
          <SpaceBetween size="xxs">
            <span>{invoice.statusMessage ? text.reason(invoice.statusMessage) : text.noReason}</span>
            <span data-testid="invoice-essentials-next">{next}</span>
          </SpaceBetween>
        </Alert>
      </div>
    );
  }
  if (invoice.observation) {
    return (
      <div data-testid="invoice-essentials-reason">
        <Alert type="warning" header={text.observedHeader}>
          <SpaceBetween size="xxs">
            <span>{text.reason(invoice.observation.reason)}</span>
            <span data-testid="invoice-essentials-next">
              {staff ? text.next.staffObserved : text.next.supplierObserved}
            </span>
          </SpaceBetween>
        </Alert>
      </div>
    );
  }
  return null;
}

/**
 * What the sidebar opens on: the status, the amount (what is paid for it, with notes), the net to pay, when it is
 * paid and, for a rejected or observed invoice, why and what to do next. The company's 8-day conformity duty shows
 * here to its staff only, and never as a countdown on a rejected invoice; the legal explanations are collapsed below.
 */
export function InvoiceEssentials({ invoice, staff }: { invoice: InvoiceDetail; staff: boolean }) {
  const money = (amount: number) => formatMoney(amount, invoice.currency);
  const hasNotes = (invoice.linkedNotes?.length ?? 0) > 0 || Boolean(invoice.noteAdjustments);
  const conformity = invoice.acquirerConformity;
  const items: KeyValuePairsProps.Pair[] = [
    pair(
      text.status,
      <SpaceBetween direction="horizontal" size="xs" alignItems="center">
        <InvoiceStatusIndicator status={invoice.status} />
        {invoice.observation && <Badge color="severity-medium">{text.observed}</Badge>}
      </SpaceBetween>,
      'invoice-essentials-status',
    ),
    hasNotes
      ? pair(
          text.amountToPay,
          money(invoice.amountToPay ?? amountToPayOf(invoice.amount, invoice.noteAdjustments)),
          'invoice-essentials-amount',
        )
      : pair(text.amount, money(invoice.amount), 'invoice-essentials-amount'),
    ...(invoice.payment && invoice.status !== 'REJECTED'
      ? [pair(text.netToPay, money(invoice.payment.netToPay), 'invoice-essentials-net')]
      : []),
    pair(text.payment, <PaymentWhen invoice={invoice} today={todayInLima()} />, 'invoice-essentials-payment'),
    ...(staff && conformity?.state === 'OPEN' && invoice.status !== 'REJECTED'
      ? [
          pair(
            text.conformity,
            <ConformityStatus conformity={conformity} testId="invoice-essentials-conformity-status" />,
            'invoice-essentials-conformity',
          ),
        ]
      : []),
  ];

  return (
    <section aria-label={text.label} data-testid="invoice-essentials">
      <SpaceBetween size="s">
        <NextStep invoice={invoice} staff={staff} />
        <Box>
          <KeyValuePairs columns={2} minColumnWidth={150} items={items} />
        </Box>
      </SpaceBetween>
    </section>
  );
}

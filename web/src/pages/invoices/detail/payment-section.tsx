import type { ReactNode } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs, { type KeyValuePairsProps } from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';
import {
  PAYMENT_METHOD_LABELS,
  detractionCodeLabel,
  formatDate,
  formatMoney,
  formatPercent,
  netToPayLine,
  paymentOutlook,
  todayInLima,
  type InvoiceDetail,
} from '@portal/shared';
import { paymentMessages } from '../payment-messages';
import { detailMessages } from './messages';

const text = paymentMessages.section;

const pair = (label: string, value: ReactNode, testId: string): KeyValuePairsProps.Pair => ({
  label,
  value: <span data-testid={testId}>{value}</span>,
});

type Payment = NonNullable<InvoiceDetail['payment']>;

/** When the group expects to pay: the date (moved to a payment run, if so), overdue since, or not yet known. */
function expectedPair(payment: Payment): KeyValuePairsProps.Pair {
  const outlook = paymentOutlook(payment, todayInLima());
  return pair(
    text.expected,
    outlook.kind === 'EXPECTED' ? (
      <SpaceBetween size="xxxs">
        <span>{formatDate(outlook.date)}</span>
        {payment.movedToPaymentRun && payment.dueDate && (
          <Box variant="small">{text.movedNote(formatDate(payment.dueDate))}</Box>
        )}
      </SpaceBetween>
    ) : outlook.kind === 'OVERDUE' ? (
      <span data-overdue-since={outlook.since}>{detailMessages.essentials.overdue(formatDate(outlook.since))}</span>
    ) : (
      text.noPayment
    ),
    'invoice-expected-payment-date',
  );
}

/** The detracción: its deposit, percentage and code, and the account it goes to. */
function detractionPair(detraction: NonNullable<Payment['detraction']>): KeyValuePairsProps.Pair {
  return pair(
    text.detraction,
    <SpaceBetween size="xxxs">
      <span>
        {text.detractionValue(
          formatMoney(detraction.amount, detraction.currency),
          formatPercent(detraction.percent),
          detraction.code,
          detractionCodeLabel(detraction.code),
        )}
      </span>
      {detraction.account && <Box variant="small">{text.detractionAccount(detraction.account)}</Box>}
    </SpaceBetween>,
    'invoice-detraction',
  );
}

/** SAP's remittance once paid: when, its document and method, and the amount paid. */
function remittancePair(
  remittance: NonNullable<InvoiceDetail['remittance']>,
  currency: InvoiceDetail['currency'],
): KeyValuePairsProps.Pair {
  return pair(
    text.remittance,
    <SpaceBetween size="xxxs">
      <span>{text.remittanceValue(formatDate(remittance.paidAt), remittance.document, remittance.methodName)}</span>
      {remittance.amount !== null && (
        <Box variant="small">
          {text.remittanceAmount(formatMoney(remittance.amount, remittance.currency === 'USD' ? 'USD' : currency))}
        </Box>
      )}
    </SpaceBetween>,
    'invoice-remittance',
  );
}

/**
 * What the group will pay and when (docs/ap-payment.md): the forma de pago and its cuotas, the detracción, the
 * retención del IGV, the net to pay, the due and expected payment dates, and SAP's remittance once paid. What does
 * not add up is flagged at the top. An invoice stored before payments were kept shows only its remittance. An
 * expected date that has passed reads as overdue (paymentOutlook); how the SPOT works is collapsed, said to the
 * party it concerns.
 */
export function PaymentSection({ invoice, staff = false }: { invoice: InvoiceDetail; staff?: boolean }) {
  const payment = invoice.payment ?? null;
  const remittance = invoice.remittance ?? null;
  if (!payment && !remittance) return null;
  const money = (amount: number) => formatMoney(amount, invoice.currency);
  const items: KeyValuePairsProps.Pair[] = [];
  if (payment) {
    items.push(pair(text.method, PAYMENT_METHOD_LABELS[payment.method], 'invoice-payment-method'));
    if (payment.installments.length > 0) {
      items.push(
        pair(
          text.installments,
          <SpaceBetween size="xxxs">
            {payment.installments.map((installment) => (
              <span key={installment.number}>
                {text.installment(installment.number, money(installment.amount), formatDate(installment.dueDate))}
              </span>
            ))}
          </SpaceBetween>,
          'invoice-payment-installments',
        ),
      );
    }
    items.push(pair(text.dueDate, formatDate(payment.dueDate), 'invoice-due-date'));
    items.push(expectedPair(payment));
    if (payment.detraction) items.push(detractionPair(payment.detraction));
    if (payment.igvRetention) {
      const retention = payment.igvRetention;
      items.push(
        pair(
          text.retention,
          retention.applies
            ? text.retentionValue(money(retention.amount), formatPercent(retention.percent))
            : text.retentionNone(retention.reason ?? ''),
          'invoice-igv-retention',
        ),
      );
    }
  }
  if (remittance) items.push(remittancePair(remittance, invoice.currency));

  return (
    <SpaceBetween size="xs">
      <Header variant="h3">{text.title}</Header>
      {payment && payment.warnings.length > 0 && (
        <Alert type="warning" header={text.warningsHeader} data-testid="invoice-payment-warnings">
          <SpaceBetween size="xxxs">
            {payment.warnings.map((warning) => (
              <span key={warning}>{warning}</span>
            ))}
          </SpaceBetween>
        </Alert>
      )}
      {payment && (
        <Box variant="strong" data-testid="invoice-net-to-pay">
          {netToPayLine(payment, invoice.currency)}
        </Box>
      )}
      <KeyValuePairs columns={2} minColumnWidth={150} items={items} />
      {payment?.detraction && (
        <div data-testid="invoice-detraction-rules">
          <ExpandableSection headerText={detailMessages.payment.detractionRules}>
            <Box variant="p">
              {staff ? detailMessages.payment.detractionStaff : detailMessages.payment.detractionSupplier}
            </Box>
          </ExpandableSection>
        </div>
      )}
    </SpaceBetween>
  );
}

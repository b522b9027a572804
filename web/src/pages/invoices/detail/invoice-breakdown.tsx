import type { ReactNode } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs, { type KeyValuePairsProps } from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';
import {
  allowanceChargeLabel,
  checkFourthCategoryWithholding,
  formatMoney,
  operationTypeLabel,
  type Currency,
  type DocumentAllowanceCharge,
  type InvoiceBreakdown,
  type InvoiceDetail,
} from '@portal/shared';
import { detailMessages } from './messages';

const text = detailMessages.breakdown;

function pair(label: string, value: ReactNode, testId: string): KeyValuePairsProps.Pair {
  return { label, value: <span data-testid={testId}>{value}</span> };
}

/** A total with, under it, each item by its catálogo 53 label. */
function itemized(items: readonly DocumentAllowanceCharge[], currency: Currency): ReactNode {
  const total = items.reduce((sum, item) => sum + Math.round(item.amount * 100), 0) / 100;
  return (
    <SpaceBetween size="xxs">
      <span>{formatMoney(total, currency)}</span>
      {items.map((item, index) => (
        <Box key={index} variant="small">
          {text.item(allowanceChargeLabel(item.code), formatMoney(item.amount, currency))}
        </Box>
      ))}
    </SpaceBetween>
  );
}

/** What the retención de 4ta categoría a recibo por honorarios states means, when it calls for attention. */
function honorariosNote(invoice: InvoiceDetail, breakdown: InvoiceBreakdown): string | null {
  const money = (amount: number) => formatMoney(amount, invoice.currency);
  const check = checkFourthCategoryWithholding({
    currency: invoice.currency,
    gross: breakdown.saleValue ?? invoice.amount + breakdown.incomeTaxWithholding,
    withheld: breakdown.incomeTaxWithholding,
  });
  switch (check.kind) {
    case 'MISSING':
      return text.honorarios.MISSING(money(check.expected));
    case 'NOT_APPLICABLE':
      return text.honorarios.NOT_APPLICABLE(money(check.stated));
    case 'WRONG_AMOUNT':
      return text.honorarios.WRONG_AMOUNT(money(check.stated), money(check.expected));
    case 'FOREIGN_CURRENCY':
      return text.honorarios.FOREIGN_CURRENCY(money(check.expected));
    default:
      return null;
  }
}

/**
 * The invoice's breakdown as its XML states it (docs/ap-documents.md), for staff and supplier alike: a
 * transferencia gratuita first, then the taxes beside the IGV, discounts, charges, anticipos and the total;
 * a recibo por honorarios shows its gross honorarios, the retention and the net. Nothing for a typed invoice.
 */
export function InvoiceBreakdownSection({ invoice }: { invoice: InvoiceDetail }) {
  const breakdown = invoice.breakdown;
  if (!breakdown) return null;
  const money = (amount: number) => formatMoney(amount, invoice.currency);
  const honorarios = invoice.type === 'RECIBO_POR_HONORARIOS';
  const note = honorarios ? honorariosNote(invoice, breakdown) : null;
  const prepayments = (
    <SpaceBetween size="xxs">
      <span>{money(breakdown.prepaidAmount)}</span>
      {breakdown.prepayments.map((prepayment, index) => (
        <Box key={index} variant="small">
          {text.prepayment(prepayment.documentId, money(prepayment.amount))}
        </Box>
      ))}
    </SpaceBetween>
  );

  const items: KeyValuePairsProps.Pair[] = honorarios
    ? [
        ...(breakdown.saleValue !== null ? [pair(text.gross, money(breakdown.saleValue), 'breakdown-gross')] : []),
        pair(text.withholding, money(breakdown.incomeTaxWithholding), 'breakdown-withholding'),
        pair(text.net, money(invoice.amount), 'breakdown-total'),
      ]
    : [
        ...(breakdown.operationType
          ? [
              pair(
                text.operationType,
                text.operationTypeValue(breakdown.operationType, operationTypeLabel(breakdown.operationType)),
                'breakdown-operation-type',
              ),
            ]
          : []),
        ...(breakdown.saleValue !== null
          ? [pair(text.saleValue, money(breakdown.saleValue), 'breakdown-sale-value')]
          : []),
        ...(breakdown.freeOfChargeValue > 0
          ? [pair(text.freeOfChargeValue, money(breakdown.freeOfChargeValue), 'breakdown-free-value')]
          : []),
        pair(text.igv, money(breakdown.taxes.igv), 'breakdown-igv'),
        pair(text.isc, money(breakdown.taxes.isc), 'breakdown-isc'),
        pair(text.icbper, money(breakdown.taxes.icbper), 'breakdown-icbper'),
        ...(breakdown.taxes.other > 0 ? [pair(text.otherTaxes, money(breakdown.taxes.other), 'breakdown-other')] : []),
        pair(text.allowances, itemized(breakdown.allowances, invoice.currency), 'breakdown-allowances'),
        pair(text.charges, itemized(breakdown.charges, invoice.currency), 'breakdown-charges'),
        pair(text.prepaid, prepayments, 'breakdown-prepaid'),
        pair(text.total, money(invoice.amount), 'breakdown-total'),
      ];

  return (
    <SpaceBetween size="xs">
      <Header variant="h3" description={text.description}>
        {text.title}
      </Header>
      {breakdown.freeOfCharge && (
        <div data-testid="breakdown-free-of-charge">
          <Alert type="info" header={text.freeOfCharge}>
            {text.freeOfChargeDetail}
          </Alert>
        </div>
      )}
      {note && (
        <div data-testid="breakdown-honorarios-note">
          <Alert type="warning">{note}</Alert>
        </div>
      )}
      <div data-testid="invoice-breakdown">
        <KeyValuePairs columns={2} minColumnWidth={150} items={items} />
      </div>
    </SpaceBetween>
  );
}

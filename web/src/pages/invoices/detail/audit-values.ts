import {
  ACQUIRER_CONFORMITY_STATE_LABELS,
  CERT_STATUS_LABELS,
  INVOICE_AUDIT_FIELD_LABELS,
  INVOICE_STATUS_LABELS,
  OPERATION_TYPE_LABELS,
  PAYMENT_METHOD_LABELS,
  formatDate,
  formatDateTime,
  formatMoney,
  type Currency,
  type InvoiceAuditChange,
  type InvoiceAuditField,
  type InvoiceAuditValue,
} from '@portal/shared';
import type { ChangeLine } from '../../../components/change-list';
import { messages } from '../../../messages';

const MONEY_FIELDS = new Set<string>(['amount', 'taxAmount', 'amountToPay', 'netToPay']);
const DATE_FIELDS = new Set<string>(['issuedAt', 'scheduledAt', 'paidAt']);
const LABELLED: Partial<Record<InvoiceAuditField, Readonly<Record<string, string>>>> = {
  status: INVOICE_STATUS_LABELS,
  certStatus: CERT_STATUS_LABELS,
  operationType: OPERATION_TYPE_LABELS,
  paymentMethod: PAYMENT_METHOD_LABELS,
  acquirerConformity: ACQUIRER_CONFORMITY_STATE_LABELS,
};

/** A field's value as a reader reads it: labels for codes, soles and dólares for amounts, Lima's dates. */
export function describeAuditValue(field: string, value: InvoiceAuditValue, currency: Currency): string {
  if (value === null || value === '') return messages.changes.none;
  if (Array.isArray(value)) return value.length > 0 ? value.join(', ') : messages.changes.none;
  if (typeof value === 'boolean') return value ? 'Sí' : 'No';
  if (typeof value === 'number') return MONEY_FIELDS.has(field) ? formatMoney(value, currency) : String(value);
  if (DATE_FIELDS.has(field)) return formatDate(value);
  if (field === 'receivedAt') return formatDateTime(value, { zone: true });
  return LABELLED[field as InvoiceAuditField]?.[value] ?? value;
}

const labelOf = (field: string) => INVOICE_AUDIT_FIELD_LABELS[field as InvoiceAuditField] ?? field;

/**
 * The lines of a record's changes: lists of codes and files as what they gained and lost, the rest before → after
 * (a creation, which has no before, shows what it was created with).
 */
export function changeLinesOf(
  changes: readonly InvoiceAuditChange[],
  currency: Currency,
  creation: boolean,
): ChangeLine[] {
  return changes.map((change) => {
    if (Array.isArray(change.after) || Array.isArray(change.before)) {
      const before = Array.isArray(change.before) ? change.before : [];
      const after = Array.isArray(change.after) ? change.after : [];
      return {
        label: labelOf(change.field),
        kind: 'list',
        added: after.filter((value) => !before.includes(value)),
        removed: before.filter((value) => !after.includes(value)),
      };
    }
    return {
      label: labelOf(change.field),
      kind: 'value',
      before: creation ? null : describeAuditValue(change.field, change.before, currency),
      after: describeAuditValue(change.field, change.after, currency),
    };
  });
}

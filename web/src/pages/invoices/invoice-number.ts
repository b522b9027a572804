import type { InvoiceSummary } from '@portal/shared';

/** The invoice number people read: SERIE-CORRELATIVO, or the id when either part is missing. */
export function invoiceNumber(invoice: Pick<InvoiceSummary, 'prefixId' | 'numericId' | 'id'>): string {
  return invoice.prefixId && invoice.numericId ? `${invoice.prefixId}-${invoice.numericId}` : invoice.id;
}

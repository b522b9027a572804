import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { invoiceCounterDeltas, type CountableInvoice } from '@portal/shared';

/** One invoice's move between two states (null: not there, or no longer counted). */
export interface InvoiceCountChange {
  readonly before: CountableInvoice | null;
  readonly after: CountableInvoice | null;
}

/**
 * The ADD updates of every counter the changes of one transaction move (the dashboard of each company,
 * the list's totals per company and per supplier: shared/src/rules/invoice-counts.ts), one per item.
 */
export function invoiceCounterUpdates(table: string, changes: readonly InvoiceCountChange[]): TransactWriteItem[] {
  return invoiceCounterDeltas(changes).map(({ key, delta }) => {
    const names = Object.keys(delta);
    return {
      Update: {
        TableName: table,
        Key: key,
        UpdateExpression: `ADD ${names.map((_, i) => `#c${i} :d${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#c${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:d${i}`, delta[name]])),
      },
    } as unknown as TransactWriteItem;
  });
}

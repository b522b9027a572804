import { invoiceCounterDeltas, type CounterDelta, type CountableInvoice } from '@portal/shared';
import { updateItem, type TransactItem } from './transaction.js';

/** One invoice's move between two states (null: not there, or no longer counted). */
export interface InvoiceCountChange {
  readonly before: CountableInvoice | null;
  readonly after: CountableInvoice | null;
}

/** The ADD update of one counter item by its delta (DynamoDB document-client shape, as the stores write them). */
export function counterUpdate(table: string, { key, delta }: CounterDelta): TransactItem {
  const names = Object.keys(delta);
  return updateItem(table, {
    Key: key,
    UpdateExpression: `ADD ${names.map((_, i) => `#c${i} :d${i}`).join(', ')}`,
    ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#c${i}`, name])),
    ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:d${i}`, delta[name]])),
  });
}

/**
 * The ADD updates of every counter the changes of one transaction move (the dashboard of each company,
 * the list's totals per company and per supplier: shared/src/rules/invoice-counts.ts), one per item, with `also`
 * (other counts the same transaction moves, such as the company's SAP posting counts on its dashboard counters)
 * merged into the update of its item: a transaction cannot write one item twice.
 */
export function invoiceCounterUpdates(
  table: string,
  changes: readonly InvoiceCountChange[],
  also: readonly CounterDelta[] = [],
): TransactItem[] {
  const items = new Map<string, CounterDelta>();
  for (const { key, delta } of [...invoiceCounterDeltas(changes), ...also]) {
    const id = `${key.pk}|${key.sk}`;
    const merged: Record<string, number> = { ...items.get(id)?.delta };
    for (const [name, by] of Object.entries(delta)) merged[name] = (merged[name] ?? 0) + by;
    items.set(id, { key, delta: merged });
  }
  return [...items.values()].flatMap(({ key, delta }) => {
    const moved = Object.fromEntries(Object.entries(delta).filter(([, by]) => by !== 0));
    return Object.keys(moved).length > 0 ? [counterUpdate(table, { key, delta: moved })] : [];
  });
}

import { keys, type ItemKey } from '../data/table.js';
import type { InvoiceStatus, InvoiceType, OperationType } from '../domain.js';
import type { AcquirerConformityState } from '../schemas/acquirer-conformity.js';
import { dashboardDelta, dashboardMonth } from './dashboard.js';

/**
 * Every counter an invoice is counted in, moved in the transaction of each change:
 * - the dashboard of its company, for its issue month and in total (rules/dashboard.ts);
 * - the list's totals: per company one attribute per `{status}#{type}`, per supplier one per
 *   `{client}#{status}#{type}`, so that "how many invoices match" is one read for the filters people use
 *   most (company or supplier, client, issuer, statuses, types).
 */
export interface CountableInvoice {
  readonly client: string;
  readonly supplierId: string;
  readonly issuedAt: string;
  readonly status: InvoiceStatus;
  readonly type: InvoiceType;
  readonly operationType: OperationType | null;
  /** Counted on the dashboard while running or once presumed (rules/dashboard.ts). */
  readonly acquirerConformity?: { readonly state: AcquirerConformityState } | null | undefined;
}

export interface CounterDelta {
  readonly key: ItemKey;
  readonly delta: Readonly<Record<string, number>>;
}

export const clientCountAttribute = (status: InvoiceStatus, type: InvoiceType) => `${status}#${type}`;
export const supplierCountAttribute = (client: string, status: InvoiceStatus, type: InvoiceType) =>
  `${client}#${status}#${type}`;

/**
 * How the counters move for invoices going from `before` to `after` (null: did not exist / no longer
 * counted), merged per counter item; counters that do not move are left out.
 */
export function invoiceCounterDeltas(
  changes: readonly { readonly before: CountableInvoice | null; readonly after: CountableInvoice | null }[],
): CounterDelta[] {
  const items = new Map<string, { key: ItemKey; delta: Record<string, number> }>();
  const add = (key: ItemKey, name: string, by: number) => {
    const id = `${key.pk}|${key.sk}`;
    const item = items.get(id) ?? { key, delta: {} };
    item.delta[name] = (item.delta[name] ?? 0) + by;
    items.set(id, item);
  };
  const count = (invoice: CountableInvoice, sign: 1 | -1) => {
    const dashboard = sign === 1 ? dashboardDelta(null, invoice) : dashboardDelta(invoice, null);
    for (const period of [dashboardMonth(invoice.issuedAt), 'ALL']) {
      for (const [name, by] of Object.entries(dashboard)) add(keys.dashboard(invoice.client, period), name, by);
    }
    add(keys.invoiceCounts('CLIENT', invoice.client), clientCountAttribute(invoice.status, invoice.type), sign);
    add(
      keys.invoiceCounts('SUPPLIER', invoice.supplierId),
      supplierCountAttribute(invoice.client, invoice.status, invoice.type),
      sign,
    );
  };
  for (const { before, after } of changes) {
    if (before) count(before, -1);
    if (after) count(after, 1);
  }
  return [...items.values()].flatMap(({ key, delta }) => {
    const moved = Object.fromEntries(Object.entries(delta).filter(([, by]) => by !== 0));
    return Object.keys(moved).length > 0 ? [{ key, delta: moved }] : [];
  });
}

/**
 * Sums the counts of one counter item for a filter: every status and type when the lists are empty, and
 * only one client's counts in a supplier's item when `client` is given.
 */
export function sumCounts(
  counts: Readonly<Record<string, unknown>>,
  filter: {
    readonly client?: string | undefined;
    readonly statuses: readonly InvoiceStatus[];
    readonly types: readonly InvoiceType[];
  },
): number {
  let total = 0;
  for (const [name, value] of Object.entries(counts)) {
    if (typeof value !== 'number') continue;
    const parts = name.split('#');
    if (parts.length !== 2 && parts.length !== 3) continue;
    const [status, type] = parts.slice(-2) as [InvoiceStatus, InvoiceType];
    if (parts.length === 3 && filter.client !== undefined && parts[0] !== filter.client) continue;
    if (filter.statuses.length > 0 && !filter.statuses.includes(status)) continue;
    if (filter.types.length > 0 && !filter.types.includes(type)) continue;
    total += value;
  }
  return total;
}

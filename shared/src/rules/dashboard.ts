import type { DashboardCounts } from '../schemas/dashboard.js';
import type { InvoiceStatus, OperationType } from '../domain.js';
import type { AcquirerConformityState } from '../schemas/acquirer-conformity.js';

export type DashboardCounter = keyof DashboardCounts;

/** The dashboard's counter of each invoice status (the backend counts by it, the web reads its report by it). */
export const STATUS_COUNTER: Readonly<Record<InvoiceStatus, DashboardCounter>> = {
  PENDING: 'pending',
  COMPLETED: 'completed',
  ACCEPTED: 'accepted',
  REJECTED: 'rejected',
  SCHEDULED: 'scheduled',
  PAID: 'paid',
};

/** The dashboard's "by type" report counts the operation types of spec §3 that it names. */
function operationCounter(operationType: OperationType | null): DashboardCounter | null {
  switch (operationType) {
    case null:
      return 'invUnassigned';
    case 'SERVICES':
      return 'invService';
    case 'GOODS':
      return 'invGoods';
    case 'WITHOUT_PURCHASE_ORDER':
      return 'invWithoutPurchaseOrder';
    default:
      return null;
  }
}

/** The dashboard's Ley 29623 counters: clocks running (por vencer) and run out without an answer (vencidas). */
function acquirerConformityCounter(state: AcquirerConformityState | undefined): DashboardCounter | null {
  if (state === 'OPEN') return 'acquirerConformityOpen';
  if (state === 'PRESUMED_CONFORMITY') return 'acquirerConformityPresumed';
  return null;
}

export interface CountedInvoice {
  readonly status: InvoiceStatus;
  readonly operationType: OperationType | null;
  readonly acquirerConformity?: { readonly state: AcquirerConformityState } | null | undefined;
}

/**
 * How the counters of one company move when an invoice goes from `before` to `after` (null for
 * "did not exist"). Written in the same transaction as the invoice, so the dashboard is one read.
 */
export function dashboardDelta(
  before: CountedInvoice | null,
  after: CountedInvoice | null,
): Partial<Record<DashboardCounter, number>> {
  const delta: Partial<Record<DashboardCounter, number>> = {};
  const add = (counter: DashboardCounter | null, by: number) => {
    if (counter) delta[counter] = (delta[counter] ?? 0) + by;
  };
  if (before) {
    add(STATUS_COUNTER[before.status], -1);
    add(operationCounter(before.operationType), -1);
    add(acquirerConformityCounter(before.acquirerConformity?.state), -1);
  }
  if (after) {
    add(STATUS_COUNTER[after.status], 1);
    add(operationCounter(after.operationType), 1);
    add(acquirerConformityCounter(after.acquirerConformity?.state), 1);
  }
  for (const [counter, value] of Object.entries(delta)) if (value === 0) delete delta[counter as DashboardCounter];
  return delta;
}

export const EMPTY_DASHBOARD: DashboardCounts = {
  pending: 0,
  completed: 0,
  accepted: 0,
  rejected: 0,
  scheduled: 0,
  paid: 0,
  invService: 0,
  invGoods: 0,
  invUnassigned: 0,
  invWithoutPurchaseOrder: 0,
  acquirerConformityOpen: 0,
  acquirerConformityPresumed: 0,
};

/** The month an invoice is counted in: its issue month, as the dashboard's period (YYYY-MM). */
export function dashboardMonth(issuedAt: string): string {
  return issuedAt.slice(0, 7);
}

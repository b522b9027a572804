import { MIRO_POSTING, type DashboardCounts, type RouteQuery, type Routes } from '@portal/shared';
import type { Caller } from '../http/caller.js';
import type { ClientRepository } from '../repositories/clients.js';
import type { DashboardRepository } from '../repositories/dashboard.js';
import type { MiroOutbox } from '../repositories/miro-outbox.js';
import { assertCompanyAccess } from './company-access.js';

export type DashboardQuery = RouteQuery<Routes['getDashboard']>;

/** The dashboard's MM/YYYY as the counters' month key YYYY-MM; without a period, all time. */
export function dashboardPeriod(period: string | undefined): string | 'ALL' {
  if (!period) return 'ALL';
  const [month, year] = period.split('/');
  return `${year}-${month}`;
}

/**
 * Counts of a company's invoices by status and by operation type, for a month of issue or in total;
 * with `postings`, also its SAP postings late and failed right now (whatever the period).
 */
export function makeGetDashboard({
  dashboard,
  clients,
  postings,
  clock = () => new Date(),
}: {
  dashboard: DashboardRepository;
  clients: Pick<ClientRepository, 'get'>;
  postings?: Pick<MiroOutbox, 'countLateAndFailed'>;
  clock?: () => Date;
}) {
  return async (caller: Caller, query: DashboardQuery): Promise<DashboardCounts> => {
    await assertCompanyAccess(caller, query.client, clients);
    const lateBefore = new Date(clock().getTime() - MIRO_POSTING.lateAfterSeconds * 1000);
    const [counts, sap] = await Promise.all([
      dashboard.getCounts(query.client, dashboardPeriod(query.period)),
      postings?.countLateAndFailed(query.client, lateBefore),
    ]);
    return sap ? { ...counts, latePostings: sap.late, failedPostings: sap.failed } : counts;
  };
}

import type { DashboardCounts, RouteQuery, Routes } from '@portal/shared';
import type { Caller } from '../http/caller.js';
import type { ClientRepository } from '../repositories/clients.js';
import type { DashboardRepository } from '../repositories/dashboard.js';
import { assertCompanyAccess } from './company-access.js';

export type DashboardQuery = RouteQuery<Routes['getDashboard']>;

/** The dashboard's MM/YYYY as the counters' month key YYYY-MM; without a period, all time. */
export function dashboardPeriod(period: string | undefined): string | 'ALL' {
  if (!period) return 'ALL';
  const [month, year] = period.split('/');
  return `${year}-${month}`;
}

/** Counts of a company's invoices by status and by operation type, for a month of issue or in total. */
export function makeGetDashboard({
  dashboard,
  clients,
}: {
  dashboard: DashboardRepository;
  clients: Pick<ClientRepository, 'get'>;
}) {
  return async (caller: Caller, query: DashboardQuery): Promise<DashboardCounts> => {
    await assertCompanyAccess(caller, query.client, clients);
    return dashboard.getCounts(query.client, dashboardPeriod(query.period));
  };
}

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
 * with `postings`, also its SAP postings late and failed right now (whatever the period). The failed ones are the
 * company's SAP posting counts (shared/src/data/sap-posting-counts.ts), read with the counters in one request; the
 * late ones (open since before `lateAfterSeconds` ago: a count that moves with the clock) are counted on the index
 * only when some posting is open at all. A company whose posting counts are not known to be exact is counted on the
 * index as before.
 */
export function makeGetDashboard({
  dashboard,
  clients,
  postings,
  clock = () => new Date(),
}: {
  dashboard: DashboardRepository;
  clients: Pick<ClientRepository, 'get'>;
  postings?: Pick<MiroOutbox, 'countLate' | 'countLateAndFailed'>;
  clock?: () => Date;
}) {
  // Companies found without exact posting counts (a table that held MIRO records before the counts existed): their
  // next dashboards read the counters and count on the index at once, in one round trip, as before the counts.
  const inexact = new Set<string>();
  return async (caller: Caller, query: DashboardQuery): Promise<DashboardCounts> => {
    await assertCompanyAccess(caller, query.client, clients);
    const period = dashboardPeriod(query.period);
    if (!postings) return dashboard.getCounts(query.client, period);
    const lateBefore = new Date(clock().getTime() - MIRO_POSTING.lateAfterSeconds * 1000);
    if (inexact.has(query.client)) {
      const [counts, sap] = await Promise.all([
        dashboard.getCounts(query.client, period),
        postings.countLateAndFailed(query.client, lateBefore),
      ]);
      return { ...counts, latePostings: sap.late, failedPostings: sap.failed };
    }
    const read = await dashboard.getCountsAndPostings(query.client, period);
    const known = read.postings?.exact ? read.postings : null;
    if (!known) inexact.add(query.client);
    const sap = known
      ? {
          // Every open posting is counted from the write that opened it: none open, none late (as fresh as the index).
          late: known.open > 0 ? await postings.countLate(query.client, lateBefore) : 0,
          failed: known.failed,
        }
      : await postings.countLateAndFailed(query.client, lateBefore);
    return { ...read.counts, latePostings: sap.late, failedPostings: sap.failed };
  };
}

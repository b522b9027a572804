import { describe, expect, it } from 'vitest';
import { EMPTY_DASHBOARD, MIRO_POSTING, type Client, type SapPostingCounts } from '@portal/shared';
import type { Caller } from '../http/caller.js';
import { makeGetDashboard } from './dashboard.js';

const COMPANY = '20100070970';
const NOW = new Date('2026-11-27T10:00:00Z');
const client: Client = { taxId: COMPANY, name: 'Uno', address: 'Lima', logo: null, system_name: 'UNO' };
const manager = { level: 'MANAGER', taxIds: [COMPANY] } as unknown as Caller;

/** The dashboard over a company's counters and SAP posting counts as stored, counting what it asks of the index. */
function dashboardOver(postings: SapPostingCounts | null, index: { late: number; failed: number }) {
  const asked: string[] = [];
  const getDashboard = makeGetDashboard({
    clients: { get: async () => client },
    dashboard: {
      getCounts: async () => {
        asked.push('counters');
        return { ...EMPTY_DASHBOARD, accepted: 3 };
      },
      getCountsAndPostings: async () => {
        asked.push('counters and posting counts');
        return { counts: { ...EMPTY_DASHBOARD, accepted: 3 }, postings };
      },
    },
    postings: {
      countLate: async (_client, lateBefore) => {
        asked.push(`late before ${lateBefore.toISOString()}`);
        return index.late;
      },
      countLateAndFailed: async () => {
        asked.push('late and failed');
        return index;
      },
    },
    clock: () => NOW,
  });
  return { asked, get: () => getDashboard(manager, { client: COMPANY }) };
}

describe('the dashboard of a company', () => {
  it('answers the FAILED postings from the counts and asks the index nothing while none is open', async () => {
    const { asked, get } = dashboardOver({ open: 0, failed: 2, exact: true }, { late: 0, failed: 2 });
    expect(await get()).toMatchObject({ accepted: 3, latePostings: 0, failedPostings: 2 });
    expect(asked).toEqual(['counters and posting counts']);
  });

  it('counts the late ones on the index when some posting is open, as late as the clock says now', async () => {
    const { asked, get } = dashboardOver({ open: 4, failed: 1, exact: true }, { late: 3, failed: 1 });
    expect(await get()).toMatchObject({ latePostings: 3, failedPostings: 1 });
    const lateBefore = new Date(NOW.getTime() - MIRO_POSTING.lateAfterSeconds * 1000).toISOString();
    expect(asked).toEqual(['counters and posting counts', `late before ${lateBefore}`]);
  });

  it('counts both on the index for a company whose counts are not known to be exact (stored before them)', async () => {
    for (const postings of [null, { open: 0, failed: 0, exact: false }]) {
      const { asked, get } = dashboardOver(postings, { late: 1, failed: 5 });
      expect(await get()).toMatchObject({ accepted: 3, latePostings: 1, failedPostings: 5 });
      expect(asked).toEqual(['counters and posting counts', 'late and failed']);
      // Known inexact from then on: the counters and the index at once, as before the counts existed.
      asked.length = 0;
      expect(await get()).toMatchObject({ accepted: 3, latePostings: 1, failedPostings: 5 });
      expect(asked).toEqual(['counters', 'late and failed']);
    }
  });
});

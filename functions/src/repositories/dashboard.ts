import { BatchGetCommand, GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  DashboardCounts,
  EMPTY_DASHBOARD,
  keys,
  sapPostingCountsKey,
  sapPostingCountsOf,
  type ItemKey,
  type SapPostingCounts,
} from '@portal/shared';

export interface DashboardRepository {
  /** The counters of a company for one month of issue (YYYY-MM) or for all time ('ALL'). */
  getCounts(client: string, period: string | 'ALL'): Promise<DashboardCounts>;
  /**
   * The same counters and, read with them in one request, the company's SAP posting counts (null: never written,
   * shared/src/data/sap-posting-counts.ts). All time, they are one item: a GetItem; for a month, a BatchGetItem of
   * the month's counters and the all-time item.
   */
  getCountsAndPostings(
    client: string,
    period: string | 'ALL',
  ): Promise<{ counts: DashboardCounts; postings: SapPostingCounts | null }>;
}

/** Tries of a BatchGetItem that DynamoDB answers only in part (UnprocessedKeys). */
const BATCH_ATTEMPTS = 5;

// Counters are created by ADD on the first invoice that moves them: a missing one is zero.
const countsOf = (item: Record<string, unknown> | undefined) => DashboardCounts.parse({ ...EMPTY_DASHBOARD, ...item });

export function makeDashboardRepository(db: DynamoDBDocumentClient, table: string): DashboardRepository {
  return {
    async getCounts(client, period) {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.dashboard(client, period) }));
      return countsOf(Item);
    },

    async getCountsAndPostings(client, period) {
      const countsKey = keys.dashboard(client, period);
      const postingsKey = sapPostingCountsKey(client);
      if (period === 'ALL') {
        const { Item } = await db.send(new GetCommand({ TableName: table, Key: countsKey }));
        return { counts: countsOf(Item), postings: sapPostingCountsOf(Item) };
      }
      const found: Record<string, unknown>[] = [];
      let pending: ItemKey[] = [countsKey, postingsKey];
      for (let attempt = 1; pending.length > 0; attempt++) {
        if (attempt > BATCH_ATTEMPTS) throw new Error('BatchGet kept returning unprocessed dashboard keys');
        if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** attempt));
        const result = await db.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending } } }));
        found.push(...(result.Responses?.[table] ?? []));
        pending = (result.UnprocessedKeys?.[table]?.Keys ?? []) as ItemKey[];
      }
      const itemOf = (key: ItemKey) => found.find((item) => item.pk === key.pk && item.sk === key.sk);
      return { counts: countsOf(itemOf(countsKey)), postings: sapPostingCountsOf(itemOf(postingsKey)) };
    },
  };
}

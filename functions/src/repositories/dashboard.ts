import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DashboardCounts, EMPTY_DASHBOARD, keys } from '@portal/shared';

export interface DashboardRepository {
  /** The counters of a company for one month of issue (YYYY-MM) or for all time ('ALL'). */
  getCounts(client: string, period: string | 'ALL'): Promise<DashboardCounts>;
}

export function makeDashboardRepository(db: DynamoDBDocumentClient, table: string): DashboardRepository {
  return {
    async getCounts(client, period) {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.dashboard(client, period) }));
      // Counters are created by ADD on the first invoice that moves them: a missing one is zero.
      return DashboardCounts.parse({ ...EMPTY_DASHBOARD, ...Item });
    },
  };
}

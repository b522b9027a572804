import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { dashboardMonth, keys, type DashboardCounter } from '@portal/shared';

/** How the counters of one company move for one invoice of a given issue date. */
export interface CounterMove {
  readonly client: string;
  readonly issuedAt: string;
  readonly delta: Partial<Record<DashboardCounter, number>>;
}

/**
 * The ADD updates of the dashboard counters — the issue month and ALL of each company — for the
 * moves of one transaction, merged so that each counter item is written once.
 */
export function dashboardCounterUpdates(table: string, moves: readonly CounterMove[]): TransactWriteItem[] {
  const merged = new Map<string, { client: string; period: string; delta: Record<string, number> }>();
  for (const move of moves) {
    for (const period of [dashboardMonth(move.issuedAt), 'ALL']) {
      const id = `${move.client}|${period}`;
      const entry = merged.get(id) ?? { client: move.client, period, delta: {} };
      for (const [name, value] of Object.entries(move.delta)) entry.delta[name] = (entry.delta[name] ?? 0) + value;
      merged.set(id, entry);
    }
  }
  return [...merged.values()].flatMap(({ client, period, delta }) => {
    const names = Object.keys(delta).filter((name) => delta[name] !== 0);
    if (names.length === 0) return [];
    return [
      {
        Update: {
          TableName: table,
          Key: keys.dashboard(client, period),
          UpdateExpression: `ADD ${names.map((_, i) => `#c${i} :d${i}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#c${i}`, name])),
          ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:d${i}`, delta[name]])),
        },
      } as unknown as TransactWriteItem,
    ];
  });
}

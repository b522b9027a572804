import { randomUUID } from 'node:crypto';
import { DeleteTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys, legacySapPostingCountsKey, sapPostingCountsKey } from '@portal/shared';
import { foldSapPostingCounts } from '../../functions/src/jobs/sap-posting-counts-fold.js';
import { makeDashboardRepository } from '../../functions/src/repositories/dashboard.js';
import { makeSapPostingCountsFold } from '../../functions/src/repositories/sap-posting-counts-fold.js';
import { ensureTable } from '../../local/runtime/provision/aws-resources.js';
import { CLIENTS } from '../support/tenant.js';
import { stageDocumentClient } from '../support/fixtures.js';

/**
 * The fold of the SAP posting counts onto the dashboard's counters (docs/adr/0043-sap-posting-counts-on-the-counters.md)
 * on the stage's DynamoDB Local, in a table of the test's own: a table written by the earlier version holds each
 * company's counts on an item of their own; once folded, the dashboard reads them with its counters in one GetItem.
 */
const [EXACT, INEXACT, UNTOUCHED] = CLIENTS.map((client) => client.taxId) as [string, string, string];

async function withOwnTable(test: (db: DynamoDBDocumentClient, tableName: string) => Promise<void>) {
  const db = stageDocumentClient();
  const tableName = `sap-counts-fold-${randomUUID()}`;
  await ensureTable(db as unknown as DynamoDBClient, tableName);
  try {
    for (const client of CLIENTS) {
      await db.send(new PutCommand({ TableName: tableName, Item: { ...keys.client(client.taxId), ...client } }));
    }
    await test(db, tableName);
  } finally {
    await db.send(new DeleteTableCommand({ TableName: tableName }));
    db.destroy();
  }
}

const put = (db: DynamoDBDocumentClient, TableName: string, Item: Record<string, unknown>) =>
  db.send(new PutCommand({ TableName, Item }));
const get = async (db: DynamoDBDocumentClient, TableName: string, Key: { pk: string; sk: string }) =>
  (await db.send(new GetCommand({ TableName, Key, ConsistentRead: true }))).Item;

describe("the SAP posting counts' fold (ADR 0043)", () => {
  it('carries exact counts onto the counters, adding what the current version counted since its deploy', async () => {
    await withOwnTable(async (db, tableName) => {
      await put(db, tableName, { ...legacySapPostingCountsKey(EXACT), open: 2, failed: 1, exact: true });
      // Since the deploy, an approval of the current version counted one more open posting on the counters.
      await put(db, tableName, { ...sapPostingCountsKey(EXACT), pending: 5, accepted: 7, sapPostingsOpen: 1 });
      // Written before the counts were exact: the dashboard keeps counting this company on the index.
      await put(db, tableName, { ...legacySapPostingCountsKey(INEXACT), open: 3 });
      await put(db, tableName, { ...sapPostingCountsKey(UNTOUCHED), pending: 2 });

      expect(await foldSapPostingCounts(db, tableName)).toEqual({ FOLDED: 1, DROPPED: 1, NONE: CLIENTS.length - 2 });

      const dashboard = makeDashboardRepository(db, tableName);
      const exact = await dashboard.getCountsAndPostings(EXACT, 'ALL');
      expect(exact.postings).toEqual({ open: 3, failed: 1, exact: true });
      expect(exact.counts).toMatchObject({ pending: 5, accepted: 7 });
      expect(exact.counts).not.toHaveProperty('sapPostingsOpen');
      expect((await dashboard.getCountsAndPostings(INEXACT, 'ALL')).postings).toBeNull();
      expect((await dashboard.getCountsAndPostings(UNTOUCHED, 'ALL')).counts).toMatchObject({ pending: 2 });
      // A month's dashboard reads the same counts beside the month's counters.
      expect((await dashboard.getCountsAndPostings(EXACT, '2026-11')).postings).toEqual({
        open: 3,
        failed: 1,
        exact: true,
      });
      for (const client of [EXACT, INEXACT])
        expect(await get(db, tableName, legacySapPostingCountsKey(client))).toBeUndefined();

      // Run again (an interrupted command, the local stage's next start): nothing moves.
      expect(await foldSapPostingCounts(db, tableName)).toEqual({ FOLDED: 0, DROPPED: 0, NONE: CLIENTS.length });
      expect((await dashboard.getCountsAndPostings(EXACT, 'ALL')).postings).toEqual({
        open: 3,
        failed: 1,
        exact: true,
      });
    });
  });

  it('reads the item again when a writer of the earlier version moves it between the read and the write', async () => {
    await withOwnTable(async (db, tableName) => {
      await put(db, tableName, { ...legacySapPostingCountsKey(EXACT), open: 2, exact: true });
      // The earlier version's MIRO worker: a posting FAILED, just after the fold read the item (its first `failed`).
      let moved = 0;
      const racing = {
        send: async (command: unknown) => {
          if (command instanceof TransactWriteCommand && moved++ === 0) {
            await db.send(
              new UpdateCommand({
                TableName: tableName,
                Key: legacySapPostingCountsKey(EXACT),
                UpdateExpression: 'ADD #open :minus, #failed :plus',
                ExpressionAttributeNames: { '#open': 'open', '#failed': 'failed' },
                ExpressionAttributeValues: { ':minus': -1, ':plus': 1 },
              }),
            );
          }
          return db.send(command as never);
        },
      } as unknown as DynamoDBDocumentClient;

      expect(await makeSapPostingCountsFold(racing, tableName).foldCompany(EXACT)).toBe('FOLDED');
      expect(moved).toBe(2);
      const counters = await get(db, tableName, sapPostingCountsKey(EXACT));
      expect(counters).toMatchObject({ sapPostingsOpen: 1, sapPostingsFailed: 1, sapPostingsExact: true });
      expect(await get(db, tableName, legacySapPostingCountsKey(EXACT))).toBeUndefined();
    });
  });
});

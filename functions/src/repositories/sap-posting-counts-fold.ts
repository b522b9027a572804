import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SAP_POSTING_ATTRIBUTES, legacySapPostingCountsKey, sapPostingCountsKey } from '@portal/shared';

/** What the fold did for a company: counts carried over, an inexact item dropped, or nothing to fold. */
export type FoldOutcome = 'FOLDED' | 'DROPPED' | 'NONE';

/** Tries of one company's fold when a writer of the earlier version moves its item between the read and the write. */
const ATTEMPTS = 5;

const LEGACY = ['open', 'failed', 'exact'] as const;

/**
 * Moves a company's SAP posting counts from the item of their own that held them before ADR 0043
 * (`SAP_POSTINGS`) onto its all-time dashboard counters, in one transaction: the item is deleted under the condition
 * that it still holds what was read, and its counts are ADDed to those the current version moved there since its
 * deploy, with `exact` when the item had it. Run once every writer is on the current version (a writer of the earlier
 * one would create the item again, with a count the dashboard no longer reads). Again on a folded company: nothing.
 */
export function makeSapPostingCountsFold(db: DynamoDBDocumentClient, table: string) {
  return {
    async foldCompany(client: string): Promise<FoldOutcome> {
      const legacyKey = legacySapPostingCountsKey(client);
      for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
        const { Item } = await db.send(new GetCommand({ TableName: table, Key: legacyKey, ConsistentRead: true }));
        if (!Item) return 'NONE';
        // The item as read, attribute by attribute (ADD wrote only those that moved).
        const held = LEGACY.map((name, i) =>
          Item[name] === undefined ? `attribute_not_exists(#l${i})` : `#l${i} = :l${i}`,
        );
        const remove = {
          Delete: {
            TableName: table,
            Key: legacyKey,
            ConditionExpression: held.join(' AND '),
            ExpressionAttributeNames: Object.fromEntries(LEGACY.map((name, i) => [`#l${i}`, name])),
            ExpressionAttributeValues: Object.fromEntries(
              LEGACY.flatMap((name, i) => (Item[name] === undefined ? [] : [[`:l${i}`, Item[name]]])),
            ),
          },
        };
        const exact = Item.exact === true;
        const carry = exact
          ? [
              {
                Update: {
                  TableName: table,
                  Key: sapPostingCountsKey(client),
                  UpdateExpression: 'ADD #open :open, #failed :failed SET #exact = :true',
                  ExpressionAttributeNames: {
                    '#open': SAP_POSTING_ATTRIBUTES.open,
                    '#failed': SAP_POSTING_ATTRIBUTES.failed,
                    '#exact': SAP_POSTING_ATTRIBUTES.exact,
                  },
                  ExpressionAttributeValues: {
                    ':open': Number(Item.open ?? 0),
                    ':failed': Number(Item.failed ?? 0),
                    ':true': true,
                  },
                },
              },
            ]
          : [];
        try {
          await db.send(new TransactWriteCommand({ TransactItems: [remove, ...carry] }));
          return exact ? 'FOLDED' : 'DROPPED';
        } catch (error) {
          if (!(error instanceof TransactionCanceledException)) throw error;
        }
      }
      throw new Error(`the SAP posting counts of ${client} kept moving while they were folded`);
    },
  };
}

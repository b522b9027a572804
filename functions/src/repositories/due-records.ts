import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TABLE } from '@portal/shared';

export type RecordKey = { readonly pk: string; readonly sk: string };

/** An UpdateItem's input without its table; its Key may be the whole record. */
export type UpdateInput = Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName'>;

/**
 * Records that a job walks by when they are due (the MIRO outbox, SUNAT checks, acquirer-conformity clocks): each
 * sits under its own byClient partition (`duePartition`, e.g. `MIRO#DUE`) with the sort key `{dueAt}#{pk}` while
 * something is left to do (docs/data-design.md).
 */
export function makeDueRecords<T>(db: DynamoDBDocumentClient, table: string, duePartition: string) {
  return {
    /** One record, read after every write that preceded it. */
    async get(key: RecordKey): Promise<T | null> {
      const result = await db.send(
        new GetCommand({ TableName: table, Key: { pk: key.pk, sk: key.sk }, ConsistentRead: true }),
      );
      return (result.Item as T | undefined) ?? null;
    },

    /** Records due before `now`, soonest first. */
    async due(now: Date, limit: number): Promise<T[]> {
      const index = TABLE.indexes.byClient;
      const page = await db.send(
        new QueryCommand({
          TableName: table,
          IndexName: index.name,
          KeyConditionExpression: '#pk = :pk AND #sk < :now',
          ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey },
          ExpressionAttributeValues: { ':pk': duePartition, ':now': now.toISOString() },
          Limit: limit,
        }),
      );
      return (page.Items ?? []) as T[];
    },

    /** A conditional update: false when its condition failed (the record moved since it was read), nothing written. */
    async updateIf(input: UpdateInput): Promise<boolean> {
      // Callers may hand the whole record as its key: only pk and sk go to DynamoDB.
      const { pk, sk } = input.Key as RecordKey;
      try {
        await db.send(new UpdateCommand({ TableName: table, ...input, Key: { pk, sk } }));
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },
  };
}

/** The sort key of a record due at `at` in its due partition. */
export const dueSortKey = (record: RecordKey, at: string) => `${at}#${record.pk}`;

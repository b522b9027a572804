import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { TABLE } from '@portal/shared';
import { outgoingItem, type OutgoingMessage } from './outgoing.js';

export type RecordKey = { readonly pk: string; readonly sk: string };

/** An UpdateItem's input without its table; its Key may be the whole record. */
export type UpdateInput = Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName'>;

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** A record's conditional write inside a transaction, without its table. */
export type RecordWrite =
  | { readonly Update: Omit<NonNullable<TransactItem['Update']>, 'TableName'> }
  | { readonly Put: Omit<NonNullable<TransactItem['Put']>, 'TableName'> };

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

    /**
     * A record's conditional write committed with the queue message it starts (outgoing.ts relays it): false when
     * the record moved since it was read, and then neither is written, so nothing is sent.
     */
    async commitWithMessage(write: RecordWrite, message: OutgoingMessage): Promise<boolean> {
      const item: TransactItem =
        'Update' in write
          ? { Update: { TableName: table, ...write.Update } }
          : { Put: { TableName: table, ...write.Put } };
      try {
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              item,
              {
                Put: { TableName: table, Item: outgoingItem(message), ConditionExpression: 'attribute_not_exists(pk)' },
              },
            ],
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof TransactionCanceledException) return false;
        throw error;
      }
    },
  };
}

/** The sort key of a record due at `at` in its due partition. */
export const dueSortKey = (record: RecordKey, at: string) => `${at}#${record.pk}`;

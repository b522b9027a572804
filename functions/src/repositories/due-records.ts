import { GetCommand, type DynamoDBDocumentClient, type UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { outgoingItem, type OutgoingMessage } from './outgoing.js';
import { Transaction, type TransactItem, type TxPut, type TxUpdate } from './transaction.js';
import { updateIfHolds } from './conditional-update.js';
import { dueBefore } from './partition-items.js';

export type RecordKey = { readonly pk: string; readonly sk: string };

/** An UpdateItem's input without its table; its Key may be the whole record. */
export type UpdateInput = Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName'>;

/** A record's conditional write inside a transaction, without its table. */
export type RecordWrite = { readonly Update: TxUpdate } | { readonly Put: TxPut };

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
      return (await dueBefore(db, table, duePartition, now.toISOString(), limit)) as T[];
    },

    /** A conditional update: false when its condition failed (the record moved since it was read), nothing written. */
    async updateIf(input: UpdateInput): Promise<boolean> {
      // Callers may hand the whole record as its key: only pk and sk go to DynamoDB.
      const { pk, sk } = input.Key as RecordKey;
      return updateIfHolds(db, table, { ...input, Key: { pk, sk } });
    },

    /**
     * A record's conditional write committed with the queue message it starts (outgoing.ts relays it) and `also`
     * (the counts the move changes): false when the record moved since it was read, and then nothing is written, so
     * nothing is sent.
     */
    async commitWithMessage(
      write: RecordWrite,
      message: OutgoingMessage,
      also: readonly TransactItem[] = [],
    ): Promise<boolean> {
      const tx = new Transaction(table);
      if ('Update' in write) tx.update(write.Update);
      else tx.put(write.Put);
      tx.put({ Item: outgoingItem(message), ConditionExpression: 'attribute_not_exists(pk)' }).add(also);
      return transact(tx);
    },

    /**
     * A conditional update of a record committed with other writes (the counts its move changes): false when its
     * condition failed, and then nothing is written.
     */
    async updateWith(
      input: UpdateInput & { UpdateExpression: string },
      also: readonly TransactItem[],
    ): Promise<boolean> {
      const { pk, sk } = input.Key as RecordKey;
      return transact(new Transaction(table).update({ ...input, Key: { pk, sk } }).add(also), true);
    },
  };

  /**
   * One transaction: false when a condition failed or it was refused otherwise (nothing written). A transaction that
   * met another one on the same item (a company's counts, moved by every posting of the company) is tried again;
   * `conflictThrows`: one that keeps meeting others throws rather than answer false (the record did not move).
   */
  async function transact(tx: Transaction, conflictThrows = false): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      const cancellation = await tx.trySend(db);
      if (!cancellation) return true;
      const codes = cancellation.codes;
      if (codes.includes('ConditionalCheckFailed') || !codes.includes('TransactionConflict')) return false;
      if (attempt >= CONFLICT_ATTEMPTS) {
        if (conflictThrows) throw cancellation.error;
        return false;
      }
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 20));
    }
  }
}

/** Tries of a transaction that meets others on the same item. */
const CONFLICT_ATTEMPTS = 5;

/** The sort key of a record due at `at` in its due partition. */
export const dueSortKey = (record: RecordKey, at: string) => `${at}#${record.pk}`;

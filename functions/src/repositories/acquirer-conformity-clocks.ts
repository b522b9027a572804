import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keys, type ConformityClockRecord } from '@portal/shared';
import { makeDueRecords } from './due-records.js';
import type { ConditionalPut } from './invoice-store.js';
import type { OutgoingMessage } from './outgoing.js';

export { conformityClockKeyOf, conformityClockRecord, type ConformityClockRecord } from '@portal/shared';

/**
 * The record written with an invoice change that moves its clock, only if the record is still as read (its
 * revision; absent when there was none): an InvoiceStore `putIf`, so that the invoice, its clock and the counters
 * move together or not at all.
 */
export function conformityClockPut(seen: ConformityClockRecord | null, next: Record<string, unknown>): ConditionalPut {
  if (!seen) return { item: next, condition: 'attribute_not_exists(pk)' };
  return {
    item: next,
    condition: '#revision = :seenRevision',
    names: { '#revision': 'revision' },
    values: { ':seenRevision': seen.revision },
  };
}

export function makeConformityClocks(db: DynamoDBDocumentClient, table: string) {
  const { get, due, commitWithMessage } = makeDueRecords<ConformityClockRecord>(db, table, keys.acquirerConformityDue);
  return {
    get,

    /** Clocks whose next step is due at `now`, soonest first. */
    due,

    /**
     * The record brought in line with its invoice, only if still as read (false otherwise): a record that says a clock
     * runs when its invoice says it ended leaves the due list.
     */
    async align(seen: ConformityClockRecord, next: Record<string, unknown>): Promise<boolean> {
      const put = conformityClockPut(seen, next);
      try {
        await db.send(
          new PutCommand({
            TableName: table,
            Item: put.item,
            ConditionExpression: put.condition,
            ExpressionAttributeNames: put.names,
            ExpressionAttributeValues: put.values,
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },

    /**
     * A reminder sent: the record moves to its next step with the reminder's message committed beside it, only if
     * it is still as read (false otherwise: another run sent it, or the clock was answered; nothing is written).
     */
    async remind(
      seen: ConformityClockRecord,
      next: Record<string, unknown>,
      message: OutgoingMessage,
    ): Promise<boolean> {
      const put = conformityClockPut(seen, next);
      return commitWithMessage(
        {
          Put: {
            Item: put.item,
            ConditionExpression: put.condition,
            ExpressionAttributeNames: put.names,
            ExpressionAttributeValues: put.values,
          },
        },
        message,
      );
    },
  };
}

export type ConformityClocks = ReturnType<typeof makeConformityClocks>;

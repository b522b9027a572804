import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { INBOUND_MAIL, keys } from '@portal/shared';
import type { MailOutcome, ProcessedMail } from '../use-cases/inbound-mail.js';

const isConditionFailure = (error: unknown) => (error as Error).name === 'ConditionalCheckFailedException';
const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * What the e-mail intake keeps (docs/adr/0035-mail-intake.md): one small record per processed message (its outcome
 * and its answer until sent; no document, no attachment) and a counter of answers per sender and hour, both expiring.
 */
export function makeInboundMailRepository(db: DynamoDBDocumentClient, table: string) {
  return {
    processed: {
      async get(messageId: string): Promise<ProcessedMail | null> {
        const { Item } = await db.send(
          new GetCommand({ TableName: table, Key: keys.inboundMessage(messageId), ConsistentRead: true }),
        );
        if (!Item) return null;
        return {
          messageId,
          outcome: Item.outcome as MailOutcome,
          answer: (Item.answer as ProcessedMail['answer']) ?? null,
          answered: Item.answered === true,
        };
      },
      async create(record: ProcessedMail, now: Date): Promise<boolean> {
        try {
          await db.send(
            new PutCommand({
              TableName: table,
              Item: {
                ...keys.inboundMessage(record.messageId),
                outcome: record.outcome,
                answer: record.answer,
                answered: record.answered,
                processedAt: now.toISOString(),
                expiresAt: epochSeconds(now) + INBOUND_MAIL.processedRecordDays * 86_400,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            }),
          );
          return true;
        } catch (error) {
          if (isConditionFailure(error)) return false;
          throw error;
        }
      },
      async markAnswered(messageId: string): Promise<void> {
        // The answer's text is not needed any more: only that it went.
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.inboundMessage(messageId),
            UpdateExpression: 'SET answered = :true REMOVE answer',
            ExpressionAttributeValues: { ':true': true },
          }),
        );
      },
    },
    answerQuota: {
      /** One more answer to `sender` this hour, unless the hour's are spent (a conditional counter). */
      async take(sender: string, now: Date): Promise<boolean> {
        const hour = now.toISOString().slice(0, 13);
        try {
          await db.send(
            new UpdateCommand({
              TableName: table,
              Key: keys.mailAnswers(sender, hour),
              UpdateExpression: 'ADD answers :one SET expiresAt = if_not_exists(expiresAt, :expires)',
              ConditionExpression: 'attribute_not_exists(answers) OR answers < :max',
              ExpressionAttributeValues: {
                ':one': 1,
                ':max': INBOUND_MAIL.maxRefusalAnswersPerHour,
                ':expires': epochSeconds(now) + 2 * 3600,
              },
            }),
          );
          return true;
        } catch (error) {
          if (isConditionFailure(error)) return false;
          throw error;
        }
      },
    },
  };
}

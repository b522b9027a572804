import { createHash } from 'node:crypto';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { NotificationEvent, Notification, keys, type InvoiceType, type NotificationMessage } from '@portal/shared';
import * as z from 'zod/mini';
import { makeAccountIndexRepository, type Recipient } from './account-index.js';

/** A feed: a supplier RUC's, a company's, or one user's own ('USER', `taxId` its sub). */
export type Audience = { readonly kind: 'SUPPLIER' | 'CLIENT' | 'USER'; readonly taxId: string };
export type FeedItem = Omit<Notification, 'isRead'>;

/**
 * What the feed item of an invoice's event keeps besides what the feed shows (ADR 0039): its kind and the supplier's
 * name, for the staff's daily digest. Items written before the digest have neither.
 */
export interface FeedItemFacts {
  readonly event?: NotificationEvent;
  readonly supplierName?: string;
}

/** One item of a company's feed as the daily digest reads it: the event's kind, when and about which invoice. */
export interface DigestItem {
  readonly registeredAt: string;
  /** Absent on items written before the digest existed (their e-mails were sent one by one then). */
  readonly event: NotificationEvent | null;
  readonly supplierId: string | null;
  readonly supplierName: string | null;
  readonly invoiceType: InvoiceType | null;
  readonly invoiceId: string | null;
}

/** A feed item as stored: the notification without its read mark (that is per user, kept apart). */
const StoredNotification = z.omit(Notification, { isRead: true });

export type { Recipient } from './account-index.js';

const EMAIL_MARK_DAYS = 90;

/** Items per page when the daily digest reads a company's feed. */
const DIGEST_PAGE = 500;

function digestItem(item: Record<string, unknown>): DigestItem {
  const event = NotificationEvent.safeParse(item.event);
  const reference = (item.reference ?? null) as {
    issuerTaxId?: string;
    invoiceType?: InvoiceType;
    invoiceId?: string;
  } | null;
  return {
    registeredAt: String(item.registeredAt),
    event: event.success ? event.data : null,
    supplierId: reference?.issuerTaxId ?? null,
    supplierName: typeof item.supplierName === 'string' ? item.supplierName : null,
    invoiceType: reference?.invoiceType ?? null,
    invoiceId: reference?.invoiceId ?? null,
  };
}

const isConditionFailure = (error: unknown) => (error as Error).name === 'ConditionalCheckFailedException';

/** The id of an event: the same message delivered twice writes and mails once. */
export function notificationId(message: NotificationMessage): string {
  const source = [message.event, message.supplierId, message.invoiceType, message.invoiceId, message.occurredAt].join(
    '|',
  );
  return createHash('sha256').update(source).digest('hex').slice(0, 20);
}

export function makeNotificationRepository(db: DynamoDBDocumentClient, table: string) {
  const accounts = makeAccountIndexRepository(db, table);
  return {
    /** Writes the feed item of each audience once (a redelivery finds it there), the audiences' at once. */
    async record(audiences: readonly Audience[], item: FeedItem & FeedItemFacts): Promise<void> {
      const written = await Promise.allSettled(
        audiences.map((audience) =>
          db.send(
            new PutCommand({
              TableName: table,
              Item: { ...keys.notification(audience.kind, audience.taxId, item.registeredAt, item.id), ...item },
              ConditionExpression: 'attribute_not_exists(pk)',
            }),
          ),
        ),
      );
      for (const outcome of written)
        if (outcome.status === 'rejected' && !isConditionFailure(outcome.reason)) throw outcome.reason;
    },

    /** The newest `limit` items across the feeds, newest first: one Query per feed. */
    async recent(audiences: readonly Audience[], limit: number): Promise<FeedItem[]> {
      const pages = await Promise.all(
        audiences.map((audience) =>
          db.send(
            new QueryCommand({
              TableName: table,
              KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
              ExpressionAttributeValues: {
                ':pk': keys.feed(audience.kind, audience.taxId),
                ':prefix': keys.notificationPrefix,
              },
              ScanIndexForward: false,
              Limit: limit,
            }),
          ),
        ),
      );
      const byId = new Map<string, FeedItem>();
      for (const page of pages) {
        for (const item of page.Items ?? []) {
          const parsed = StoredNotification.parse(item);
          byId.set(parsed.id, parsed);
        }
      }
      return [...byId.values()].sort((a, b) => b.registeredAt.localeCompare(a.registeredAt)).slice(0, limit);
    },

    async readUpTo(userId: string): Promise<string | null> {
      const result = await db.send(new GetCommand({ TableName: table, Key: keys.readMark(userId) }));
      return typeof result.Item?.readUpTo === 'string' ? result.Item.readUpTo : null;
    },

    /** Moves the user's read mark forward, never back. */
    async markRead(userId: string, upTo: string): Promise<void> {
      try {
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.readMark(userId),
            UpdateExpression: 'SET readUpTo = :upTo',
            ConditionExpression: 'attribute_not_exists(readUpTo) OR readUpTo < :upTo',
            ExpressionAttributeValues: { ':upTo': upTo },
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    },

    /** The accounts of a RUC, every page (the account index the user administration keeps). */
    recipients: (taxId: string): Promise<Recipient[]> => accounts.accountsOf(taxId),

    /**
     * A company's feed items registered in [from, to), oldest first, as the daily digest reads them: only the
     * attributes it needs (a projection), a page at a time, at most `max` items (`truncated` says there were more).
     */
    async companyFeedBetween(
      client: string,
      from: string,
      to: string,
      max: number,
    ): Promise<{ items: DigestItem[]; truncated: boolean }> {
      const items: DigestItem[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await db.send(
          new QueryCommand({
            TableName: table,
            // sk is NOTIFICATION#{registeredAt}#{id}: the bounds take from `from` on, and stop before `to`.
            KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
            ExpressionAttributeValues: {
              ':pk': keys.feed('CLIENT', client),
              ':from': `${keys.notificationPrefix}${from}`,
              ':to': `${keys.notificationPrefix}${to}`,
            },
            ProjectionExpression: 'registeredAt, #event, supplierName, #reference',
            ExpressionAttributeNames: { '#event': 'event', '#reference': 'reference' },
            Limit: Math.min(DIGEST_PAGE, max + 1 - items.length),
            ExclusiveStartKey: startKey,
          }),
        );
        for (const item of page.Items ?? []) items.push(digestItem(item));
        startKey = page.LastEvaluatedKey;
      } while (startKey && items.length <= max);
      return { items: items.slice(0, max), truncated: items.length > max };
    },

    /** Takes the right to mail one recipient about one notification; false if it was taken before. */
    async claimEmail(notification: string, userId: string, now: Date): Promise<boolean> {
      try {
        await db.send(
          new PutCommand({
            TableName: table,
            Item: {
              pk: `EMAIL#${notification}`,
              sk: `USER#${userId}`,
              sentAt: now.toISOString(),
              expiresAt: Math.floor(now.getTime() / 1000) + EMAIL_MARK_DAYS * 86_400,
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

    /**
     * The e-mail of a company's employee (the invoice's responsible), when the employee directory holds one: the
     * Ley 29623 reminders are e-mailed to the responsible's own account.
     */
    async employeeEmail(client: string, employeeId: string): Promise<string | null> {
      const result = await db.send(new GetCommand({ TableName: table, Key: keys.employee(client, employeeId) }));
      return typeof result.Item?.email === 'string' && result.Item.email ? result.Item.email : null;
    },

    /** Gives the right back when the mail could not be sent, so that the retry sends it. */
    async releaseEmail(notification: string, userId: string): Promise<void> {
      await db.send(
        new DeleteCommand({ TableName: table, Key: { pk: `EMAIL#${notification}`, sk: `USER#${userId}` } }),
      );
    },
  };
}

export type NotificationRepository = ReturnType<typeof makeNotificationRepository>;

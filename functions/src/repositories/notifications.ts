import { createHash } from 'node:crypto';
import {
  BatchGetCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  type BatchGetCommandOutput,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import {
  DEFAULT_PREFERENCES,
  NoticeKind,
  NotificationEvent,
  Notification,
  inFeed,
  keys,
  type InvoiceType,
  type NotificationMessage,
  type StoredPreferences,
} from '@portal/shared';
import * as z from 'zod/mini';
import { makeAccountIndexRepository, type Recipient } from './account-index.js';
import { putIfAbsent, updateIfHolds } from './conditional-update.js';

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
  /** A notice about no invoice event (a zip processed, an export ready, the daily digest): what the feed filters by. */
  readonly kind?: NoticeKind;
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

/** Feed pages read at most to fill the panel when the user turned some kinds off (bounded work per request). */
const MAX_FEED_PAGES = 5;

/**
 * A user's notification preferences (ADR 0050), beside its read mark under its own partition: the kinds turned off.
 */
const preferencesKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'NOTIFICATION_PREFERENCES' });

/**
 * A company's log of the staff's routine events (ADR 0050): what the daily digest reads instead of them being written
 * to the company's feed one by one. Same sort key as a feed item, so that the digest reads a day by sk.
 */
const digestLog = (client: string) => `DIGEST#CLIENT#${client}`;

/** The kind a stored feed item is filtered by: its invoice event or its own kind; null for items older than both. */
function kindOfItem(item: Record<string, unknown>): NoticeKind | null {
  const parsed = NoticeKind.safeParse(item.kind ?? item.event);
  return parsed.success ? parsed.data : null;
}

const KindList = z.array(NoticeKind);
function storedOf(item: Record<string, unknown> | undefined): StoredPreferences {
  if (!item) return DEFAULT_PREFERENCES;
  const feedOff = KindList.safeParse(item.feedOff ?? []);
  const emailOff = KindList.safeParse(item.emailOff ?? []);
  return { feedOff: feedOff.success ? feedOff.data : [], emailOff: emailOff.success ? emailOff.data : [] };
}

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

/** The id of an event: the same message delivered twice writes and mails once. */
export function notificationId(message: NotificationMessage): string {
  const source = [message.event, message.supplierId, message.invoiceType, message.invoiceId, message.occurredAt].join(
    '|',
  );
  return createHash('sha256').update(source).digest('hex').slice(0, 20);
}

/**
 * The newest `limit` items across the feeds, newest first, without the kinds the user turned off: one Query per
 * feed, and further pages of a feed (at most MAX_FEED_PAGES) only while what it gave was mostly filtered out.
 */
async function recentFeedItems(
  db: DynamoDBDocumentClient,
  table: string,
  audiences: readonly Audience[],
  limit: number,
  preferences: StoredPreferences,
): Promise<FeedItem[]> {
  const pages = await Promise.all(
    audiences.map(async (audience) => {
      const kept: Record<string, unknown>[] = [];
      let startKey: Record<string, unknown> | undefined;
      for (let page = 0; page < MAX_FEED_PAGES; page++) {
        const result = await db.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            ExpressionAttributeValues: {
              ':pk': keys.feed(audience.kind, audience.taxId),
              ':prefix': keys.notificationPrefix,
            },
            ScanIndexForward: false,
            Limit: limit,
            ExclusiveStartKey: startKey,
          }),
        );
        kept.push(...(result.Items ?? []).filter((item) => inFeed(preferences, kindOfItem(item))));
        startKey = result.LastEvaluatedKey;
        if (!startKey || kept.length >= limit) break;
      }
      return kept;
    }),
  );
  const byId = new Map<string, FeedItem>();
  for (const page of pages) {
    for (const item of page) {
      const parsed = StoredNotification.parse(item);
      byId.set(parsed.id, parsed);
    }
  }
  return [...byId.values()].sort((a, b) => b.registeredAt.localeCompare(a.registeredAt)).slice(0, limit);
}

/** The preferences of several users, 100 keys per BatchGet (a company's recipients of one e-mail). */
async function preferencesOf(
  db: DynamoDBDocumentClient,
  table: string,
  userIds: readonly string[],
): Promise<Map<string, StoredPreferences>> {
  const found = new Map<string, StoredPreferences>();
  const unique = [...new Set(userIds)];
  for (let at = 0; at < unique.length; at += 100) {
    let request: Record<string, { Keys: Record<string, unknown>[] }> | undefined = {
      [table]: { Keys: unique.slice(at, at + 100).map(preferencesKey) },
    };
    for (let round = 0; request && round < 5; round++) {
      const result: BatchGetCommandOutput = await db.send(new BatchGetCommand({ RequestItems: request }));
      for (const item of result.Responses?.[table] ?? [])
        found.set(String(item.pk).slice('USER#'.length), storedOf(item));
      const left: Record<string, unknown>[] | undefined = result.UnprocessedKeys?.[table]?.Keys;
      request = left && left.length > 0 ? { [table]: { Keys: left } } : undefined;
    }
    if (request) throw new Error('notification preferences: keys left unread after retries');
  }
  return found;
}

/**
 * A company's routine events registered in [from, to), oldest first, as the daily digest reads them: its digest
 * log (ADR 0050) and its feed (which held them before the log did, and holds its immediate events), each read by
 * sk with only the attributes the digest needs, a page at a time, at most `max` items each (`truncated` says there
 * were more); an item in both (a redelivery across the change) is counted once.
 */
async function companyFeedBetween(
  db: DynamoDBDocumentClient,
  table: string,
  { client, from, to, max }: { client: string; from: string; to: string; max: number },
): Promise<{ items: DigestItem[]; truncated: boolean }> {
  const read = async (pk: string) => {
    const items: { sk: string; item: DigestItem }[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await db.send(
        new QueryCommand({
          TableName: table,
          // sk is NOTIFICATION#{registeredAt}#{id}: the bounds take from `from` on, and stop before `to`.
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: {
            ':pk': pk,
            ':from': `${keys.notificationPrefix}${from}`,
            ':to': `${keys.notificationPrefix}${to}`,
          },
          ProjectionExpression: 'sk, registeredAt, #event, supplierName, #reference',
          ExpressionAttributeNames: { '#event': 'event', '#reference': 'reference' },
          Limit: Math.min(DIGEST_PAGE, max + 1 - items.length),
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) items.push({ sk: String(item.sk), item: digestItem(item) });
      startKey = page.LastEvaluatedKey;
    } while (startKey && items.length <= max);
    return items;
  };
  const [logged, fed] = await Promise.all([read(digestLog(client)), read(keys.feed('CLIENT', client))]);
  const bySk = new Map([...fed, ...logged].map((each) => [each.sk, each.item]));
  const items = [...bySk.values()].sort((a, b) => a.registeredAt.localeCompare(b.registeredAt));
  return { items: items.slice(0, max), truncated: items.length > max };
}

export function makeNotificationRepository(db: DynamoDBDocumentClient, table: string) {
  const accounts = makeAccountIndexRepository(db, table);
  return {
    /** Writes the feed item of each audience once (a redelivery finds it there), the audiences' at once. */
    async record(audiences: readonly Audience[], item: FeedItem & FeedItemFacts): Promise<void> {
      const written = await Promise.allSettled(
        audiences.map((audience) =>
          putIfAbsent(db, table, {
            ...keys.notification(audience.kind, audience.taxId, item.registeredAt, item.id),
            ...item,
          }),
        ),
      );
      for (const outcome of written) if (outcome.status === 'rejected') throw outcome.reason;
    },

    recent: (audiences: readonly Audience[], limit: number, preferences: StoredPreferences = DEFAULT_PREFERENCES) =>
      recentFeedItems(db, table, audiences, limit, preferences),

    /** A staff's routine event, kept for the company's daily digest instead of its feed (once per id). */
    async recordForDigest(client: string, item: FeedItem & FeedItemFacts): Promise<void> {
      await putIfAbsent(db, table, {
        pk: digestLog(client),
        sk: `${keys.notificationPrefix}${item.registeredAt}#${item.id}`,
        ...item,
      });
    },

    /** The user's notification preferences (the defaults when they never chose). */
    async preferences(userId: string): Promise<StoredPreferences> {
      const result = await db.send(new GetCommand({ TableName: table, Key: preferencesKey(userId) }));
      return storedOf(result.Item);
    },

    /** The preferences of several users, 100 keys per BatchGet (a company's recipients of one e-mail). */
    preferencesOf: (userIds: readonly string[]) => preferencesOf(db, table, userIds),

    async savePreferences(userId: string, preferences: StoredPreferences, now: Date): Promise<void> {
      await db.send(
        new PutCommand({
          TableName: table,
          Item: {
            ...preferencesKey(userId),
            feedOff: [...preferences.feedOff],
            emailOff: [...preferences.emailOff],
            updatedAt: now.toISOString(),
          },
        }),
      );
    },

    async readUpTo(userId: string): Promise<string | null> {
      const result = await db.send(new GetCommand({ TableName: table, Key: keys.readMark(userId) }));
      return typeof result.Item?.readUpTo === 'string' ? result.Item.readUpTo : null;
    },

    /** Moves the user's read mark forward, never back. */
    async markRead(userId: string, upTo: string): Promise<void> {
      await updateIfHolds(db, table, {
        Key: keys.readMark(userId),
        UpdateExpression: 'SET readUpTo = :upTo',
        ConditionExpression: 'attribute_not_exists(readUpTo) OR readUpTo < :upTo',
        ExpressionAttributeValues: { ':upTo': upTo },
      });
    },

    /** The accounts of a RUC, every page (the account index the user administration keeps). */
    recipients: (taxId: string): Promise<Recipient[]> => accounts.accountsOf(taxId),

    companyFeedBetween: (client: string, from: string, to: string, max: number) =>
      companyFeedBetween(db, table, { client, from, to, max }),

    /** Takes the right to mail one recipient about one notification; false if it was taken before. */
    async claimEmail(notification: string, userId: string, now: Date): Promise<boolean> {
      return putIfAbsent(db, table, {
        pk: `EMAIL#${notification}`,
        sk: `USER#${userId}`,
        sentAt: now.toISOString(),
        expiresAt: Math.floor(now.getTime() / 1000) + EMAIL_MARK_DAYS * 86_400,
      });
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

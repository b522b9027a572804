import { DEFAULT_PREFERENCES, inFeed, type StoredPreferences } from '@portal/shared';
import type {
  Audience,
  DigestItem,
  FeedItem,
  FeedItemFacts,
  NotificationRepository,
  Recipient,
} from './notifications.js';

/**
 * An in-memory notification repository with the same promises as the DynamoDB one: feeds by audience (an item once
 * per id), accounts by taxId, e-mail claims taken once, and a company's feed read by time as the daily digest reads
 * it (`reads` counts its calls, `failClaimsAfter` makes a claim throw as a run that dies would).
 */
export function fakeNotificationRepository(
  recipients: Record<string, Recipient[]>,
  employeeEmails: Record<string, string> = {},
) {
  const feeds = new Map<string, (FeedItem & FeedItemFacts)[]>();
  const marks = new Map<string, string>();
  const claims = new Set<string>();
  const digestLogs = new Map<string, (FeedItem & FeedItemFacts)[]>();
  const preferences = new Map<string, StoredPreferences>();
  const repository: NotificationRepository = {
    async record(audiences: readonly Audience[], item: FeedItem & FeedItemFacts) {
      for (const a of audiences) {
        const feed = feeds.get(`${a.kind}#${a.taxId}`) ?? [];
        if (!feed.some((existing) => existing.id === item.id)) feed.push(item);
        feeds.set(`${a.kind}#${a.taxId}`, feed);
      }
    },
    async recent(audiences: readonly Audience[], limit: number, chosen: StoredPreferences = DEFAULT_PREFERENCES) {
      return audiences
        .flatMap((a) => feeds.get(`${a.kind}#${a.taxId}`) ?? [])
        .filter((item) => inFeed(chosen, item.kind ?? item.event ?? null))
        .map(({ event: _event, supplierName: _name, kind: _kind, ...item }) => item)
        .sort((x, y) => y.registeredAt.localeCompare(x.registeredAt))
        .slice(0, limit);
    },
    async readUpTo(userId: string) {
      return marks.get(userId) ?? null;
    },
    async markRead(userId: string, upTo: string) {
      if ((marks.get(userId) ?? '') < upTo) marks.set(userId, upTo);
    },
    async recipients(taxId: string) {
      return recipients[taxId] ?? [];
    },
    async companyFeedBetween(client: string, from: string, to: string, max: number) {
      const items: DigestItem[] = [...(digestLogs.get(client) ?? []), ...(feeds.get(`CLIENT#${client}`) ?? [])]
        .filter((item) => item.registeredAt >= from && item.registeredAt < to)
        .sort((x, y) => x.registeredAt.localeCompare(y.registeredAt))
        .map((item) => ({
          registeredAt: item.registeredAt,
          event: item.event ?? null,
          supplierId: item.reference?.issuerTaxId ?? null,
          supplierName: item.supplierName ?? null,
          invoiceType: item.reference?.invoiceType ?? null,
          invoiceId: item.reference?.invoiceId ?? null,
        }));
      return { items: items.slice(0, max), truncated: items.length > max };
    },
    async claimEmail(notification: string, userId: string) {
      const key = `${notification}#${userId}`;
      if (claims.has(key)) return false;
      claims.add(key);
      return true;
    },
    async releaseEmail(notification: string, userId: string) {
      claims.delete(`${notification}#${userId}`);
    },
    async recordForDigest(client: string, item: FeedItem & FeedItemFacts) {
      const log = digestLogs.get(client) ?? [];
      if (!log.some((existing) => existing.id === item.id)) log.push(item);
      digestLogs.set(client, log);
    },
    async preferences(userId: string) {
      return preferences.get(userId) ?? DEFAULT_PREFERENCES;
    },
    async preferencesOf(userIds: readonly string[]) {
      return new Map(userIds.flatMap((id) => (preferences.has(id) ? [[id, preferences.get(id)!] as const] : [])));
    },
    async savePreferences(userId: string, chosen: StoredPreferences) {
      preferences.set(userId, chosen);
    },
    async employeeEmail(client: string, employeeId: string) {
      return employeeEmails[`${client}#${employeeId}`] ?? null;
    },
  };
  return { repository, feeds, claims, digestLogs, preferences };
}

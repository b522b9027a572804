import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AuditEvent, keys } from '@portal/shared';
import type { Page, PageRequest } from './page.js';
import { queryIndexPage } from './query-page.js';

/** The administrators' audit log, newest first: all of it, or the changes made to one account. */
export interface AuditLogRepository {
  list(filter: { readonly userId?: string | undefined }, page: PageRequest): Promise<Page<AuditEvent>>;
}

const parseEvent = (item: Record<string, unknown>) => AuditEvent.parse(item);

export function makeAuditLogRepository(db: DynamoDBDocumentClient, table: string): AuditLogRepository {
  return {
    list: (filter, page) =>
      queryIndexPage(
        db,
        table,
        filter.userId === undefined
          ? { index: 'bySupplier', partition: keys.auditLog, descending: true, parse: parseEvent }
          : { index: 'byClient', partition: keys.auditOfUser(filter.userId), descending: true, parse: parseEvent },
        page,
      ),
  };
}

/** The item of one audit event: written once, never changed. */
export function auditItem(event: AuditEvent): Record<string, unknown> {
  return {
    ...keys.auditEvent(event.occurredAt, event.id),
    ...keys.auditIndexes({ occurredAt: event.occurredAt, id: event.id, targetUserId: event.target.userId }),
    ...event,
  };
}
